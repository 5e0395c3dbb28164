import Foundation
import HTTPCore
import MicroHTTPDServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts `responder` on 127.0.0.1 and a free port, runs `body`, and always stops the server.
func withLoopbackServer<Result>(
    _ responder: any HTTPResponder,
    configuration: HTTPServer.Configuration = quietConfiguration(),
    _ body: (HTTPServer, Int) async throws -> Result
) async throws -> Result {
    let server = HTTPServer(responder: responder, configuration: configuration)
    let port = try server.start(host: "127.0.0.1", port: 0)
    do {
        let result = try await body(server, port)
        await server.stop(gracePeriod: .seconds(2))
        return result
    } catch {
        await server.stop(gracePeriod: .seconds(2))
        throw error
    }
}

func quietConfiguration() -> HTTPServer.Configuration {
    var configuration = HTTPServer.Configuration()
    configuration.logger = .silent
    return configuration
}

/// A URLSession that never caches, never keeps cookies, and gives up after half a minute (a
/// passing run never waits; a 2-core machine running the whole suite can be slow).
func makeSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 30
    configuration.timeoutIntervalForResource = 60
    configuration.urlCache = nil
    return URLSession(configuration: configuration)
}

/// Sends `request` to the loopback server and returns status, headers and body.
func send(_ request: HTTPRequest, port: Int, session: URLSession) async throws -> HTTPResponse {
    var urlRequest = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(request.target)")!)
    urlRequest.httpMethod = request.method.rawValue
    for field in request.headers {
        urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
    }
    if !request.body.isEmpty {
        urlRequest.httpBody = request.body
    }
    let (data, response) = try await session.data(for: urlRequest)
    let http = try #require(response as? HTTPURLResponse)
    var headers = HTTPHeaders()
    for (name, value) in http.allHeaderFields {
        headers.add(name: "\(name)", value: "\(value)")
    }
    return HTTPResponse(status: HTTPStatus(http.statusCode), headers: headers, body: data)
}

extension HTTPRequest {
    /// The path and query again, for sending.
    var target: String {
        guard !query.isEmpty else { return path }
        let encoded = query.map { item in
            let name = item.name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? item.name
            guard let value = item.value else { return name }
            return name + "=" + (value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)
        }
        return path + "?" + encoded.joined(separator: "&")
    }
}

/// The status code of a raw HTTP/1.1 response ("HTTP/1.1 413 Payload Too Large" → 413).
func statusCode(ofRawResponse text: String) -> Int? {
    let parts = text.split(separator: " ", maxSplits: 2)
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/") else { return nil }
    return Int(parts[1])
}

/// The body of a raw HTTP/1.1 response with a Content-Length.
func body(ofRawResponse text: String) -> String {
    guard let range = text.range(of: "\r\n\r\n") else { return "" }
    return String(text[range.upperBound...])
}

/// Lets a test hold a handler inside its request until the test opens the gate.
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private(set) var entered = 0

    func pass() async {
        entered += 1
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}
