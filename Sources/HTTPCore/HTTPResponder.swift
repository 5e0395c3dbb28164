import Foundation

/// Anything that turns a request into a response: a router, a middleware stack, a test fake.
///
/// The requirement is `async` because real handlers wait on things (the event store appends
/// durably before the API answers). The server never blocks a libmicrohttpd thread on it: it
/// suspends the connection, runs the responder in a task and resumes the connection with the
/// result. The requirement is non-throwing: errors have been turned into responses by the time
/// a responder returns (see ``HTTPRouter``), so the socket layer has nothing left to decide.
///
/// ```swift
/// struct Hello: HTTPResponder {
///     func respond(to request: HTTPRequest) async -> HTTPResponse { .text("hello") }
/// }
/// let response = await Hello().respond(to: HTTPRequest(method: .get, target: "/"))
/// ```
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest) async -> HTTPResponse
}

/// A step wrapped around a responder: it may answer on its own (a CORS preflight) or call
/// `next` and adjust the response (adding CORS headers).
///
/// ```swift
/// let app = router.wrapped(in: CORSMiddleware(allowedOrigin: "http://localhost:3000"))
/// ```
public protocol HTTPMiddleware: Sendable {
    func respond(to request: HTTPRequest, next: any HTTPResponder) async -> HTTPResponse
}

/// A responder with one middleware in front of it.
public struct MiddlewareResponder: HTTPResponder {
    public let middleware: any HTTPMiddleware
    public let next: any HTTPResponder

    public init(middleware: any HTTPMiddleware, next: any HTTPResponder) {
        (self.middleware, self.next) = (middleware, next)
    }

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        await middleware.respond(to: request, next: next)
    }
}

extension HTTPResponder {
    /// Puts `middleware` in front of this responder; the last one wrapped runs first.
    public func wrapped(in middleware: any HTTPMiddleware) -> MiddlewareResponder {
        MiddlewareResponder(middleware: middleware, next: self)
    }
}

/// Where the server writes what it must not show clients: unexpected errors and the server
/// library's own diagnostics.
///
/// ```swift
/// let logger = HTTPLogger { line in print(line) }
/// ```
public struct HTTPLogger: Sendable {
    public let write: @Sendable (String) -> Void

    public init(_ write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Writes each line to standard error.
    public static let standardError = HTTPLogger { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Discards everything.
    public static let silent = HTTPLogger { _ in }
}
