import AttributionService
import EventLog
import Foundation
import HTTPCore
import MicroHTTPDServer
import MockServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the mock server's tests and the simulator's share: the configuration every test server
/// runs (one link domain, both apps, two links), requests and answers in short, a live server
/// on loopback.
///
/// The configuration every test server runs: one link domain, both apps, two links.
package enum TestServer {
    package static let start = Date(timeIntervalSince1970: 1_750_000_000)
    package static let startText = "2025-06-15T15:06:40.000Z"
    package static let publishableKey = "li2_pk_test_1a2b3c"
    package static let secretKey = "li2_sk_test_4d5e6f"
    package static let siteOrigin = "http://localhost:8080"
    package static let fingerprint =
        "28:7B:49:7C:15:52:8C:FD:AC:4E:40:AB:46:E9:70:67:DE:CF:FB:88:43:1D:56:81:02:1B:6D:C5:49:35:74:7D"

    package static let configuration = ServerConfiguration(
        linkDomains: ["go.example"], siteOrigin: siteOrigin,
        ios: .init(teamID: "ABCDE12345", bundleID: "com.example.shop", appStoreID: "1234567890"),
        android: .init(package: "com.example.shop", sha256CertFingerprints: [fingerprint]),
        links: [
            .init(
                id: "link_summer", domain: "go.example", key: "summer",
                url: "https://shop.example/sale?campaign=summer"),
            .init(id: "link_winter", domain: "go.example", key: "winter", url: "https://shop.example/winter"),
        ],
        keys: .init(publishable: publishableKey, secret: secretKey))

    /// A fresh app: in-memory events, a clock standing at ``start``, counting tokens.
    package static func makeApp(
        testClock: Bool = false, eventStore: any EventStore = InMemoryEventStore(),
        routeProviders: [any RouteProvider] = []
    ) throws -> MockServerApp {
        let clock = ManualClock(start: start)
        return try MockServerApp(
            configuration: configuration, eventStore: eventStore, clock: .manual(clock),
            testClock: testClock ? clock : nil, tokens: .counting(), logger: .silent,
            routeProviders: routeProviders)
    }

    /// The n-th token of a counting generator.
    package static func token(_ number: Int, length: Int = 16) -> String {
        let digits = String(number)
        return "T" + String(repeating: "0", count: length - 1 - digits.count) + digits
    }
}

extension TokenGenerator {
    /// `T000000000000001`, `T000000000000002`, …
    package static func counting() -> TokenGenerator {
        let counter = Counter()
        return TokenGenerator { length in TestServer.token(counter.next(), length: length) }
    }
}

package final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    package func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

// MARK: - Building requests and responses

package func post(_ target: String, _ json: String, headers: HTTPHeaders = [:]) -> HTTPRequest {
    var all = headers
    all["Content-Type"] = "application/json"
    return HTTPRequest(method: .post, target: target, headers: all, body: Data(json.utf8))
}

package func get(_ target: String, headers: HTTPHeaders = [:]) -> HTTPRequest {
    HTTPRequest(method: .get, target: target, headers: headers)
}

package let publishable: HTTPHeaders = ["X-Li2-Key": TestServer.publishableKey]
package let secret: HTTPHeaders = ["Authorization": "Bearer \(TestServer.secretKey)"]

package func jsonResponse(_ status: Int, _ body: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
    var all = headers
    all["Content-Type"] = HTTPResponse.jsonContentType
    return HTTPResponse(status: HTTPStatus(status), headers: all, body: Data(body.utf8))
}

package func errorResponse(_ status: Int, _ code: String, _ message: String, headers: HTTPHeaders = [:])
    -> HTTPResponse
{
    jsonResponse(status, #"{"error":{"code":"\#(code)","message":"\#(message)"}}"#, headers: headers)
}

package let unauthorizedHeaders: HTTPHeaders = ["WWW-Authenticate": #"Bearer realm="li2""#]

// MARK: - Live servers

/// Starts `app` on 127.0.0.1 and a free port, runs `body`, and always stops the server.
package func withLiveServer<Result>(
    _ app: any HTTPResponder, _ body: (Int) async throws -> Result
) async throws -> Result {
    var configuration = HTTPServer.Configuration()
    configuration.logger = .silent
    let server = HTTPServer(responder: app, configuration: configuration)
    let port = try server.start(host: "127.0.0.1", port: 0)
    do {
        let result = try await body(port)
        await server.stop(gracePeriod: .seconds(2))
        return result
    } catch {
        await server.stop(gracePeriod: .seconds(2))
        throw error
    }
}

/// Refuses to follow redirects, so a test sees the 302 itself.
package final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    package func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// A session that never caches, never follows redirects and gives up after a few seconds.
package func makeSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    // Generous: a passing run never waits, and a 2-core CI machine under a full suite is slow.
    configuration.timeoutIntervalForRequest = 30
    configuration.timeoutIntervalForResource = 60
    configuration.urlCache = nil
    configuration.httpShouldSetCookies = false
    return URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
}

/// Sends `request` to a live server and returns what came back.
package func send(_ request: HTTPRequest, port: Int, session: URLSession) async throws -> HTTPResponse {
    var target = request.path
    if !request.query.isEmpty {
        target += "?" + request.query.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
    }
    var urlRequest = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(target)")!)
    urlRequest.httpMethod = request.method.rawValue
    for field in request.headers {
        urlRequest.setValue(field.value, forHTTPHeaderField: field.name)
    }
    if !request.body.isEmpty {
        urlRequest.httpBody = request.body
    }
    let (data, response) = try await session.data(for: urlRequest)
    guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
    var headers = HTTPHeaders()
    for (name, value) in http.allHeaderFields {
        headers.add(name: "\(name)", value: "\(value)")
    }
    return HTTPResponse(status: HTTPStatus(http.statusCode), headers: headers, body: data)
}
