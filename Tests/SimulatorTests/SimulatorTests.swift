import AttributionService
import EventLog
import Foundation
import HTTPCore
import MockServer
import MockServerTesting
import Simulator
import StrictJSON
import Testing

/// The simulator's session JSON, as a client reads it.
struct SimSession: Decodable, Equatable {
    struct Entry: Decodable, Equatable {
        var step: String
        var direction: String
        var method: String
        var url: String
        var status: Int?
    }

    struct Outcome: Decodable, Equatable {
        var kind: String
        var matchMethod: String?
        var missReason: String?
        var deepLink: String?
        var clickId: String?
        var error: String?
    }

    struct Routed: Decodable, Equatable {
        var step: String
        var via: String
        var url: String
        var decision: String
        var route: String?
    }

    var id: String
    var platform: String
    var appInstalled: Bool
    var link: String
    var state: String
    var stateDescription: String
    var next: [String]
    var log: [Entry]
    var logDropped: Int
    var outcome: Outcome?
    var routed: [Routed]
    var simulatedTime: String
    var expiresAt: String
}

/// A server with a clock the tests move, counting tokens, and a simulator with the test's limits
/// whose routes the server's router has, as `workbook serve` gives them.
@MainActor
struct SimHarness {
    let clock = ManualClock(start: TestServer.start)
    let simulator: Simulator
    let app: MockServerApp

    init(limits: SimulatorLimits = SimulatorLimits()) throws {
        // One generator for both, as SimulatorRoutes shares the app's: session ids and the
        // sessions' tokens come from the same count.
        let tokens = TokenGenerator.counting()
        simulator = Simulator(
            configuration: TestServer.configuration, clock: .manual(clock), tokens: tokens, limits: limits)
        app = try MockServerApp(
            configuration: TestServer.configuration, eventStore: InMemoryEventStore(), clock: .manual(clock),
            tokens: tokens, logger: .silent, routeProviders: [FixedRoutes(routes: simulator.routes)])
    }

    func create(_ json: String) async -> HTTPResponse {
        await app.respond(to: post("/api/v1/sim/sessions", json, headers: ["Host": "127.0.0.1:8080"]))
    }

    func event(_ id: String, _ json: String) async -> HTTPResponse {
        await app.respond(to: post("/api/v1/sim/sessions/\(id)/events", json))
    }

    func start(platform: String, installed: Bool, running: Bool = false) async throws -> SimSession {
        let response = await create(
            #"{"platform":"\#(platform)","appInstalled":\#(installed),"appRunning":\#(running)}"#)
        try #require(response.status == .created, "\(response.bodyText)")
        return try JSONDecoder().decode(SimSession.self, from: response.body)
    }

    /// Plays `events` (`advanceClock:SECONDS` carries its seconds) and returns the last answer.
    func play(_ session: SimSession, _ events: [String]) async throws -> SimSession {
        var current = session
        for event in events {
            let parts = event.split(separator: ":")
            let body =
                parts.count == 2
                ? #"{"type":"\#(parts[0])","seconds":\#(parts[1])}"# : #"{"type":"\#(event)"}"#
            let response = await self.event(session.id, body)
            try #require(response.status == .ok, "\(event): \(response.bodyText)")
            current = try JSONDecoder().decode(SimSession.self, from: response.body)
        }
        return current
    }
}

/// One journey of the simulator, from a fresh session to its outcome.
struct SimJourney: CustomTestStringConvertible, Sendable {
    var id: String
    var source: String
    var platform: String
    var installed: Bool
    var events: [String]
    var outcome: SimSession.Outcome

    var testDescription: String { id }
}

let simJourneys: [SimJourney] = [
    SimJourney(
        id: "ios-deferred-clipboard",
        source: "this book: chapter 05, The journey when the app is not installed", platform: "ios",
        installed: false,
        events: ["tapLink", "install", "launch", "paste"],
        outcome: .init(
            kind: "matched", matchMethod: "clipboard", deepLink: "https://shop.example/sale?campaign=summer",
            clickId: TestServer.token(3))),
    SimJourney(
        id: "android-deferred-referrer",
        source: "this book: chapter 05, The journey when the app is not installed", platform: "android",
        installed: false,
        events: ["tapLink", "install", "launch"],
        outcome: .init(
            kind: "matched", matchMethod: "install_referrer",
            deepLink: "https://shop.example/sale?campaign=summer", clickId: TestServer.token(3))),
    SimJourney(
        id: "ios-installed-universal-link", source: "this book: chapter 08, Matches and misses",
        platform: "ios", installed: true,
        events: ["tapLink", "launch"],
        outcome: .init(
            kind: "matched", matchMethod: "universal_link",
            deepLink: "https://shop.example/sale?campaign=summer", clickId: TestServer.token(2))),
    SimJourney(
        id: "android-installed-app-link", source: "this book: chapter 08, Matches and misses",
        platform: "android",
        installed: true,
        events: ["tapLink", "launch"],
        outcome: .init(
            kind: "matched", matchMethod: "app_link", deepLink: "https://shop.example/sale?campaign=summer",
            clickId: TestServer.token(2))),
    SimJourney(
        id: "ios-nothing-to-paste", source: "this book: chapter 06, The empty clipboard", platform: "ios",
        installed: false,
        events: ["tapLink", "install", "launch", "pasteEmpty"],
        outcome: .init(kind: "missed", missReason: "clipboard_empty", clickId: TestServer.token(3))),
    SimJourney(
        id: "ios-opt-out", source: "this book: chapter 06, What the answer sends", platform: "ios",
        installed: false,
        events: ["tapLink", "install", "launch", "optOut"],
        outcome: .init(kind: "missed", missReason: "opted_out", clickId: TestServer.token(3))),
    SimJourney(
        id: "ios-paste-alert-refused", source: "this book: chapter 06, iOS 15: the direct read",
        platform: "ios", installed: false,
        events: ["tapLink", "install", "launch", "deny"],
        outcome: .init(kind: "missed", missReason: "clipboard_denied", clickId: TestServer.token(3))),
    SimJourney(
        id: "ios-token-expired-before-install", source: "this book: chapter 08, How a body becomes a match",
        platform: "ios",
        installed: false,
        events: ["tapLink", "advanceClock:86401", "install", "launch", "paste"],
        outcome: .init(kind: "missed", missReason: "expired", clickId: TestServer.token(3))),
    SimJourney(
        id: "ios-token-expired-on-consent-screen",
        source: "this book: chapter 08, How a body becomes a match", platform: "ios",
        installed: false,
        events: ["tapLink", "install", "launch", "advanceClock:90000", "paste"],
        outcome: .init(kind: "missed", missReason: "expired", clickId: TestServer.token(3))),
    SimJourney(
        id: "android-token-expired-before-install",
        source: "this book: chapter 08, How a body becomes a match", platform: "android",
        installed: false,
        events: ["tapLink", "advanceClock:86401", "install", "launch"],
        outcome: .init(kind: "missed", missReason: "expired", clickId: TestServer.token(3))),
    SimJourney(
        id: "ios-within-ttl-still-matches", source: "this book: chapter 08, How a body becomes a match",
        platform: "ios",
        installed: false,
        events: ["tapLink", "advanceClock:86399", "install", "launch", "paste"],
        outcome: .init(
            kind: "matched", matchMethod: "clipboard", deepLink: "https://shop.example/sale?campaign=summer",
            clickId: TestServer.token(3))),
]

struct SimBadBody: CustomTestStringConvertible, Sendable {
    var id: String
    var route: String
    var body: String
    var message: String
    var testDescription: String { id }
}

let simBadBodies: [SimBadBody] = [
    SimBadBody(
        id: "unknown-platform", route: "sessions", body: #"{"platform":"windows"}"#,
        message: #"field 'platform' is invalid: must be "ios" or "android""#),
    SimBadBody(id: "no-platform", route: "sessions", body: #"{}"#, message: "field 'platform' is required"),
    SimBadBody(
        id: "installed-not-boolean", route: "sessions", body: #"{"platform":"ios","appInstalled":"yes"}"#,
        message: "field 'appInstalled' must be a boolean"),
    SimBadBody(
        id: "unknown-link", route: "sessions", body: #"{"platform":"ios","link":"https://go.example/nope"}"#,
        message:
            "field 'link' is invalid: must be one of the configured short links: https://go.example/summer, https://go.example/winter"
    ),
    SimBadBody(
        id: "unknown-event", route: "events", body: #"{"type":"dance"}"#,
        message:
            "field 'type' is invalid: must be one of tapLink, install, launch, advanceClock, paste, pasteEmpty, optOut, deny, rotate"
    ),
    SimBadBody(
        id: "running-on-ios", route: "sessions", body: #"{"platform":"ios","appRunning":true}"#,
        message:
            #"field 'appRunning' is invalid: the running-app journey is Android's (onNewIntent): use "platform": "android""#
    ),
    SimBadBody(
        id: "running-but-not-installed", route: "sessions",
        body: #"{"platform":"android","appInstalled":false,"appRunning":true}"#,
        message: "field 'appInstalled' is invalid: cannot be false when appRunning is true"),
    SimBadBody(
        id: "running-not-boolean", route: "sessions", body: #"{"platform":"android","appRunning":1}"#,
        message: "field 'appRunning' must be a boolean"),
    SimBadBody(id: "no-type", route: "events", body: #"{"seconds":3}"#, message: "field 'type' is required"),
    SimBadBody(
        id: "advance-without-seconds", route: "events", body: #"{"type":"advanceClock"}"#,
        message: "field 'seconds' is required"),
    SimBadBody(
        id: "advance-backwards", route: "events", body: #"{"type":"advanceClock","seconds":-1}"#,
        message: "field 'seconds' is invalid: must be a number of seconds above 0, at most 31622400"),
]

@Suite("The deferred-flow simulator")
@MainActor
struct SimulatorTests {
    @Test(arguments: simJourneys)
    func eachJourneyEndsInTheOutcomeTheServiceDecides(_ journey: SimJourney) async throws {
        let harness = try SimHarness()
        let session = try await harness.start(platform: journey.platform, installed: journey.installed)
        let end = try await harness.play(session, journey.events)
        #expect(end.state == "resolved")
        #expect(end.outcome == journey.outcome)
        // An Android activity now exists, and the phone can be turned.
        #expect(end.next == (journey.platform == "android" ? ["launch", "rotate"] : ["launch"]))
    }

    @Test func theIOSJourneyLogsTheBrowserVisitAndOneTrackOpen() async throws {
        let harness = try SimHarness()
        let session = try await harness.start(platform: "ios", installed: false)
        #expect(session.state == "linkReady")
        #expect(session.next == ["tapLink"])
        #expect(session.link == "https://go.example/summer")
        let store = try await harness.play(session, ["tapLink"])
        #expect(store.state == "inStore")
        #expect(store.next == ["install", "advanceClock"])
        #expect(store.stateDescription.contains("https://go.example/summer?li2_cid=\(TestServer.token(2))"))
        let consent = try await harness.play(session, ["install", "launch"])
        #expect(consent.state == "consentPending")
        #expect(consent.next == ["paste", "pasteEmpty", "optOut", "deny", "advanceClock"])
        #expect(consent.outcome == nil)
        let end = try await harness.play(session, ["paste"])
        let track = "http://127.0.0.1:8080/api/v1/track/open"
        #expect(
            end.log == [
                .init(step: "tapLink", direction: "request", method: "GET", url: "https://go.example/summer"),
                .init(
                    step: "tapLink", direction: "response", method: "GET", url: "https://go.example/summer",
                    status: 200),
                .init(step: "paste", direction: "request", method: "POST", url: track),
                .init(step: "paste", direction: "response", method: "POST", url: track, status: 200),
            ])
    }

    @Test func theTrackOpenRequestCarriesThePastedLinkAndTheAnswerIsLoggedAsJSON() async throws {
        let harness = try SimHarness()
        let session = try await harness.start(platform: "ios", installed: false)
        let end = try await harness.play(session, ["tapLink", "install", "launch", "paste"])
        let response = await harness.event(end.id, #"{"type":"launch"}"#)
        let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        let log = try #require(object["log"] as? [[String: Any]])
        let request = try #require(
            log.first { ($0["direction"] as? String) == "request" && $0["step"] as? String == "paste" })
        let body = try #require(request["body"] as? [String: String])
        #expect(
            body == [
                "clipboardStatus": "read",
                "deepLink": "https://go.example/summer?li2_cid=\(TestServer.token(2))",
            ])
        // Li2SDK 0.2.0's two headers, and the User-Agent of an iPhone's URLSession; the Host is the
        // transport's, as on a real connection.
        let headers = try #require(request["headers"] as? [String: String])
        #expect(
            headers == [
                "Content-Type": "application/json", "X-Li2-Key": TestServer.publishableKey,
                "User-Agent": "ShopApp/1.0 CFNetwork/1494.0.7 Darwin/23.4.0",
                "Host": try #require(headers["Host"]),
            ])
        let answer = try #require(log.last?["body"] as? [String: Any])
        #expect(answer["matchMethod"] as? String == "clipboard")
    }

    @Test func aSecondLaunchSendsNothingBecauseTheGateIsConsumed() async throws {
        let harness = try SimHarness()
        let session = try await harness.start(platform: "android", installed: false)
        let first = try await harness.play(session, ["tapLink", "install", "launch"])
        let second = try await harness.play(session, ["launch"])
        #expect(second.state == "relaunched")
        #expect(second.next == ["rotate"])
        #expect(second.log == first.log)
        #expect(second.outcome == first.outcome)
    }

    /// A running app gets the link in `onNewIntent` (source: "Android: Activity.onNewIntent"), and
    /// chapter 2's `AndroidLinkIntake` decides what is routed
    /// (source: "this book: chapter 02, Cold start and warm start").
    @Test func aRunningAppGetsTheLinkAsANewIntentAndTheRouterSeesItOnce() async throws {
        let harness = try SimHarness()
        let session = try await harness.start(platform: "android", installed: true, running: true)
        #expect(session.state == "appRunning")
        #expect(session.next == ["tapLink", "rotate"])
        #expect(session.log == [])
        let end = try await harness.play(session, ["tapLink", "rotate", "rotate"])
        let track = "http://127.0.0.1:8080/api/v1/track/open"
        #expect(end.state == "resolved")
        #expect(end.next == ["launch", "rotate"])
        #expect(
            end.outcome
                == .init(
                    kind: "matched", matchMethod: "app_link",
                    deepLink: "https://shop.example/sale?campaign=summer", clickId: TestServer.token(2)))
        #expect(
            end.log == [
                .init(step: "tapLink", direction: "request", method: "POST", url: track),
                .init(step: "tapLink", direction: "response", method: "POST", url: track, status: 200),
            ])
        #expect(
            end.routed == [
                .init(
                    step: "tapLink", via: "onNewIntent", url: "https://shop.example/sale?campaign=summer",
                    decision: "openInBrowser")
            ])
    }

    @Test func aColdStartRoutesThroughOnCreateAndARotationAddsNothing() async throws {
        let harness = try SimHarness()
        let session = try await harness.start(platform: "android", installed: true)
        let end = try await harness.play(session, ["tapLink", "launch", "rotate"])
        #expect(
            end.routed == [
                .init(
                    step: "launch", via: "onCreate", url: "https://shop.example/sale?campaign=summer",
                    decision: "openInBrowser")
            ])
        #expect(end.log.filter { $0.direction == "request" }.count == 1)
    }

    @Test func aDeferredMatchReachesTheRouterOnceAndIOSCannotTurn() async throws {
        let harness = try SimHarness()
        let session = try await harness.start(platform: "ios", installed: false)
        let end = try await harness.play(session, ["tapLink", "install", "launch", "paste"])
        #expect(
            end.routed == [
                .init(
                    step: "paste", via: "firstLaunch", url: "https://shop.example/sale?campaign=summer",
                    decision: "openInBrowser")
            ])
        let turned = await harness.event(end.id, #"{"type":"rotate"}"#)
        #expect(turned.status.code == 409)
    }

    @Test func advancingTheClockMovesTheSessionsSimulatedTimeOnly() async throws {
        let harness = try SimHarness()
        let session = try await harness.start(platform: "ios", installed: false)
        #expect(session.simulatedTime == TestServer.startText)
        let later = try await harness.play(session, ["tapLink", "advanceClock:3600"])
        #expect(later.simulatedTime == "2025-06-15T16:06:40.000Z")
        #expect(later.state == "inStore")
        #expect(later.expiresAt == "2025-06-15T15:21:40.000Z")
    }

    // MARK: Refusals

    @Test func anUnknownSessionIsNotFound() async throws {
        let harness = try SimHarness()
        let response = await harness.event("sim_nope", #"{"type":"tapLink"}"#)
        #expect(response.status == .notFound)
        #expect(
            response.bodyText
                == #"{"error":{"code":"session_not_found","message":"no simulator session sim_nope; sessions end 15 minutes after their last event"}}"#
        )
    }

    @Test func anEventTheStateDoesNotAllowIsAConflictNamingTheAllowedOnes() async throws {
        let harness = try SimHarness()
        let session = try await harness.start(platform: "ios", installed: false)
        let response = await harness.event(session.id, #"{"type":"paste"}"#)
        #expect(response.status.code == 409)
        #expect(
            response.bodyText
                == #"{"error":{"code":"event_not_allowed","message":"event 'paste' is not allowed in state 'linkReady'; allowed: tapLink"}}"#
        )
    }

    @Test(arguments: simBadBodies)
    func aBadBodyIsRefusedNamingTheField(_ bad: SimBadBody) async throws {
        let harness = try SimHarness()
        let session = try await harness.start(platform: "ios", installed: false)
        let response =
            bad.route == "sessions"
            ? await harness.create(bad.body) : await harness.event(session.id, bad.body)
        #expect(response.status == .badRequest)
        let envelope = try JSONDecoder().decode([String: [String: String]].self, from: response.body)
        #expect(envelope["error"]?["message"] == bad.message)
    }

    @Test func aChosenLinkIsFollowed() async throws {
        let harness = try SimHarness()
        let response = await harness.create(#"{"platform":"android","link":"https://go.example/winter"}"#)
        let session = try JSONDecoder().decode(SimSession.self, from: response.body)
        #expect(session.link == "https://go.example/winter")
        #expect(session.appInstalled == false)
        let end = try await harness.play(session, ["tapLink", "install", "launch"])
        #expect(end.outcome?.deepLink == "https://shop.example/winter")
    }

    @Test func sessionsPastTheCapAreRefusedUntilTheOldestExpires() async throws {
        let harness = try SimHarness(limits: SimulatorLimits(maxSessions: 2, idleTimeout: 600))
        _ = try await harness.start(platform: "ios", installed: false)
        harness.clock.advance(by: 100)
        _ = try await harness.start(platform: "ios", installed: false)
        let refused = await harness.create(#"{"platform":"ios"}"#)
        #expect(refused.status.code == 429)
        #expect(refused.headers["Retry-After"] == "500")
        #expect(
            refused.bodyText
                == #"{"error":{"code":"too_many_sessions","message":"2 simulator sessions are live; the oldest ends in 500 s"}}"#
        )
        harness.clock.advance(by: 500)
        #expect(await harness.create(#"{"platform":"ios"}"#).status == .created)
        #expect(harness.simulator.liveSessionCount == 2)
    }

    @Test func aSessionExpiresAfterItsIdleTimeoutOnTheServersClock() async throws {
        let harness = try SimHarness()
        let session = try await harness.start(platform: "ios", installed: false)
        #expect(session.expiresAt == "2025-06-15T15:21:40.000Z")
        harness.clock.advance(by: 899)
        _ = try await harness.play(session, ["tapLink"])
        harness.clock.advance(by: 899)
        #expect(await harness.event(session.id, #"{"type":"install"}"#).status == .ok)
        harness.clock.advance(by: 900)
        #expect(await harness.event(session.id, #"{"type":"launch"}"#).status == .notFound)
    }

    @Test func theLogKeepsTheNewestEntriesAndCountsTheDroppedOnes() async throws {
        let harness = try SimHarness(limits: SimulatorLimits(maxLogEntries: 3))
        let session = try await harness.start(platform: "ios", installed: false)
        let end = try await harness.play(session, ["tapLink", "install", "launch", "paste"])
        #expect(end.logDropped == 1)
        #expect(end.log.map(\.step) == ["tapLink", "paste", "paste"])
        #expect(end.log.map(\.direction) == ["response", "request", "response"])
    }

    @Test func aJSONBodyIsLoggedAsJSONAndAnyOtherBodyAsTextCutAtTheLimit() {
        #expect(
            JSONValue(loggedBody: Data(#"{"a":true,"b":1,"c":[null,"x"]}"#.utf8))
                == .object(["a": .bool(true), "b": .number(1), "c": .array([.null, .string("x")])]))
        let page = String(repeating: "x", count: JSONValue.maximumLoggedTextLength + 1)
        #expect(
            JSONValue(loggedBody: Data(page.utf8))
                == .string(String(repeating: "x", count: JSONValue.maximumLoggedTextLength) + "… (cut)"))
        #expect(JSONValue(loggedBody: Data("{not json".utf8)) == .string("{not json"))
        #expect(JSONValue(loggedBody: Data()) == .string(""))
    }

    @Test func theSimulatorNeverWritesIntoTheServersEventLog() async throws {
        let events = InMemoryEventStore()
        let app = try MockServerApp(
            configuration: TestServer.configuration, eventStore: events,
            clock: .manual(ManualClock(start: TestServer.start)),
            tokens: .counting(), logger: .silent, routeProviders: [SimulatorRoutes()])
        let created = await app.respond(to: post("/api/v1/sim/sessions", #"{"platform":"android"}"#))
        let session = try JSONDecoder().decode(SimSession.self, from: created.body)
        for type in ["tapLink", "install", "launch"] {
            _ = await app.respond(
                to: post("/api/v1/sim/sessions/\(session.id)/events", #"{"type":"\#(type)"}"#))
        }
        #expect(try await events.recent(limit: 10).isEmpty)
    }
}

/// Routes built beforehand, handed to an app as they are: for a test that keeps the simulator.
struct FixedRoutes: RouteProvider {
    var routes: [HTTPRoute]

    func routes(configuration: ServerConfiguration, service: AttributionService) -> [HTTPRoute] {
        routes
    }
}
