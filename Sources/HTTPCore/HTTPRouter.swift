import Foundation

/// Values captured from a route pattern's `{name}` segments, already percent-decoded.
///
/// ```swift
/// // pattern "/api/v1/links/{key}", request "/api/v1/links/summer%20sale"
/// parameters["key"]                  // "summer sale"
/// try parameters.require("key")      // "summer sale", or a 400 naming the parameter
/// ```
public struct RouteParameters: Equatable, Sendable {
    public private(set) var values: [String: String]

    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    public subscript(name: String) -> String? { values[name] }

    /// The value of `name`, or a 400 error naming it.
    public func require(_ name: String) throws(HTTPError) -> String {
        guard let value = values[name] else {
            throw HTTPError(
                .badRequest, code: "missing_parameter", message: "path parameter '\(name)' is required")
        }
        return value
    }
}

/// A route pattern such as `/api/v1/links/{key}` or `/site/{path...}`.
///
/// Literal segments match exactly (case-sensitive, after percent-decoding), `{name}` matches
/// one non-empty segment, and a final `{name...}` matches the rest of the path (at least one
/// segment), joined with `/`. Its description is the pattern as written, the form an OpenAPI
/// document uses for the same path.
///
/// (The HTTP prefix keeps it apart from DeepLinkCore's `RoutePattern`, which matches the paths
/// of deep links inside an app: chapter 15.)
///
/// ```swift
/// HTTPRoutePattern("/api/v1/sim/sessions/{id}/events").description  // "/api/v1/sim/sessions/{id}/events"
/// ```
public struct HTTPRoutePattern: Hashable, Sendable, CustomStringConvertible {
    enum Segment: Hashable, Sendable {
        case literal(String)
        case parameter(String)
        case remainder(String)
    }

    let segments: [Segment]
    public let description: String

    public init(_ pattern: String) {
        self.description = pattern
        self.segments = Self.split(pattern).map { segment in
            if segment.hasPrefix("{") && segment.hasSuffix("...}") {
                return .remainder(String(segment.dropFirst().dropLast(4)))
            }
            if segment.hasPrefix("{") && segment.hasSuffix("}") {
                return .parameter(String(segment.dropFirst().dropLast()))
            }
            return .literal(segment)
        }
    }

    /// The captured parameters when `segments` (decoded path segments) match, else nil.
    func match(_ pathSegments: [String]) -> RouteParameters? {
        var captured: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .remainder(let name):
                let rest = pathSegments.dropFirst(index)
                guard !rest.isEmpty, rest.allSatisfy({ !$0.isEmpty }) else { return nil }
                captured[name] = rest.joined(separator: "/")
                return RouteParameters(captured)
            case .literal(let text):
                guard index < pathSegments.count, pathSegments[index] == text else { return nil }
            case .parameter(let name):
                guard index < pathSegments.count, !pathSegments[index].isEmpty else { return nil }
                captured[name] = pathSegments[index]
            }
        }
        return pathSegments.count == segments.count ? RouteParameters(captured) : nil
    }

    static func split(_ path: String) -> [String] {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.first == "" { parts.removeFirst() }
        return parts
    }
}

/// One route: a method, a path pattern and the handler that answers what they match.
///
/// A server declares its routes once, as a list of these values, and hands the list to an
/// ``HTTPRouter``; what the router then has is what the server serves, so a check (an OpenAPI
/// document against the routes, say) reads ``HTTPRouter/routes`` rather than a second list.
///
/// ```swift
/// let health = HTTPRoute(.get, "/healthz") { _, _ in try .json(["status": "ok"]) }
/// "\(health)"  // "GET /healthz"
/// ```
public struct HTTPRoute: Sendable, CustomStringConvertible {
    public typealias Handler = @Sendable (HTTPRequest, RouteParameters) async throws -> HTTPResponse

    public var method: HTTPMethod
    public var pattern: HTTPRoutePattern
    public var handler: Handler

    public init(_ method: HTTPMethod, _ pattern: String, handler: @escaping Handler) {
        self.method = method
        self.pattern = HTTPRoutePattern(pattern)
        self.handler = handler
    }

    /// `METHOD pattern`, as an API description names an operation.
    public var description: String { "\(method) \(pattern)" }
}

/// Routes requests by method and path pattern to handlers, and is the error boundary of the
/// HTTP core: an ``HTTPError`` thrown by a handler becomes its JSON response, anything else is
/// logged and becomes a generic 500.
///
/// A path that matches a route under another method answers 405 with an `Allow` header (a
/// client calling `GET /api/v1/track/open` learns it must POST); `HEAD` falls back to the
/// `GET` route (the server library then omits the body).
///
/// (The HTTP prefix keeps it apart from DeepLinkCore's `Router`, the app-side router that
/// chapter 15 builds.)
///
/// ```swift
/// var router = HTTPRouter()
/// router.get("/api/v1/links/{key}") { request, parameters in
///     try .json(["key": parameters.require("key")])
/// }
/// router.routes.map(\.description)  // ["GET /api/v1/links/{key}"]
/// let response = await router.respond(to: HTTPRequest(method: .get, target: "/api/v1/links/abc"))
/// ```
public struct HTTPRouter: HTTPResponder {
    public typealias Handler = HTTPRoute.Handler

    /// Every route, in the order they are tried.
    public private(set) var routes: [HTTPRoute]
    public var logger: HTTPLogger

    public init(_ routes: [HTTPRoute] = [], logger: HTTPLogger = .standardError) {
        (self.routes, self.logger) = (routes, logger)
    }

    /// Adds routes after those already there. Routes are tried in the order they were added.
    public mutating func add(_ added: [HTTPRoute]) {
        routes += added
    }

    /// Adds a route. Routes are tried in the order they were added.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, handler: @escaping Handler) {
        routes.append(HTTPRoute(method, pattern, handler: handler))
    }

    public mutating func get(_ pattern: String, handler: @escaping Handler) {
        on(.get, pattern, handler: handler)
    }

    public mutating func post(_ pattern: String, handler: @escaping Handler) {
        on(.post, pattern, handler: handler)
    }

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        do {
            return try await route(request)
        } catch let error as HTTPError {
            return error.response
        } catch {
            logger.write("error: \(request.method) \(request.path) failed: \(String(reflecting: error))")
            return HTTPError.unexpected.response
        }
    }

    private func route(_ request: HTTPRequest) async throws -> HTTPResponse {
        var segments: [String] = []
        for raw in HTTPRoutePattern.split(request.path) {
            // Most segments carry no escape; Foundation's decoding is costly on Linux, so only
            // segments with a `%` go through it.
            guard raw.utf8.contains(UInt8(ascii: "%")) else {
                segments.append(raw)
                continue
            }
            guard let decoded = raw.removingPercentEncoding else { throw HTTPError.invalidPath(request.path) }
            segments.append(decoded)
        }
        var allowed: [HTTPMethod] = []
        for wanted in request.method == .head ? [HTTPMethod.head, .get] : [request.method] {
            for route in routes where route.method == wanted {
                if let parameters = route.pattern.match(segments) {
                    return try await route.handler(request, parameters)
                }
            }
        }
        for route in routes where !allowed.contains(route.method) && route.pattern.match(segments) != nil {
            allowed.append(route.method)
        }
        if allowed.isEmpty {
            throw HTTPError.notFound(path: request.path)
        }
        throw HTTPError.methodNotAllowed(request.method, allowed: allowed)
    }
}
