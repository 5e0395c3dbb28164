import DeepLinkCore
import Foundation
import HTTPCore
import Li2SDK
import StrictJSON

// MARK: - What the page shows

extension SimulatorSession {
    /// One or two sentences for the page: what just happened, and what the user can do now.
    var stateDescription: String {
        let ios = platform == .ios
        switch state {
        case .linkReady where appInstalled:
            return ios
                ? "The app is installed. Tap the short link: iOS checks the domain's apple-app-site-association "
                    + "file and opens the app instead of Safari (chapter 3)."
                : "The app is installed. Tap the short link: Android checks the domain's assetlinks.json and "
                    + "opens the app instead of Chrome (chapter 4)."
        case .appRunning:
            return "The app is open, and its first launch is long past. Tap the short link: Android hands it "
                + "to the running activity's onNewIntent, not onCreate (chapter 2). Turning the phone now "
                + "re-creates the activity with no link to route."
        case .linkReady:
            return
                "The phone does not have the app. Tap the short link \(link.shortLink) to start the deferred "
                + "journey (chapter 5)."
        case .inStore where ios:
            return pasteboard.text.map {
                "Safari showed the interstitial page: it planted a click token, and its button copied \($0) to "
                    + "the clipboard and opened the App Store. Install the app, or let time pass first."
            } ?? "Safari did not get the interstitial page, so nothing was copied. Install the app anyway."
        case .inStore:
            return installReferrer.map {
                "Chrome followed the redirect to Google Play, which keeps the install referrer \($0) until the "
                    + "app's first launch (chapter 7). Install the app, or let time pass first."
            }
                ?? "The short link did not redirect to Google Play, so there is no referrer. Install the app anyway."
        case .installed:
            return "The app is installed but has never run. Launch it: the SDK waits out its 250 ms grace "
                + "window (this simulator moves the phone's clock by that much) in case a link arrives."
        case .consentPending:
            return
                "First launch: no link arrived within the grace window, so the app shows its consent screen "
                + "(chapter 6). Paste, continue with nothing to paste, skip, or refuse the system's paste alert."
        case .appOpened:
            return ios
                ? "iOS opened the app with the link as a Universal Link: no web page, no click token. "
                    + "Launch it to hand the link to the SDK."
                : "Android opened the app with the link as an App Link: no web page, no click token. "
                    + "Launch it to hand the link to the SDK."
        case .resolved:
            let rotate = activity == nil ? "" : " Turn the phone: the router must not see the link again."
            return outcomeSentence + routerSentence
                + " Launch the app again to see the once-per-install gate." + rotate
        case .relaunched:
            return "A later launch of the same install: the first-launch gate is consumed, so the SDK sent "
                + "nothing. " + outcomeSentence + routerSentence
        }
    }

    /// What chapter 2's router made of the links so far.
    private var routerSentence: String {
        guard let last = routed.last else { return "" }
        let times = routed.count == 1 ? "once" : "\(routed.count) times"
        let what =
            switch last.decision {
            case "navigate": "navigates to \(last.route ?? "a screen")"
            case "openInBrowser": "has no screen for it and hands it back to the browser"
            default: "ignores it"
            }
        return " The app's router (chapter 2) has decided \(times); for \(last.url) it \(what)."
    }

    private var outcomeSentence: String {
        switch outcome {
        case .matched(let destination, _)?:
            let method = lastResponse?.matchMethod ?? "a link"
            return "The SDK matched by \(method) and hands the app \(destination.absoluteString) (chapter 8)."
        case .missed(let reason)?:
            return "The SDK reports a miss: \(reason ?? "no reason given") "
                + "(chapter 11 explains each reason)."
        case .failed(let error)?:
            return "The SDK failed: \(error.localizedDescription)."
        case nil:
            return "The SDK has no outcome."
        }
    }

    /// The session as the routes answer it.
    func json(expiresAtText: String, simulatedTimeText: String) -> SimulatorSessionJSON {
        SimulatorSessionJSON(
            id: id, platform: platform.rawValue, appInstalled: appInstalled, link: link.shortLink,
            state: state.rawValue, stateDescription: stateDescription, next: next.map(\.rawValue),
            log: log.entries, logDropped: log.dropped, outcome: outcomeJSON, routed: routed,
            simulatedTime: simulatedTimeText, expiresAt: expiresAtText)
    }

    private var outcomeJSON: SimulatorOutcomeJSON? {
        switch outcome {
        case .matched(let destination, let clickId)?:
            return SimulatorOutcomeJSON(
                kind: "matched", matchMethod: lastResponse?.matchMethod, missReason: nil,
                deepLink: destination.absoluteString, clickId: clickId, error: nil)
        case .missed(let reason)?:
            return SimulatorOutcomeJSON(
                kind: "missed", matchMethod: lastResponse?.matchMethod, missReason: reason ?? "",
                deepLink: nil, clickId: lastResponse?.clickId, error: nil)
        case .failed(let error)?:
            return SimulatorOutcomeJSON(
                kind: "failed", matchMethod: nil, missReason: nil, deepLink: nil, clickId: nil,
                error: error.localizedDescription)
        case nil:
            return nil
        }
    }
}

/// The body of both simulator routes.
public struct SimulatorSessionJSON: Equatable, Sendable, Encodable {
    public var id: String
    public var platform: String
    public var appInstalled: Bool
    public var link: String
    public var state: String
    public var stateDescription: String
    public var next: [String]
    public var log: [SimulatorLogEntry]
    /// How many of the oldest log entries were dropped to keep the log bounded.
    public var logDropped: Int
    /// Always present: null until the SDK reports one.
    @ExplicitNull public var outcome: SimulatorOutcomeJSON?
    /// Every link the app's router decided, oldest first: a link reaches it once, however often
    /// the activity is re-created.
    public var routed: [SimulatorRoutedLink]
    /// The session's own clock (the phone's and its server's), which `advanceClock` moves.
    public var simulatedTime: String
    public var expiresAt: String
}

/// What the SDK reported, with the service's words for it. Every key is present, null when it
/// does not apply, so the page reads one shape.
public struct SimulatorOutcomeJSON: Equatable, Sendable, Encodable {
    /// `matched`, `missed` or `failed`.
    public var kind: String
    /// The answer's `matchMethod`, exactly as the service spelled it (`clipboard`, …).
    @ExplicitNull public var matchMethod: String?
    @ExplicitNull public var missReason: String?
    /// The destination the app navigates to (`li2_cid` removed).
    @ExplicitNull public var deepLink: String?
    @ExplicitNull public var clickId: String?
    @ExplicitNull public var error: String?
}
