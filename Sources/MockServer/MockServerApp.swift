import AttributionService
import EventLog
import Foundation
import HTTPCore

/// The mock attribution server as a pure responder: routes, keys, CORS, limits and error
/// envelopes around the ``AttributionService``. Tests call ``respond(to:)`` directly; the
/// ``MockServerRuntime`` puts it behind libmicrohttpd.
///
/// Its routes are declared once, as a list of ``HTTPRoute`` values; modules above the server add
/// theirs through ``RouteProvider``s (the deferred-flow simulator, which runs the SDK, is one), and
/// ``router`` holds them all: the OpenAPI document is checked against that router.
///
/// ```swift
/// let app = try MockServerApp(configuration: configuration, eventStore: InMemoryEventStore())
/// let response = await app.respond(to: HTTPRequest(method: .get, target: "/healthz"))
/// response.bodyText  // {"status":"ok"}
/// app.router.routes.first?.description  // "GET /healthz"
/// ```
public struct MockServerApp: HTTPResponder {
    public let configuration: ServerConfiguration
    public let service: AttributionService
    public let recorder: EventRecorder
    public let wellKnown: WellKnownFiles
    /// Present only in `--test-clock` mode: `POST /api/v1/test/clock` moves it.
    public let testClock: ManualClock?
    public let bodyLimit: BodyLimit
    /// Every route the app answers, in the order they are tried: its own and the providers'.
    public let router: HTTPRouter
    private let responder: any HTTPResponder

    /// Builds the app. The association files are generated and linted here, so a
    /// configuration that would produce a broken one fails before anything is served.
    /// `routeProviders` add their routes after the API's own and before the short links, whose
    /// patterns would otherwise catch their paths.
    public init(
        configuration: ServerConfiguration, service: AttributionService, eventStore: any EventStore,
        testClock: ManualClock? = nil, bodyLimit: BodyLimit = BodyLimit(),
        logger: HTTPLogger = .standardError, routeProviders: [any RouteProvider] = []
    ) throws(WellKnownFilesError) {
        self.configuration = configuration
        self.service = service
        self.recorder = EventRecorder(store: eventStore)
        self.wellKnown = try WellKnownFiles(configuration: configuration)
        self.testClock = testClock
        var bodyLimit = bodyLimit
        bodyLimit.overrides += routeProviders.flatMap(\.bodyLimits)
        self.bodyLimit = bodyLimit
        let handlers = Handlers(
            service: service, recorder: recorder, wellKnown: wellKnown, testClock: testClock,
            linkDomains: Set(configuration.linkDomains.map { $0.lowercased() }),
            openAPIDocument: ServerResources.openAPIDocument(for: configuration))
        let added = routeProviders.flatMap { $0.routes(configuration: configuration, service: service) }
        let router = HTTPRouter(handlers.apiRoutes + added + handlers.shortLinkRoutes, logger: logger)
        self.router = router
        if let origin = configuration.siteOrigin {
            responder = router.wrapped(
                in: CORSMiddleware(
                    allowedOrigin: origin, allowedMethods: [.get, .post, .options],
                    allowedHeaders: ["Authorization", "Content-Type", "X-Li2-Key", "X-Li2-Platform"]))
        } else {
            responder = router
        }
    }

    /// The app with in-memory stores seeded from the configuration: what tests and a quick
    /// local run need.
    public init(
        configuration: ServerConfiguration, eventStore: any EventStore, clock: ServiceClock = .system,
        testClock: ManualClock? = nil, tokens: TokenGenerator = .random, logger: HTTPLogger = .standardError,
        routeProviders: [any RouteProvider] = []
    ) throws(WellKnownFilesError) {
        let service = AttributionService(
            configuration: configuration.serviceConfiguration,
            links: InMemoryLinkStore(configuration.normalizedLinks),
            deferredRecords: InMemoryDeferredRecordStore(
                capacity: configuration.limits?.deferredRecords
                    ?? ServerConfiguration.defaultDeferredRecordLimit),
            clock: testClock.map(ServiceClock.manual) ?? clock, tokens: tokens)
        try self.init(
            configuration: configuration, service: service, eventStore: eventStore, testClock: testClock,
            logger: logger, routeProviders: routeProviders)
    }

    /// Deferred records evicted so far to keep within `limits.deferredRecords` (0 when the
    /// service keeps its records in a store that does not count).
    public func deferredRecordsEvicted() async -> Int {
        guard let store = service.deferredRecords as? InMemoryDeferredRecordStore else { return 0 }
        return await store.evictedCount
    }

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        // The server refuses an oversize body before reading it; this catches one handed over
        // in process, so both paths answer alike.
        let limit = bodyLimit.forPath(request.path).maxBytes
        guard request.body.count <= limit else {
            return HTTPError.payloadTooLarge(limit: limit).response
        }
        return await responder.respond(to: request)
    }
}

/// The route handlers. Each one checks the key first (a 401 or 403 tells the client more than a
/// 400 about a body it should not have sent), decodes the body, asks the service, stores the
/// events, and only then answers.
struct Handlers: Sendable {
    let service: AttributionService
    let recorder: EventRecorder
    let wellKnown: WellKnownFiles
    let testClock: ManualClock?
    let linkDomains: Set<String>
    /// The OpenAPI document with this configuration's domains and links written in.
    let openAPIDocument: Data
    /// Serializes moves of the test clock.
    let clockLock = NSLock()

    /// The API's routes, in the order they are tried (the test clock's only in `--test-clock`
    /// mode). The OpenAPI document describes these, the providers' and ``shortLinkRoutes``.
    var apiRoutes: [HTTPRoute] {
        var routes = [
            HTTPRoute(.get, "/healthz") { _, _ in try .json(["status": "ok"]) },
            HTTPRoute(.get, "/api/v1/openapi.json") { _, _ in
                HTTPResponse(
                    status: .ok, headers: ["Content-Type": "application/json"],
                    body: openAPIDocument)
            },
            HTTPRoute(.get, "/.well-known/apple-app-site-association") { request, _ in
                try associationFile(wellKnown.appleAppSiteAssociation, path: request.path)
            },
            HTTPRoute(.get, "/.well-known/assetlinks.json") { request, _ in
                try associationFile(wellKnown.assetLinks, path: request.path)
            },
            HTTPRoute(.post, "/api/v1/track/open") { request, _ in try await trackOpen(request) },
            HTTPRoute(.post, "/api/v1/track/lead") { request, _ in
                try await conversion(request, LeadRequest.self) { body throws(ServiceError) in
                    try await service.trackLead(body)
                }
            },
            HTTPRoute(.post, "/api/v1/track/sale") { request, _ in
                try await conversion(request, SaleRequest.self) { body throws(ServiceError) in
                    try await service.trackSale(body)
                }
            },
            HTTPRoute(.post, "/api/v1/links") { request, _ in
                try authorize(request, for: .manage)
                let body = try request.decodeJSON(CreateLinkRequest.self)
                let link = try await serviceCall { () throws(ServiceError) in
                    try await service.createLink(body)
                }
                return try .json(link, status: .created)
            },
            HTTPRoute(.get, "/api/v1/links") { request, _ in
                try authorize(request, for: .manage)
                return try .json(await service.listLinks())
            },
            HTTPRoute(.get, "/api/v1/events") { request, _ in
                try authorize(request, for: .manage)
                let limit = try eventLimit(request)
                let after = try eventCursor(request)
                return HTTPResponse(
                    status: .ok, headers: ["Content-Type": HTTPResponse.jsonContentType],
                    body: try await recorder.listing(after: after, limit: limit))
            },
        ]
        if let testClock {
            routes.append(
                HTTPRoute(.post, "/api/v1/test/clock") { request, _ in
                    try authorize(request, for: .manage)
                    let body = try request.decodeJSON(ClockAdvance.self)
                    try advance(testClock, by: body.advanceSeconds)
                    // The periodic purge runs on real time, which a test clock leaves behind: run
                    // it now, as it would have run during the time that just passed.
                    await service.purge()
                    HeapTrim.releaseFreedMemory()
                    return try .json(["now": EventRecorder.timestamp(testClock.now)])
                })
        }
        return routes
    }

    /// The short links, last: `/{key}` matches every one-segment path.
    var shortLinkRoutes: [HTTPRoute] {
        [
            HTTPRoute(.get, "/l/{domain}/{key}") { request, parameters in
                let domain = try parameters.require("domain").lowercased()
                guard linkDomains.contains(domain) else { throw HTTPError.notFound(path: request.path) }
                return try await visit(domain: domain, key: parameters.require("key"), request: request)
            },
            HTTPRoute(.get, "/{key}") { request, parameters in
                // On a link domain (by its Host header) every one-segment path is a short link.
                guard let host = Self.host(of: request), linkDomains.contains(host) else {
                    throw HTTPError.notFound(path: request.path)
                }
                return try await visit(domain: host, key: parameters.require("key"), request: request)
            },
        ]
    }

    // MARK: Track

    func trackOpen(_ request: HTTPRequest) async throws -> HTTPResponse {
        try authorize(request, for: .track)
        let body = try request.decodeJSON(TrackOpenRequest.self)
        let context = RequestContext(
            platformHeader: request.headers["X-Li2-Platform"], userAgent: request.headers["User-Agent"])
        let answer = try await serviceCall { () throws(ServiceError) in
            try await service.trackOpen(body, context: context)
        }
        try await recorder.record(answer.events)
        return HTTPResponse(
            status: .ok, headers: ["Content-Type": HTTPResponse.jsonContentType],
            body: TrackOpenJSON.response(answer.body))
    }

    /// Lead and sale share everything but the body type. Every refusal, the key check's 401
    /// included, answers with the conversion envelope, its `code` the HTTP status: Li2SDK 0.2.0
    /// reads the envelope's `message` on every non-2xx, and no Li2 document shows the body of a
    /// key error, so the envelope for those is this book's choice
    /// (source: "book-key-errors-in-conversion-envelope").
    func conversion<Body: Decodable, Payload>(
        _ request: HTTPRequest, _ type: Body.Type,
        call: (Body) async throws(ServiceError) -> Answer<ConversionEnvelope<Payload>>
    ) async throws -> HTTPResponse {
        let answer: Answer<ConversionEnvelope<Payload>>
        do throws(ServiceError) {
            try service.configuration.keys.authorize(Self.presentedKeys(request), for: .track)
            let body: Body
            do {
                body = try request.decodeJSON(type)
            } catch {
                throw ServiceError(.invalidRequest, code: error.code, message: error.message)
            }
            answer = try await call(body)
        } catch {
            let refusal = Self.httpError(error)
            return try .json(
                ConversionEnvelope<Payload>.failure(error, status: refusal.status.code),
                status: refusal.status,
                headers: refusal.headers)
        }
        try await recorder.record(answer.events)
        return try .json(answer.body)
    }

    /// The largest step of the test clock: 100 years, far beyond any TTL.
    static let maximumClockAdvance: Double = 3_153_600_000
    /// The last instant the clock may reach: events store milliseconds in 64 bits and show
    /// four-digit years, so 9999-12-31T23:59:59Z is where time ends for this server.
    static let endOfTime = Date(timeIntervalSince1970: 253_402_300_799)

    /// Moves the test clock, refusing steps that are not a number of seconds from 0 to 100 years
    /// or that would carry it past ``endOfTime`` (a clock there would make every event unstorable).
    func advance(_ clock: ManualClock, by seconds: Double) throws(HTTPError) {
        guard seconds.isFinite, seconds >= 0, seconds <= Self.maximumClockAdvance else {
            throw HTTPError.invalidField(
                "advanceSeconds", reason: "must be a number of seconds from 0 to 3153600000 (100 years)")
        }
        // Check and move in one step, so that two calls at once cannot both pass the check.
        let moved = clockLock.withLock { () -> Bool in
            guard clock.now.addingTimeInterval(seconds) <= Self.endOfTime else { return false }
            clock.advance(by: seconds)
            return true
        }
        guard moved else {
            throw HTTPError.invalidField(
                "advanceSeconds", reason: "would move the clock past 9999-12-31T23:59:59Z")
        }
    }

    // MARK: Short links and association files

    func visit(domain: String, key: String, request: HTTPRequest) async throws -> HTTPResponse {
        let visit = try await serviceCall { () throws(ServiceError) in
            try await service.visitShortLink(
                domain: domain, key: key, userAgent: request.headers["User-Agent"])
        }
        // Every visit may plant a new token, so no cache may keep the answer for someone else.
        switch visit {
        case .interstitial(let page):
            return HTTPResponse(
                status: .ok,
                headers: ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"],
                body: Data(InterstitialPage.render(page).utf8))
        case .redirect(let location):
            return HTTPResponse(
                status: HTTPStatus(302), headers: ["Location": location, "Cache-Control": "no-store"])
        }
    }

    /// Apple's rules: status 200, `application/json`, no redirect.
    func associationFile(_ data: Data?, path: String) throws -> HTTPResponse {
        guard let data else { throw HTTPError.notFound(path: path) }
        return HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: data)
    }

    // MARK: Keys, errors, parameters

    func authorize(_ request: HTTPRequest, for access: APIKeys.Access) throws(HTTPError) {
        do {
            try service.configuration.keys.authorize(Self.presentedKeys(request), for: access)
        } catch {
            throw Self.httpError(error)
        }
    }

    static func presentedKeys(_ request: HTTPRequest) -> PresentedKeys {
        PresentedKeys(xLi2Key: request.headers["X-Li2-Key"], authorization: request.headers["Authorization"])
    }

    func serviceCall<Value>(_ call: () async throws(ServiceError) -> Value) async throws(HTTPError) -> Value {
        do {
            return try await call()
        } catch {
            throw Self.httpError(error)
        }
    }

    /// The one mapping from the service's refusals to HTTP.
    static func httpError(_ error: ServiceError) -> HTTPError {
        switch error.kind {
        case .invalidRequest:
            return HTTPError(.badRequest, code: error.code, message: error.message)
        case .unauthorized:
            // RFC 9110 §11.6.1: a 401 says how to authenticate.
            return HTTPError(
                .unauthorized, code: error.code, message: error.message,
                headers: ["WWW-Authenticate": #"Bearer realm="li2""#])
        case .forbidden:
            return HTTPError(.forbidden, code: error.code, message: error.message)
        case .notFound:
            return HTTPError(.notFound, code: error.code, message: error.message)
        case .conflict:
            return HTTPError(HTTPStatus(409), code: error.code, message: error.message)
        }
    }

    static let defaultEventLimit = 50
    static let maximumEventLimit = 1_000

    func eventLimit(_ request: HTTPRequest) throws(HTTPError) -> Int {
        guard let raw = request.queryValue(for: "limit") else { return Self.defaultEventLimit }
        guard let limit = Int(raw), (1...Self.maximumEventLimit).contains(limit) else {
            throw HTTPError(
                .badRequest, code: "invalid_parameter",
                message: "query parameter 'limit' must be an integer from 1 to \(Self.maximumEventLimit)")
        }
        return limit
    }

    /// `after`: a previous page's `next`, the id of that page's last event.
    func eventCursor(_ request: HTTPRequest) throws(HTTPError) -> Int64? {
        guard let raw = request.queryValue(for: "after") else { return nil }
        // At most 18 digits, as the API description says: every such number is an Int64.
        guard raw.count <= 18, raw.allSatisfy(\.isASCII), let id = Int64(raw), id > 0 else {
            throw HTTPError(
                .badRequest, code: "invalid_parameter",
                message: "query parameter 'after' must be the 'next' of a previous page")
        }
        return id
    }

    /// The request's host without its port, lower-cased (`GO.example:8443` → `go.example`).
    static func host(of request: HTTPRequest) -> String? {
        guard var host = request.headers["Host"]?.trimmingCharacters(in: .whitespaces), !host.isEmpty else {
            return nil
        }
        if host.hasPrefix("[") {
            host = String(host.prefix { $0 != "]" }) + "]"
        } else if let colon = host.lastIndex(of: ":") {
            host = String(host[..<colon])
        }
        return host.lowercased()
    }
}

/// The body of `POST /api/v1/test/clock`.
struct ClockAdvance: Decodable {
    var advanceSeconds: Double
}
