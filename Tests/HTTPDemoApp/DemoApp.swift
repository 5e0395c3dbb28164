import Foundation
import HTTPCore

/// A small application on the HTTP core, used by the in-process tests (HTTPCoreTests) and the
/// loopback tests (MicroHTTPDServerTests) alike: the same cases run against the responder and
/// live over a socket.
package enum DemoApp {
    package static let allowedOrigin = "http://localhost:3000"

    package struct Echo: Codable, Equatable {
        package var name: String
        package var count: Int
        package var tags: [String]?
    }

    package struct Unexpected: Error {}

    /// Collects what the router logs, so a test can check that a 500 was logged.
    package final class LogLines: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []

        package init() {}

        package var lines: [String] {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }

        package var logger: HTTPLogger {
            HTTPLogger { line in
                self.lock.lock()
                defer { self.lock.unlock() }
                self.stored.append(line)
            }
        }
    }

    package static func make(logger: HTTPLogger = .silent, extraRoutes: (inout HTTPRouter) -> Void = { _ in })
        -> MiddlewareResponder
    {
        var router = HTTPRouter(logger: logger)
        router.get("/health") { _, _ in
            try .json(["status": "ok"])
        }
        router.post("/api/v1/echo") { request, _ in
            try .json(request.decodeJSON(Echo.self))
        }
        router.post("/api/v1/size") { request, _ in
            try .json(["bytes": request.body.count])
        }
        router.get("/api/v1/links/{key}") { _, parameters in
            try .json(["key": parameters.require("key")])
        }
        router.get("/api/v1/query") { request, _ in
            let pairs = request.query.map { ($0.name, $0.value ?? "") }
            return try .json(Dictionary(pairs, uniquingKeysWith: { first, _ in first }))
        }
        router.get("/api/v1/secure") { request, _ in
            guard let key = request.headers["X-Li2-Key"], key.hasPrefix("li2_pk_") else {
                throw HTTPError(.unauthorized, code: "missing_key", message: "X-Li2-Key header is required")
            }
            return try .json(["key": key])
        }
        router.get("/site/{path...}") { _, parameters in
            try .json(["path": parameters.require("path")])
        }
        router.get("/boom") { _, _ in
            throw Unexpected()
        }
        extraRoutes(&router)
        return router.wrapped(in: CORSMiddleware(allowedOrigin: allowedOrigin))
    }
}

/// A JSON response as the HTTP core renders it, for expectations.
package func jsonResponse(_ status: HTTPStatus, _ body: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
    var all = headers
    all["Content-Type"] = HTTPResponse.jsonContentType
    return HTTPResponse(status: status, headers: all, body: Data(body.utf8))
}

/// One request and the whole response it must produce, checked both in-process and over
/// loopback.
package struct ShellCase: Sendable, CustomStringConvertible {
    package var id: String
    package var source: String
    package var method: HTTPMethod
    package var target: String
    package var headers: HTTPHeaders = [:]
    package var body = Data()
    package var expected: HTTPResponse

    package var description: String { id }

    package var request: HTTPRequest {
        HTTPRequest(method: method, target: target, headers: headers, body: body)
    }
}

package let shellCases: [ShellCase] = [
    ShellCase(
        id: "health-ok", source: "this book: the HTTP core matches routes segment by segment", method: .get,
        target: "/health",
        expected: jsonResponse(.ok, #"{"status":"ok"}"#)),
    ShellCase(
        id: "unknown-path-404", source: "this book: errors are JSON values rendered in one place",
        method: .get,
        target: "/nope",
        expected: jsonResponse(.notFound, #"{"error":{"code":"not_found","message":"no route for /nope"}}"#)),
    ShellCase(
        id: "wrong-method-405-names-allowed", source: "RFC 9110 §15.5.6", method: .get,
        target: "/api/v1/echo",
        expected: jsonResponse(
            .methodNotAllowed,
            #"{"error":{"code":"method_not_allowed","message":"GET is not allowed here; use POST"}}"#,
            headers: ["Allow": "POST"])),
    ShellCase(
        id: "path-parameter-is-decoded", source: "RFC 3986 §2.1", method: .get,
        target: "/api/v1/links/summer%20sale",
        expected: jsonResponse(.ok, #"{"key":"summer sale"}"#)),
    ShellCase(
        id: "encoded-slash-stays-in-its-segment", source: "RFC 3986 §2.2", method: .get,
        target: "/api/v1/links/a%2Fb",
        expected: jsonResponse(.ok, #"{"key":"a/b"}"#)),
    ShellCase(
        id: "remainder-parameter-takes-the-rest",
        source: "this book: the HTTP core matches routes segment by segment", method: .get,
        target: "/site/chapters/03-universal-links.html",
        expected: jsonResponse(.ok, #"{"path":"chapters/03-universal-links.html"}"#)),
    ShellCase(
        id: "query-is-form-decoded", source: "WHATWG URL: application/x-www-form-urlencoded", method: .get,
        target: "/api/v1/query?utm=spring+sale&delta=%2B1&flag",
        expected: jsonResponse(.ok, #"{"delta":"+1","flag":"","utm":"spring sale"}"#)),
    ShellCase(
        id: "header-lookup-ignores-case", source: "RFC 9110 §5.1", method: .get, target: "/api/v1/secure",
        headers: ["x-li2-key": "li2_pk_demo"],
        expected: jsonResponse(.ok, #"{"key":"li2_pk_demo"}"#)),
    ShellCase(
        id: "thrown-http-error-is-rendered",
        source: "this book: errors are JSON values rendered in one place",
        method: .get, target: "/api/v1/secure",
        expected: jsonResponse(
            .unauthorized, #"{"error":{"code":"missing_key","message":"X-Li2-Key header is required"}}"#)),
    ShellCase(
        id: "json-body-decodes", source: "RFC 8259", method: .post, target: "/api/v1/echo",
        headers: ["Content-Type": "application/json"], body: Data(#"{"name":"a","count":2}"#.utf8),
        expected: jsonResponse(.ok, #"{"count":2,"name":"a"}"#)),
    ShellCase(
        id: "malformed-json-is-400", source: "RFC 8259 §2", method: .post, target: "/api/v1/echo",
        body: Data(#"{"name":"#.utf8),
        expected: jsonResponse(
            .badRequest,
            #"{"error":{"code":"invalid_json","message":"request body is not valid JSON at line 1, column 9: "#
                + #"the JSON text ends too early"}}"#)),
    ShellCase(
        id: "wrong-type-names-the-field", source: "this book: errors are JSON values rendered in one place",
        method: .post, target: "/api/v1/echo",
        body: Data(#"{"name":"a","count":"two"}"#.utf8),
        expected: jsonResponse(
            .badRequest,
            #"{"error":{"code":"invalid_field","message":"field 'count' must be an integer"}}"#)),
    ShellCase(
        id: "missing-field-names-the-field",
        source: "this book: errors are JSON values rendered in one place", method: .post,
        target: "/api/v1/echo",
        body: Data(#"{"name":"a"}"#.utf8),
        expected: jsonResponse(
            .badRequest, #"{"error":{"code":"missing_field","message":"field 'count' is required"}}"#)),
    ShellCase(
        id: "array-element-type-names-the-index",
        source: "this book: errors are JSON values rendered in one place", method: .post,
        target: "/api/v1/echo",
        body: Data(#"{"name":"a","count":1,"tags":["x",2]}"#.utf8),
        expected: jsonResponse(
            .badRequest,
            #"{"error":{"code":"invalid_field","message":"field 'tags[1]' must be a string"}}"#)),
    ShellCase(
        id: "null-field-is-named", source: "this book: errors are JSON values rendered in one place",
        method: .post, target: "/api/v1/echo",
        body: Data(#"{"name":null,"count":1}"#.utf8),
        expected: jsonResponse(
            .badRequest,
            #"{"error":{"code":"invalid_field","message":"field 'name' must not be null"}}"#)),
    ShellCase(
        id: "invalid-utf8-is-400", source: "RFC 8259 §8.1", method: .post, target: "/api/v1/echo",
        body: Data([0x7B, 0x22, 0xFF, 0x22, 0x7D]),
        expected: jsonResponse(
            .badRequest, #"{"error":{"code":"invalid_utf8","message":"request body is not valid UTF-8"}}"#)),
    ShellCase(
        id: "empty-body-is-400", source: "RFC 8259 §2", method: .post, target: "/api/v1/echo",
        expected: jsonResponse(
            .badRequest,
            #"{"error":{"code":"invalid_json","message":"request body is empty; expected JSON"}}"#)),
    ShellCase(
        id: "unexpected-error-is-a-generic-500",
        source: "this book: errors are JSON values rendered in one place",
        method: .get,
        target: "/boom",
        expected: jsonResponse(
            .internalServerError,
            #"{"error":{"code":"internal_error","message":"the server failed to handle the request"}}"#)),
    ShellCase(
        id: "cors-preflight-is-204", source: "WHATWG Fetch: CORS protocol", method: .options,
        target: "/api/v1/echo",
        headers: [
            "Origin": DemoApp.allowedOrigin, "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type, x-li2-key",
        ],
        expected: HTTPResponse(
            status: .noContent,
            headers: [
                "Access-Control-Allow-Origin": DemoApp.allowedOrigin,
                "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
                "Access-Control-Allow-Headers": "Content-Type, X-Li2-Key",
                "Access-Control-Max-Age": "600",
                "Vary": "Origin",
            ])),
    ShellCase(
        id: "cors-request-gains-allow-origin", source: "WHATWG Fetch: CORS protocol", method: .get,
        target: "/health", headers: ["Origin": DemoApp.allowedOrigin],
        expected: jsonResponse(
            .ok, #"{"status":"ok"}"#,
            headers: ["Access-Control-Allow-Origin": DemoApp.allowedOrigin, "Vary": "Origin"])),
    ShellCase(
        id: "cors-foreign-origin-preflight-is-403",
        source: "this book: CORS answers only the site's own origin, and a foreign preflight gets 403",
        method: .options, target: "/api/v1/echo",
        headers: ["Origin": "https://evil.example", "Access-Control-Request-Method": "POST"],
        expected: jsonResponse(
            .forbidden,
            #"{"error":{"code":"cors_origin_not_allowed","message":"origin https://evil.example is not allowed"}}"#,
            headers: ["Vary": "Origin"])),
    ShellCase(
        id: "cors-foreign-origin-request-gets-no-allow-origin", source: "WHATWG Fetch: CORS protocol",
        method: .get, target: "/health", headers: ["Origin": "https://evil.example"],
        expected: jsonResponse(.ok, #"{"status":"ok"}"#, headers: ["Vary": "Origin"])),
]
