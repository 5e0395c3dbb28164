import DeepLinkCore
import Foundation
import HTTPCore
import Li2SDK
import StrictJSON

/// One simulated phone and its user: the state machine of a journey, with the real SDK
/// (``Li2DeepLinkResolver`` on a ``Li2TestClock``, in-memory storage, a test clipboard) whose
/// requests go to the session's server in process, and a browser that visits the short link
/// through the same server.
@MainActor
final class SimulatorSession {
    let id: String
    let platform: SimulatedPlatform
    let appInstalledAtStart: Bool
    let link: SimulatorLink
    let log: SimulatorLog
    private(set) var state: SimulatorState
    private(set) var appInstalled: Bool
    /// Every link the app's router decided, oldest first.
    private(set) var routed: [SimulatorRoutedLink] = []
    private(set) var outcome: Li2DeepLinkOutcome?
    private(set) var lastResponse: TrackOpenResponse?
    private(set) var expiresAt: Date
    /// The simulated time at the start, on the session server's clock.
    let startedAt: Date
    /// True while an event is being played: a second one waits for its answer instead.
    private(set) var isBusy = false

    private let server: SimulatorServer
    private let configuration: Li2Config
    private let clock = Li2TestClock()
    private let storage: Li2InMemoryStorage
    /// Chapter 2's router, for the hosts the configured links lead to.
    private let router: DeepLinkCore.Router
    /// Android's activity while it exists (chapter 2's ``AndroidLinkIntake``); nil on iOS.
    private(set) var activity: AndroidLinkIntake?
    /// Where the link the SDK is working on came in, for ``routed``.
    private var door = "firstLaunch"
    let pasteboard = Li2TestPasteboard()
    /// What Google Play would hand the app's first launch (Android).
    private(set) var installReferrer: String?
    private var resolver: Li2DeepLinkResolver?

    /// `platform` is `ios` or `android`, checked by the caller; `appRunning` (Android only, also
    /// checked there) starts with the app open and its first launch done.
    init(
        id: String, platform: String, appInstalled: Bool, appRunning: Bool = false, link: SimulatorLink,
        server: SimulatorServer, appHosts: Set<String>, publishableKey: String, linkDomains: [String],
        apiBaseURL: URL, logLimit: Int, expiresAt: Date
    ) {
        self.id = id
        self.platform = SimulatedPlatform(rawValue: platform) ?? .ios
        self.appInstalledAtStart = appInstalled || appRunning
        self.appInstalled = appInstalled || appRunning
        self.state = appRunning ? .appRunning : .linkReady
        self.storage = Li2InMemoryStorage(appRunning ? ["ai.li2.firstLaunchRan": .bool(true)] : [:])
        self.router = DeepLinkCore.Router(schemes: ["myapp"], hosts: appHosts, routes: Route.table)
        self.link = link
        self.server = server
        self.log = SimulatorLog(limit: logLimit)
        self.expiresAt = expiresAt
        self.startedAt = server.now()
        // One attempt, the SDK's default: a retry would wait on the test clock, which only moves on
        // an event, so the answer of the one attempt (even an error) is the outcome to show.
        self.configuration = Li2Config(
            publishableKey: publishableKey, apiBaseURL: apiBaseURL.absoluteString,
            deepLinkDomains: linkDomains)
        if appRunning {
            // Started from the launcher some time ago: no link in its intent.
            var activity = AndroidLinkIntake()
            activity.onCreate(intentData: nil, savedInstanceState: false)
            self.activity = activity
            _ = makeResolver()
        }
    }

    func touch(until date: Date) {
        expiresAt = date
    }

    /// The events allowed now, in the order the page shows their buttons.
    var next: [SimulatorEvent] {
        if isBusy { return [] }
        let rotate: [SimulatorEvent] = activity == nil ? [] : [.rotate]
        switch state {
        case .linkReady: return [.tapLink]
        case .appRunning: return [.tapLink] + rotate
        case .inStore: return [.install, .advanceClock]
        case .installed: return [.launch, .advanceClock]
        case .consentPending: return [.paste, .pasteEmpty, .optOut, .deny, .advanceClock]
        case .appOpened: return [.launch]
        case .resolved: return [.launch] + rotate
        case .relaunched: return rotate
        }
    }

    /// The simulated time: the session server's clock.
    var simulatedTime: Date { server.now() }

    /// Plays one event the caller has checked against ``next``.
    func play(_ event: SimulatorEvent, seconds: Double?) async {
        isBusy = true
        defer { isBusy = false }
        log.step = event.rawValue
        switch (event, state) {
        case (.tapLink, .appRunning):
            await deliverNewIntent()
        case (.tapLink, _):
            if appInstalled {
                state = .appOpened
            } else {
                await visitShortLink()
            }
        case (.install, _):
            appInstalled = true
            state = .installed
        case (.launch, .resolved):
            relaunch()
        case (.launch, .appOpened):
            await launchWithLink()
        case (.launch, _):
            await firstLaunch()
        case (.advanceClock, _):
            let amount = seconds ?? 0
            server.advance(amount)
            clock.advance(by: .seconds(amount))
        case (.paste, _), (.pasteEmpty, _), (.optOut, _), (.deny, _):
            answerClipboardPrompt(event)
            await finish()
        case (.rotate, _):
            // The re-created activity hands over whatever chapter 2's rules let through.
            if let url = activity?.recreate() {
                await deliver(url, via: "onCreate")
            }
        }
    }

    /// Hands the user's answer to the clipboard prompt to the resolver.
    private func answerClipboardPrompt(_ event: SimulatorEvent) {
        switch event {
        case .paste:
            resolver?.submitPasteControlResult(pasteboard.text)
        case .pasteEmpty:
            // The user's clipboard no longer holds the link (they copied something else since,
            // or cleared it): the paste control is grey, and the screen offers to continue.
            pasteboard.text = nil
            resolver?.submitPasteControlEmpty()
        case .optOut:
            resolver?.submitOptOut()
        case .deny:
            // A direct read, as on iOS 15 or an app without the paste control: iOS 16 and later
            // show the paste alert, and the user says "Don't Allow Paste".
            pasteboard.refusesReads = true
            resolver?.beginRawProbeOptIn()
        case .tapLink, .install, .launch, .advanceClock, .rotate:
            break
        }
    }

    // MARK: The browser

    static let iPhoneUserAgent =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
        + "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
    static let androidUserAgent =
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
        + "Chrome/126.0.0.0 Mobile Safari/537.36"

    /// The phone's browser opens the short link (the app is not there to take it): the same
    /// request a real phone sends, `GET /{key}` with the link's host, answered by the server's
    /// short-link route, which plants the click token.
    private func visitShortLink() async {
        let userAgent = platform == .ios ? Self.iPhoneUserAgent : Self.androidUserAgent
        let headers: HTTPHeaders = [
            "Host": link.domain, "User-Agent": userAgent, "Accept": "text/html",
        ]
        let request = HTTPRequest(method: .get, target: "/\(link.key)", headers: headers)
        let response = await exchange(request, url: link.shortLink)
        switch platform {
        case .ios:
            // The interstitial's button copies the text of its link element, then opens the
            // App Store: the clipboard now holds the short link with its click token.
            if let copied = Self.clipboardLink(inInterstitial: response.bodyText) {
                pasteboard.text = copied
            }
        case .android:
            // Play keeps the `referrer` parameter of the store URL and returns it, decoded once,
            // to the first launch.
            if let location = response.headers["Location"],
                let items = URLComponents(string: location)?.queryItems,
                let referrer = items.first(where: { $0.name == "referrer" })?.value
            {
                installReferrer = referrer
            }
        }
        state = .inStore
    }

    /// The text of the interstitial's `<code id="li2-clipboard-link">`, unescaped.
    static func clipboardLink(inInterstitial html: String) -> String? {
        guard let open = html.range(of: #"<code id="li2-clipboard-link">"#),
            let close = html.range(of: "</code>", range: open.upperBound..<html.endIndex)
        else { return nil }
        return String(html[open.upperBound..<close.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    // MARK: The app

    /// The first launch after install, with nothing but the deferred path: the app asks for
    /// consent (iOS) or hands over the install referrer (Android), and the grace window runs
    /// out, as it does on a phone 250 ms after the first screen appears.
    private func firstLaunch() async {
        let resolver = makeResolver()
        door = "firstLaunch"
        switch platform {
        case .ios:
            resolver.requestFirstLaunchConsentAfterGrace()
        case .android:
            startActivity(intentData: nil)
            resolver.handleFirstLaunchDeferred(referrer: installReferrer ?? "")
        }
        clock.advance(by: .nanoseconds(configuration.firstLaunchGraceNanoseconds))
        if resolver.isConsentPending {
            state = .consentPending
        } else {
            await finish()
        }
    }

    /// The system opened the app with the link: it asks for consent as on every first launch,
    /// and the link arrives inside the grace window, which cancels the deferred path.
    private func launchWithLink() async {
        let resolver = makeResolver()
        resolver.requestFirstLaunchConsentAfterGrace()
        let url = URL(string: link.shortLink)
        switch platform {
        case .ios:
            door = "sceneWillConnect"
            if let url { resolver.handle(url: url) }
        case .android:
            door = "onCreate"
            if let url = startActivity(intentData: url) { resolver.handle(url: url) }
        }
        clock.advance(by: .nanoseconds(configuration.firstLaunchGraceNanoseconds))
        await finish()
    }

    /// Android, app running: the system hands the tapped App Link to the running activity's
    /// `onNewIntent` (its launch mode is `singleTask`, chapter 4), and the app passes it on.
    private func deliverNewIntent() async {
        guard let url = URL(string: link.shortLink), let delivered = activity?.onNewIntent(data: url) else {
            return
        }
        await deliver(delivered, via: "onNewIntent")
    }

    /// A link an activity handed over goes to the SDK, whose answer goes to the router.
    private func deliver(_ url: URL, via: String) async {
        door = via
        resolver?.handle(url: url)
        await finish()
    }

    /// A new activity (Android) and the link its `onCreate` hands over.
    @discardableResult
    private func startActivity(intentData: URL?) -> URL? {
        var activity = AndroidLinkIntake()
        let url = activity.onCreate(intentData: intentData, savedInstanceState: false)
        self.activity = activity
        return url
    }

    /// A later launch: same install (same storage), so the gate is consumed and nothing is sent.
    private func relaunch() {
        let resolver = makeResolver()
        door = "firstLaunch"
        switch platform {
        case .ios: resolver.requestFirstLaunchConsentAfterGrace()
        case .android:
            startActivity(intentData: nil)
            resolver.handleFirstLaunchDeferred(referrer: installReferrer ?? "")
        }
        clock.advance(by: .nanoseconds(configuration.firstLaunchGraceNanoseconds))
        state = .relaunched
    }

    private func makeResolver() -> Li2DeepLinkResolver {
        let runtime = Li2Runtime(
            config: configuration,
            dependencies: Li2Dependencies(
                clock: clock.clock, storage: storage.storage, pasteboard: pasteboard,
                transport: transport, random: Li2Random { 0 }))
        let resolver = Li2DeepLinkResolver(runtime: runtime) { [weak self] outcome in
            self?.receive(outcome)
        }
        self.resolver = resolver
        return resolver
    }

    /// The SDK's callback: the outcome, and a matched destination through the app's router.
    private func receive(_ outcome: Li2DeepLinkOutcome) {
        self.outcome = outcome
        guard case .matched(let destination, _) = outcome else { return }
        let decision = router.decide(destination)
        var entry = SimulatorRoutedLink(
            step: log.step, via: door, url: destination.absoluteString, decision: "ignore", route: nil)
        switch decision {
        case .navigate(let route):
            entry.decision = "navigate"
            entry.route = String(describing: route)
        case .openInBrowser:
            entry.decision = "openInBrowser"
        case .ignore:
            break
        }
        routed.append(entry)
    }

    /// Waits for the SDK's request to be answered, then records the outcome.
    private func finish() async {
        guard let resolver else { return }
        await resolver.settle()
        if let response = resolver.lastResponse { lastResponse = response }
        if outcome != nil { state = .resolved }
    }

    // MARK: The wire

    /// The SDK's transport: the request goes to the session's server as an ``HTTPRequest``,
    /// without a socket, and both directions are logged.
    private var transport: Li2Transport {
        Li2Transport { [weak self] request in
            guard let self else { throw URLError(.cancelled) }
            let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
            var target = components?.percentEncodedPath ?? request.url.path
            if let query = components?.percentEncodedQuery { target += "?" + query }
            var headers = HTTPHeaders(
                request.headers.sorted { $0.key < $1.key }.map {
                    HTTPHeaders.Field(name: $0.key, value: $0.value)
                })
            if let host = request.url.host {
                headers["Host"] = request.url.port.map { "\(host):\($0)" } ?? host
            }
            headers["User-Agent"] = self.platform.appUserAgent
            let httpRequest = HTTPRequest(
                method: HTTPMethod(rawValue: request.method), target: target, headers: headers,
                body: request.body)
            let response = await self.exchange(httpRequest, url: request.url.absoluteString)
            return Li2HTTPResponse(status: response.status.code, body: response.body)
        }
    }

    /// Sends `request` to the server and logs both directions.
    private func exchange(_ request: HTTPRequest, url: String) async -> HTTPResponse {
        log.append(
            SimulatorLogEntry(
                step: log.step, direction: "request", method: request.method.rawValue, url: url,
                headers: Self.dictionary(request.headers), body: JSONValue(loggedBody: request.body)))
        let response = await server.responder.respond(to: request)
        log.append(
            SimulatorLogEntry(
                step: log.step, direction: "response", method: request.method.rawValue, url: url,
                status: response.status.code, headers: Self.dictionary(response.headers),
                body: JSONValue(loggedBody: response.body)))
        return response
    }

    static func dictionary(_ headers: HTTPHeaders) -> [String: String] {
        var result: [String: String] = [:]
        for field in headers where result[field.name] == nil {
            result[field.name] = field.value
        }
        return result
    }
}
