import Foundation
import StrictJSON

/// An error a handler throws on purpose: it carries the status, a stable machine-readable
/// `code` and a human sentence. It is rendered in exactly one place, ``response``, as
/// `{"error":{"code":"…","message":"…"}}`, so every failure of the API looks the same to a client.
///
/// ```swift
/// throw HTTPError(.unauthorized, code: "missing_key", message: "X-Li2-Key header is required")
/// ```
///
/// Anything else a handler throws is logged and answered with a generic 500: internal error
/// texts never reach the client.
public struct HTTPError: Error, Equatable, Sendable {
    public var status: HTTPStatus
    public var code: String
    public var message: String
    public var headers: HTTPHeaders

    public init(_ status: HTTPStatus, code: String, message: String, headers: HTTPHeaders = [:]) {
        (self.status, self.code, self.message, self.headers) = (status, code, message, headers)
    }

    /// The one rendering of every error response.
    public var response: HTTPResponse {
        struct Envelope: Encodable {
            struct Body: Encodable {
                var code: String
                var message: String
            }
            var error: Body
        }
        var allHeaders = headers
        allHeaders["Content-Type"] = HTTPResponse.jsonContentType
        let envelope = Envelope(error: .init(code: code, message: message))
        // Encoding two strings cannot fail; the fallback keeps the shape anyway.
        let body = (try? HTTPResponse.jsonEncoder.encode(envelope)) ?? Data(#"{"error":{}}"#.utf8)
        return HTTPResponse(status: status, headers: allHeaders, body: body)
    }
}

/// Every error the HTTP core itself produces, declared in one place so tests can pin the texts.
extension HTTPError {
    public static func notFound(path: String) -> HTTPError {
        HTTPError(.notFound, code: "not_found", message: "no route for \(path)")
    }

    public static func methodNotAllowed(_ method: HTTPMethod, allowed: [HTTPMethod]) -> HTTPError {
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        return HTTPError(
            .methodNotAllowed, code: "method_not_allowed",
            message: "\(method.rawValue) is not allowed here; use \(list)", headers: ["Allow": list])
    }

    public static func payloadTooLarge(limit: Int) -> HTTPError {
        HTTPError(
            .payloadTooLarge, code: "payload_too_large",
            message: "request body exceeds \(limit) bytes")
    }

    public static func uriTooLong(limit: Int) -> HTTPError {
        HTTPError(
            .uriTooLong, code: "uri_too_long",
            message: "the request target (path and query) is longer than \(limit) bytes")
    }

    public static func headerFieldsTooLarge(limit: Int) -> HTTPError {
        HTTPError(
            .requestHeaderFieldsTooLarge, code: "header_fields_too_large",
            message: "the header fields take more than \(limit) bytes")
    }

    /// A body that did not arrive within its deadline (see `RequestBodyDeadline`).
    public static func requestTimeout(seconds: Double) -> HTTPError {
        HTTPError(
            .requestTimeout, code: "request_timeout",
            message: "the request body did not arrive within \(Int(seconds.rounded(.up))) s",
            headers: ["Connection": "close"])
    }

    public static let unexpected = HTTPError(
        .internalServerError, code: "internal_error", message: "the server failed to handle the request")

    public static let shuttingDown = HTTPError(
        .serviceUnavailable, code: "shutting_down", message: "the server is shutting down")

    public static func invalidPath(_ path: String) -> HTTPError {
        HTTPError(.badRequest, code: "invalid_path", message: "path is not valid percent-encoding: \(path)")
    }

    public static func corsOriginNotAllowed(_ origin: String) -> HTTPError {
        HTTPError(.forbidden, code: "cors_origin_not_allowed", message: "origin \(origin) is not allowed")
    }

    public static let emptyBody = HTTPError(
        .badRequest, code: "invalid_json", message: "request body is empty; expected JSON")

    public static let invalidUTF8 = HTTPError(
        .badRequest, code: "invalid_utf8", message: "request body is not valid UTF-8")

    public static let malformedJSON = HTTPError(
        .badRequest, code: "invalid_json", message: "request body is not valid JSON")

    /// The body is not JSON, and the strict checker says where (RFC 8259).
    public static func malformedJSON(_ problem: JSONSyntax.Problem) -> HTTPError {
        HTTPError(
            .badRequest, code: "invalid_json",
            message: "request body is not valid JSON at line \(problem.line), column \(problem.column): "
                + problem.message)
    }

    public static func missingField(_ field: String) -> HTTPError {
        HTTPError(.badRequest, code: "missing_field", message: "field '\(field)' is required")
    }

    public static func wrongType(_ field: String, expected: String) -> HTTPError {
        HTTPError(.badRequest, code: "invalid_field", message: "field '\(field)' must be \(expected)")
    }

    public static func nullField(_ field: String) -> HTTPError {
        HTTPError(.badRequest, code: "invalid_field", message: "field '\(field)' must not be null")
    }

    public static func invalidField(_ field: String, reason: String) -> HTTPError {
        HTTPError(.badRequest, code: "invalid_field", message: "field '\(field)' is invalid: \(reason)")
    }
}
