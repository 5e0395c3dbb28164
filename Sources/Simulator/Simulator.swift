import AttributionService
import EventLog
import Foundation
import HTTPCore
import MockServer

/// How many simulator sessions live at once, for how long, and how much each keeps.
///
/// ```swift
/// var limits = SimulatorLimits()
/// limits.maxSessions = 2   // a test of the cap needs no 64 sessions
/// ```
public struct SimulatorLimits: Equatable, Sendable {
    /// Live sessions at most; one more is refused with 429 until the oldest expires.
    public var maxSessions: Int
    /// Live sessions one client address may hold, so that one client cannot take them all.
    public var maxSessionsPerAddress: Int
    /// A session ends this long after its last event, on the server's clock.
    public var idleTimeout: TimeInterval
    /// Log entries a session keeps; older ones are dropped (and counted).
    public var maxLogEntries: Int
    /// The largest single `advanceClock`, and the most simulated time a session may add up.
    public var maxAdvanceSeconds: Double
    public var maxSimulatedSeconds: Double

    public init(
        maxSessions: Int = 64, maxSessionsPerAddress: Int = 16, idleTimeout: TimeInterval = 15 * 60,
        maxLogEntries: Int = 100, maxAdvanceSeconds: Double = 366 * 86_400,
        maxSimulatedSeconds: Double = 10 * 366 * 86_400
    ) {
        (
            self.maxSessions, self.maxSessionsPerAddress, self.idleTimeout, self.maxLogEntries,
            self.maxAdvanceSeconds, self.maxSimulatedSeconds
        ) = (
            maxSessions, maxSessionsPerAddress, idleTimeout, maxLogEntries, maxAdvanceSeconds,
            maxSimulatedSeconds
        )
    }
}

/// The deferred-flow simulator behind `POST /api/v1/sim/sessions` and
/// `POST /api/v1/sim/sessions/{id}/events`: each session is one phone (the real SDK) and one
/// user, played event by event.
///
/// Each session talks to a server of its own, a ``MockServerApp`` built from this server's
/// configuration on a clock of its own (without the simulator's routes, which a phone never
/// calls): the same routes and the same service code answer, but
/// `advanceClock` can carry one session past the click token's time to live without moving
/// anyone else's time, and a simulation never writes into the real event log.
///
/// ```swift
/// let created = await app.respond(to: HTTPRequest(method: .post, target: "/api/v1/sim/sessions",
///     body: Data(#"{"platform":"ios","appInstalled":false}"#.utf8)))   // 201, state "linkReady"
/// ```
@MainActor
public final class Simulator {
    public let limits: SimulatorLimits
    private let configuration: ServerConfiguration
    private let clock: ServiceClock
    private let tokens: TokenGenerator
    private var sessions: [String: SimulatorSession] = [:]
    /// The client address that created each session (absent for a request made in process).
    private var owners: [String: String] = [:]

    /// `clock` decides when sessions expire; `tokens` draws session ids and every session
    /// server's tokens (a seeded server simulates the same way on every run).
    public nonisolated init(
        configuration: ServerConfiguration, clock: ServiceClock, tokens: TokenGenerator,
        limits: SimulatorLimits = SimulatorLimits()
    ) {
        (self.configuration, self.clock, self.tokens, self.limits) = (configuration, clock, tokens, limits)
    }

    /// How many sessions are alive now.
    public var liveSessionCount: Int {
        removeExpired(now: clock.now())
        return sessions.count
    }

    // MARK: Routes

    /// The simulator's two routes, bound to this simulator: what ``SimulatorRoutes`` hands to
    /// the server's router.
    public nonisolated var routes: [HTTPRoute] {
        [
            HTTPRoute(.post, "/api/v1/sim/sessions") { request, _ in try await self.createSession(request) },
            HTTPRoute(.post, "/api/v1/sim/sessions/{id}/events") { request, parameters in
                try await self.play(request, sessionID: parameters.require("id"))
            },
        ]
    }

    struct CreateBody: Decodable {
        var platform: String
        var appInstalled: Bool?
        var appRunning: Bool?
        var link: String?
    }

    struct EventBody: Decodable {
        var type: String
        var seconds: Double?
    }

    /// `POST /api/v1/sim/sessions`.
    public func createSession(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let body = try request.decodeJSON(CreateBody.self)
        guard ["ios", "android"].contains(body.platform) else {
            throw HTTPError.invalidField("platform", reason: #"must be "ios" or "android""#)
        }
        let appRunning = body.appRunning ?? false
        if appRunning, body.platform != "android" {
            throw HTTPError.invalidField(
                "appRunning",
                reason: #"the running-app journey is Android's (onNewIntent): use "platform": "android""#)
        }
        if appRunning, body.appInstalled == false {
            throw HTTPError.invalidField("appInstalled", reason: "cannot be false when appRunning is true")
        }
        let link = try chooseLink(body.link)
        let now = clock.now()
        removeExpired(now: now)
        func refuse(_ held: [SimulatorSession], _ what: String) -> HTTPError {
            let soonest = held.map(\.expiresAt).min() ?? now
            let wait = max(1, Int(soonest.timeIntervalSince(now).rounded(.up)))
            return HTTPError(
                HTTPStatus(429), code: "too_many_sessions",
                message: "\(what) are live; the oldest ends in \(wait) s",
                headers: ["Retry-After": String(wait)])
        }
        let address = request.remoteAddress
        if let address {
            let own = owners.filter { $0.value == address }.compactMap { sessions[$0.key] }
            guard own.count < limits.maxSessionsPerAddress else {
                throw refuse(own, "\(limits.maxSessionsPerAddress) simulator sessions from your address")
            }
        }
        guard sessions.count < limits.maxSessions else {
            throw refuse(Array(sessions.values), "\(limits.maxSessions) simulator sessions")
        }
        let serverClock = ManualClock(start: now)
        let server: MockServerApp
        do {
            server = try MockServerApp(
                configuration: configuration, eventStore: InMemoryEventStore(), clock: .manual(serverClock),
                tokens: tokens, logger: .silent)
        } catch {
            throw HTTPError(.internalServerError, code: "simulator_unavailable", message: error.description)
        }
        let simulated = SimulatorServer(
            responder: server, now: { serverClock.now }, advance: { serverClock.advance(by: $0) })
        let session = SimulatorSession(
            id: newSessionID(), platform: body.platform, appInstalled: body.appInstalled ?? false,
            appRunning: appRunning,
            link: SimulatorLink(domain: link.domain, key: link.key, shortLink: link.shortLink),
            server: simulated,
            appHosts: Set(configuration.normalizedLinks.compactMap { URL(string: $0.url)?.host }),
            publishableKey: configuration.keys.publishable,
            linkDomains: configuration.linkDomains,
            apiBaseURL: Self.apiBaseURL(host: request.headers["Host"]),
            logLimit: limits.maxLogEntries, expiresAt: now.addingTimeInterval(limits.idleTimeout))
        sessions[session.id] = session
        owners[session.id] = address
        return try render(session, status: .created)
    }

    /// `POST /api/v1/sim/sessions/{id}/events`.
    public func play(_ request: HTTPRequest, sessionID: String) async throws(HTTPError) -> HTTPResponse {
        let now = clock.now()
        removeExpired(now: now)
        guard let session = sessions[sessionID] else {
            throw HTTPError(
                .notFound, code: "session_not_found",
                message: "no simulator session \(sessionID); sessions end \(Int(limits.idleTimeout / 60)) "
                    + "minutes after their last event")
        }
        let body = try request.decodeJSON(EventBody.self)
        guard let event = SimulatorEvent(rawValue: body.type) else {
            throw HTTPError.invalidField(
                "type",
                reason: "must be one of " + SimulatorEvent.allCases.map(\.rawValue).joined(separator: ", "))
        }
        var seconds: Double?
        if event == .advanceClock {
            guard let value = body.seconds else { throw HTTPError.missingField("seconds") }
            guard value.isFinite, value > 0, value <= limits.maxAdvanceSeconds else {
                throw HTTPError.invalidField(
                    "seconds",
                    reason: "must be a number of seconds above 0, at most \(Int(limits.maxAdvanceSeconds))")
            }
            let elapsed = session.simulatedTime.timeIntervalSince(session.startedAt)
            guard elapsed + value <= limits.maxSimulatedSeconds else {
                throw HTTPError.invalidField(
                    "seconds",
                    reason: "would take the session past \(Int(limits.maxSimulatedSeconds)) simulated seconds"
                )
            }
            seconds = value
        }
        if session.isBusy {
            throw HTTPError(
                HTTPStatus(409), code: "session_busy",
                message:
                    "session \(sessionID) is still playing its previous event; send '\(body.type)' after it")
        }
        let allowed = session.next
        guard allowed.contains(event) else {
            let list =
                allowed.isEmpty
                ? "none (the journey is over)" : allowed.map(\.rawValue).joined(separator: ", ")
            throw HTTPError(
                HTTPStatus(409), code: "event_not_allowed",
                message:
                    "event '\(event.rawValue)' is not allowed in state '\(session.state.rawValue)'; allowed: \(list)"
            )
        }
        session.touch(until: now.addingTimeInterval(limits.idleTimeout))
        await session.play(event, seconds: seconds)
        return try render(session, status: .ok)
    }

    // MARK: Sessions and links

    private func chooseLink(_ requested: String?) throws(HTTPError) -> Link {
        let links = configuration.normalizedLinks
        guard let requested else {
            guard let first = links.first else {
                throw HTTPError.invalidField("link", reason: "the server has no configured links to simulate")
            }
            return first
        }
        // Exactly one of them, in any case: what the served document's pattern says.
        guard
            let link = links.first(where: { $0.shortLink.caseInsensitiveCompare(requested) == .orderedSame })
        else {
            let known = links.map(\.shortLink).joined(separator: ", ")
            throw HTTPError.invalidField(
                "link",
                reason: "must be one of the configured short links" + (known.isEmpty ? "" : ": \(known)"))
        }
        return link
    }

    private func removeExpired(now: Date) {
        sessions = sessions.filter { $0.value.expiresAt > now }
        owners = owners.filter { sessions[$0.key] != nil }
    }

    private func newSessionID() -> String {
        while true {
            let id = "sim_" + tokens.next(16)
            if sessions[id] == nil { return id }
        }
    }

    private func render(_ session: SimulatorSession, status: HTTPStatus) throws(HTTPError) -> HTTPResponse {
        let json = session.json(
            expiresAtText: EventRecorder.timestamp(session.expiresAt),
            simulatedTimeText: EventRecorder.timestamp(session.simulatedTime))
        do {
            return try .json(json, status: status)
        } catch {
            throw HTTPError.unexpected
        }
    }

    /// The API root the simulated SDK is configured with: this server, as the browser reached it.
    static func apiBaseURL(host: String?) -> URL {
        let fallback = URL(string: "http://127.0.0.1/api/v1")!
        guard let host, !host.isEmpty,
            host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) })
        else { return fallback }
        return URL(string: "http://\(host)/api/v1") ?? fallback
    }
}
