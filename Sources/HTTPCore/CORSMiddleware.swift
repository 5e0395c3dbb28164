import Foundation

/// Lets a web page served from one configured origin call the API from the browser.
///
/// Browsers send a preflight `OPTIONS` request (with `Access-Control-Request-Method`)
/// before a cross-origin `POST` carrying JSON or a custom header such as `X-Li2-Key`; only if
/// the answer allows the origin, method and headers does the real request follow. So:
///
/// - no `Origin` header: not a browser cross-origin call, passed through untouched;
/// - preflight from the allowed origin: `204` with the `Access-Control-Allow-*` headers;
/// - preflight from another origin: `403` with the usual error body;
/// - any other request from the allowed origin: passed on, and the response gains
///   `Access-Control-Allow-Origin` so the page may read it.
///
/// Every answer that depends on `Origin` says so with `Vary: Origin`, so a shared cache never
/// serves one origin's answer to another.
///
/// ```swift
/// let app = router.wrapped(in: CORSMiddleware(allowedOrigin: "http://localhost:3000"))
/// ```
public struct CORSMiddleware: HTTPMiddleware {
    public var allowedOrigin: String
    public var allowedMethods: [HTTPMethod]
    public var allowedHeaders: [String]
    public var maxAgeSeconds: Int

    public init(
        allowedOrigin: String,
        allowedMethods: [HTTPMethod] = [.get, .post, .options],
        allowedHeaders: [String] = ["Content-Type", "X-Li2-Key"],
        maxAgeSeconds: Int = 600
    ) {
        self.allowedOrigin = allowedOrigin
        self.allowedMethods = allowedMethods
        self.allowedHeaders = allowedHeaders
        self.maxAgeSeconds = maxAgeSeconds
    }

    public func respond(to request: HTTPRequest, next: any HTTPResponder) async -> HTTPResponse {
        guard let origin = request.headers["Origin"] else {
            return await next.respond(to: request)
        }
        let allowed = allowedOrigin == "*" || origin == allowedOrigin
        let isPreflight =
            request.method == .options && request.headers["Access-Control-Request-Method"] != nil
        if isPreflight {
            guard allowed else {
                var response = HTTPError.corsOriginNotAllowed(origin).response
                response.headers["Vary"] = "Origin"
                return response
            }
            return HTTPResponse(
                status: .noContent,
                headers: [
                    "Access-Control-Allow-Origin": allowedOrigin == "*" ? "*" : origin,
                    "Access-Control-Allow-Methods": allowedMethods.map(\.rawValue).joined(separator: ", "),
                    "Access-Control-Allow-Headers": allowedHeaders.joined(separator: ", "),
                    "Access-Control-Max-Age": String(maxAgeSeconds),
                    "Vary": "Origin",
                ])
        }
        var response = await next.respond(to: request)
        if allowed {
            response.headers["Access-Control-Allow-Origin"] = allowedOrigin == "*" ? "*" : origin
        }
        response.headers["Vary"] = "Origin"
        return response
    }
}
