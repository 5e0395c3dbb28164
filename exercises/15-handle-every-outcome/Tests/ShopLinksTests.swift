import DeepLinkCore
import Foundation
import Li2SDK
import Testing

@testable import HandleEveryOutcome

/// One install of the shop on a phone the test controls: the SDK's public test doubles for time,
/// storage, the clipboard and the network, and the shop's handler on top. Nothing waits: the
/// clock moves when a test moves it, and the network answers from `replies`.
@MainActor
struct Phone {
    let clock: Li2TestClock
    let storage: Li2InMemoryStorage
    let transport: Li2InMemoryTransport
    let handler: ShopLinkHandler

    init(
        replies: [Reply] = [],
        clock: Li2TestClock = Li2TestClock(), storage: Li2InMemoryStorage = Li2InMemoryStorage()
    ) {
        self.clock = clock
        self.storage = storage
        transport = Li2InMemoryTransport(replies: replies)
        let runtime = Li2Runtime(
            config: Li2Config(publishableKey: "li2_pk_shop", deepLinkDomains: ["go.example"]),
            dependencies: Li2Dependencies(
                clock: clock.clock, storage: storage.storage, pasteboard: Li2TestPasteboard(),
                transport: transport.transport, random: .seeded(1)))
        handler = ShopLinkHandler(runtime: runtime)
    }

    /// Hands `link` to the shop, as `onOpenURL` would, and waits for the answer to be delivered.
    func open(_ link: String) async {
        handler.open(URL(string: link)!)
        await handler.resolver.settle()
    }

    /// The `deepLink` of every `track/open` request sent so far.
    var lookedUp: [String?] {
        transport.requests.map { request in
            (try? JSONDecoder().decode(TrackOpenRequest.self, from: request.body))?.deepLink
        }
    }
}

/// One scripted answer of the network.
typealias Reply = Result<Li2HTTPResponse, Li2InMemoryTransport.Failure>

/// `track/open` answers as chapter 8 shows them.
enum Answer {
    static func matched(_ destination: String, clickId: String = "Qm7pX2rT9wLs4NcV") -> Reply {
        .success(
            .json(
                200,
                #"{"clickId":"\#(clickId)","link":{"id":"link_p42","domain":"go.example","key":"p42","url":"\#(destination)"},"matchMethod":"universal_link","platform":"ios"}"#
            ))
    }

    static func missed(_ reason: String) -> Reply {
        .success(.json(200, #"{"clickId":"inMOjDCgPljNuOnY","link":null,"missReason":"\#(reason)"}"#))
    }

    static func refused(_ status: Int, _ body: String) -> Reply {
        .success(.json(status, body))
    }
}

struct LinkDomainTests {
    /// Read: chapters/09-the-sdk-api.md#configuring
    @Test func theLinkDomainsAreTheApplinksEntriesOfTheEntitlement() {
        let entitlement = [
            "applinks:go.example", "webcredentials:example.com", "applinks:www.go.example?mode=developer",
            "applinks:go.example?mode=developer+managed", "activitycontinuation:example.com",
        ]
        #expect(
            ShopSetup.linkDomains(fromEntitlement: entitlement) == ["go.example", "www.go.example"],
            """
            deepLinkDomains are the domains of the applinks: entries, without their ?mode= suffix, once \
            each and in order; other services (webcredentials:, activitycontinuation:) are not link domains
            """)
    }
}

/// These tests change the SDK's shared configuration, so they run one at a time; every other
/// test of this exercise gives the SDK a runtime of its own and never touches it.
@Suite(.serialized)
struct ConfigureTests {
    /// A configuration to tell "nothing was configured" from "something was".
    static let before = Li2Config(publishableKey: "li2_pk_before", deepLinkDomains: ["before.example"])

    /// Read: chapters/09-the-sdk-api.md#configuring
    @Test func configureHandsTheSDKTheKeyAndEveryLinkDomain() throws {
        Li2.configure(Self.before)
        try ShopSetup.configure(
            publishableKey: "li2_pk_shop",
            entitlement: ["applinks:go.example", "applinks:www.go.example", "webcredentials:example.com"])
        #expect(
            Li2.runtime?.config
                == Li2Config(
                    publishableKey: "li2_pk_shop", deepLinkDomains: ["go.example", "www.go.example"]),
            """
            configure must call Li2.configure(publishableKey:deepLinkDomains:) with the key and every \
            applinks: domain, and leave the other settings (the API root, 30 days, 250 ms) at their defaults
            """)
    }

    /// Read: chapters/11-troubleshooting.md#every-call-fails-with-401
    @Test func anEmptyKeyIsRefusedAndNothingIsConfigured() {
        Li2.configure(Self.before)
        #expect(
            throws: SetupError.emptyPublishableKey,
            "an empty publishable key is refused with .emptyPublishableKey"
        ) {
            try ShopSetup.configure(publishableKey: "", entitlement: ["applinks:go.example"])
        }
        #expect(
            Li2.runtime?.config == Self.before,
            "an empty key means every call is answered 401: refuse it before configuring anything")
    }

    /// Read: chapters/11-troubleshooting.md#every-call-fails-with-401
    @Test func aSecretKeyIsRefusedAndNothingIsConfigured() {
        Li2.configure(Self.before)
        #expect(throws: SetupError.secretKeyInApp, "a secret key (li2_sk_) is refused with .secretKeyInApp") {
            try ShopSetup.configure(
                publishableKey: "li2_sk_demo_8d3b6e0f5a", entitlement: ["applinks:go.example"])
        }
        #expect(
            Li2.runtime?.config == Self.before,
            "a secret key (li2_sk_) never goes into an app: refuse it before configuring anything")
    }

    /// Read: chapters/09-the-sdk-api.md#configuring
    @Test func anEntitlementWithoutLinkDomainsIsRefused() {
        Li2.configure(Self.before)
        #expect(
            throws: SetupError.noLinkDomains,
            "an entitlement without applinks: is refused with .noLinkDomains"
        ) {
            try ShopSetup.configure(
                publishableKey: "li2_pk_shop", entitlement: ["webcredentials:example.com"])
        }
        #expect(
            Li2.runtime?.config == Self.before,
            "with no applinks: domain the resolver would ignore every link: refuse the set-up")
    }
}

@MainActor
struct OutcomeTests {
    /// Read: chapters/09-the-sdk-api.md#the-resolver
    @Test func aLinkOnALinkDomainGoesToTheResolverAndItsDestinationToTheRouter() async {
        let phone = Phone(replies: [
            Answer.matched("https://example.com/product/42?ref=go&li2_cid=Ab3dE5fG7hJ9kL1m")
        ])
        await phone.open("https://go.example/p42")
        #expect(
            phone.lookedUp == ["https://go.example/p42"],
            "a link whose host is a link domain goes to resolver.handle(url:), which looks it up once")
        #expect(
            phone.handler.route == .product(id: "42"),
            "a .matched destination goes through the shop's router: /product/42 opens product 42")
    }

    /// Read: chapters/09-the-sdk-api.md#the-resolver
    @Test func theAppsOwnLinksGoStraightToItsRouter() async {
        let phone = Phone()
        await phone.open("myapp://order/7")
        #expect(phone.handler.route == .order(id: "7"), "the shop's custom scheme is its own router's")
        await phone.open("https://example.com/profile")
        #expect(phone.handler.route == .profile, "so is its website's host: it is not a link domain")
        await phone.open("https://elsewhere.example/about")
        #expect(
            phone.handler.openedInBrowser == [URL(string: "https://elsewhere.example/about")!],
            "a web link the router does not own goes back to the browser")
        #expect(
            phone.transport.requests.isEmpty,
            "the resolver ignores hosts that are not link domains: ask canHandle(_:) and route the rest yourself"
        )
    }

    /// Read: chapters/09-the-sdk-api.md#what-the-resolver-tells-you
    @Test func aMatchedDestinationWithoutAScreenOpensInTheBrowserWithoutItsToken() async {
        let phone = Phone(replies: [
            Answer.matched("https://example.com/help/returns?li2_cid=IbOaXPc4Ch9cc1iO&lang=en")
        ])
        await phone.open("https://go.example/help")
        #expect(
            phone.handler.openedInBrowser == [URL(string: "https://example.com/help/returns?lang=en")!],
            """
            a destination the router has no screen for goes to the browser, as the SDK delivered it: \
            li2_cid already removed, every other query item kept
            """)
        #expect(phone.handler.route == nil, "and the app stays on its home screen")
    }

    /// Read: chapters/09-the-sdk-api.md#what-the-resolver-tells-you
    @Test func aMissKeepsTheScreenAndLogsTheReason() async {
        let phone = Phone(replies: [Answer.missed("unknown_link")])
        await phone.open("myapp://profile")
        await phone.open("https://go.example/sumer")
        #expect(phone.handler.route == .profile, "a miss is not an error: the app stays where it is")
        #expect(
            phone.handler.notices == [.noDeferredLink(reason: "unknown_link")],
            "a miss is logged with the service's missReason, passed through as it came")
        #expect(phone.handler.openedInBrowser.isEmpty, "a miss opens nothing")
    }

    /// Read: chapters/09-the-sdk-api.md#what-the-resolver-tells-you
    @Test func a401NamesThePublishableKeyWithTheServicesWords() async {
        let body = #"{"error":{"code":"invalid_key","message":"the API key is not valid"}}"#
        let phone = Phone(replies: [Answer.refused(401, body)])
        await phone.open("https://go.example/p42")
        #expect(
            phone.handler.notices == [.checkPublishableKey(serviceSaid: body)],
            "TrackOpenError.httpError(401, body) means a missing or wrong key: log it with the service's body"
        )
        #expect(phone.handler.route == nil, "a failure leaves the app where it is")
    }

    /// Read: chapters/11-troubleshooting.md#every-call-fails-with-404
    @Test func aWrongAPIRootIsNamed() async {
        let phone = Phone(replies: [
            Answer.refused(404, #"{"error":{"code":"not_found","message":"no route for /track/open"}}"#)
        ])
        await phone.open("https://go.example/p42")
        phone.handler.handle(.failed(TrackOpenError.invalidURL))
        #expect(
            phone.handler.notices == [.checkAPIBaseURL, .checkAPIBaseURL],
            "a 404 (the API root lacks /api/v1) and invalidURL (it makes no URL) both point at the API root")
    }

    /// Read: chapters/09-the-sdk-api.md#what-the-resolver-tells-you
    @Test func everyOtherFailureIsLoggedAndTheScreenStays() async {
        let phone = Phone(replies: [
            .failure(.offline), Answer.refused(503, ""), .success(.json(200, "<html>oops</html>")),
        ])
        await phone.open("myapp://order/7")
        for _ in 1...3 { await phone.open("https://go.example/p42") }
        phone.handler.handle(.failed(Li2Error.unparsableDestination(raw: "")))
        #expect(
            phone.handler.notices == Array(repeating: .lookupFailed, count: 4),
            "no answer, a 5xx, an answer that is not track/open JSON, a destination that is not a URL: each is logged"
        )
        #expect(phone.handler.route == .order(id: "7"), "and none of them moves the app")
    }

    /// Read: chapters/09-the-sdk-api.md#configuring
    @Test func theSDKUsedBeforeConfigureIsNamed() {
        let phone = Phone()
        phone.handler.handle(.failed(Li2SetupError.notConfigured))
        #expect(
            phone.handler.notices == [.configureFirst],
            "Li2SetupError.notConfigured means Li2.configure did not run first: say so")
    }

    /// Read: chapters/09-the-sdk-api.md#once-per-install-after-a-grace-window
    @Test func aFirstLaunchThatPastesTheLinkOpensItsScreen() async {
        let phone = Phone(replies: [
            Answer.matched("https://example.com/promo/SPRING?ref=mail&li2_cid=Ab3dE5fG7hJ9kL1m")
        ])
        phone.handler.resolver.requestFirstLaunchConsentAfterGrace()
        phone.clock.advance(by: .milliseconds(250))
        #expect(
            phone.handler.resolver.isConsentPending, "after the grace window the consent sheet is asked for")
        phone.handler.resolver.submitPasteControlResult("https://go.example/spring?li2_cid=Ab3dE5fG7hJ9kL1m")
        await phone.handler.resolver.settle()
        #expect(
            phone.handler.route == .promo(code: "SPRING", ref: "mail"),
            "a deferred match is an outcome like any other: its destination goes through the router")
    }
}

@MainActor
struct CheckoutTests {
    /// Read: chapters/09-the-sdk-api.md#the-click-id-the-sdk-keeps
    @Test func theCheckoutIsAttributedToTheClickTheSDKKeeps() async {
        let phone = Phone(replies: [
            Answer.matched("https://example.com/product/42", clickId: "Qm7pX2rT9wLs4NcV")
        ])
        #expect(
            phone.handler.checkout == .direct, "before any matched link there is no click to attribute to")
        await phone.open("https://go.example/p42")
        #expect(
            phone.handler.checkout == .attributed(clickId: "Qm7pX2rT9wLs4NcV"),
            "after a match, the checkout is attributed to the click id the SDK keeps")
    }

    /// Read: chapters/09-the-sdk-api.md#the-click-id-the-sdk-keeps
    @Test func aMissKeepsNoClick() async {
        let phone = Phone(replies: [Answer.missed("no_candidate")])
        await phone.open("https://go.example/p42")
        #expect(
            phone.handler.checkout == .direct,
            "a miss carries a clickId too, but it names an open without a link: it is never the last click id"
        )
    }

    /// Read: chapters/09-the-sdk-api.md#the-click-id-the-sdk-keeps
    @Test func aClickOfAnEarlierLaunchStillCounts() async {
        let clock = Li2TestClock()
        let storage = Li2InMemoryStorage()
        let first = Phone(
            replies: [Answer.matched("https://example.com/product/42")], clock: clock, storage: storage)
        await first.open("https://go.example/p42")
        clock.advance(by: .seconds(3 * 86_400))
        let nextLaunch = Phone(clock: clock, storage: storage)
        #expect(
            nextLaunch.handler.checkout == .attributed(clickId: "Qm7pX2rT9wLs4NcV"),
            "the SDK keeps the click id in storage across launches: read the handler's runtime (runtime.clickIdStore.currentClickId, what Li2.lastClickId is in the app), keep no copy"
        )
    }

    /// Read: chapters/09-the-sdk-api.md#the-click-id-the-sdk-keeps
    @Test func aClickOlderThanThirtyDaysNoLongerCounts() async {
        let phone = Phone(replies: [Answer.matched("https://example.com/product/42")])
        await phone.open("https://go.example/p42")
        phone.clock.advance(by: .seconds(30 * 86_400 + 1))
        #expect(
            phone.handler.checkout == .direct,
            "the click id expires after clickIdExpiryDays (30): past that, the checkout is direct")
    }

    /// Read: chapters/09-the-sdk-api.md#the-click-id-the-sdk-keeps
    @Test func aNewMatchReplacesTheClick() async {
        let phone = Phone(replies: [
            Answer.matched("https://example.com/product/42", clickId: "Qm7pX2rT9wLs4NcV"),
            Answer.matched("https://example.com/product/7", clickId: "2rN4FEbxrdjPhsjF"),
        ])
        await phone.open("https://go.example/p42")
        await phone.open("https://go.example/p7")
        #expect(
            phone.handler.checkout == .attributed(clickId: "2rN4FEbxrdjPhsjF"),
            "a new match replaces the last click id")
    }
}
