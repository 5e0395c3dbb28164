import Foundation
import HTTPCore
import HTTPDemoApp
import MicroHTTPDServer
import TestSupport
import Testing

/// What a client cannot do to the server however it sends a request: trickle a body forever,
/// or send a query or header fields larger than the server reads (source: "this book: deadlines
/// for request heads and bodies").
@Suite("Request limits over loopback", .serialized)
struct RequestLimitsTests {
    /// A body deadline of 1 s plus 1 s per 16 KiB on a clock the test moves; no head deadline,
    /// and libmicrohttpd's idle timeout (real time) a minute, past every wait here.
    static func bodyDeadlineOfOneSecond(_ clock: ManualNanoseconds) -> HTTPServer.Configuration {
        var configuration = quietConfiguration()
        configuration.requestHeadTimeoutSeconds = 0
        configuration.requestBodyTimeoutSeconds = 1
        configuration.connectionTimeoutSeconds = 60
        configuration.deadlineClock = { clock.now }
        return configuration
    }

    static let timeout =
        #"{"error":{"code":"request_timeout","message":"the request body did not arrive within 2 s"}}"#

    /// 16 KiB announced: 1 s + 1 s. Each byte resets libmicrohttpd's idle timeout; this does not.
    @Test func aTricklingBodyIsAnswered408AtItsDeadlineAndClosed() async throws {
        let clock = ManualNanoseconds()
        try await withLoopbackServer(DemoApp.make(), configuration: Self.bodyDeadlineOfOneSecond(clock)) {
            server, port in
            let client = try RawClient(port: port, receiveTimeoutSeconds: 20)
            client.send(
                "POST /api/v1/size HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 16384\r\n\r\n{")
            #expect(await eventually { server.connectionsReceivingBody == 1 })
            for _ in 0..<19 {
                #expect(client.send(" "))
                clock.advance(milliseconds: 100)
                server.endLateRequests()
            }
            #expect(server.connectionsReceivingBody == 1, "1.9 s of 2: still receiving")
            clock.advance(milliseconds: 100)
            server.endLateRequests()
            let (text, end) = await client.readUntilClosed()
            #expect(
                text == "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
                    + "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(Self.timeout.utf8.count)\r\n\r\n"
                    + Self.timeout)
            #expect(end == .closedByServer)
            #expect(server.connectionsReceivingBody == 0)
        }
    }

    @Test func aBodyThatArrivesInTimeIsAnswered() async throws {
        let clock = ManualNanoseconds()
        try await withLoopbackServer(DemoApp.make(), configuration: Self.bodyDeadlineOfOneSecond(clock)) {
            server, port in
            let client = try RawClient(port: port, receiveTimeoutSeconds: 20)
            client.send(
                "POST /api/v1/size HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 4\r\n\r\nab"
            )
            #expect(await eventually { server.connectionsReceivingBody == 1 })
            // 1 s and 4 bytes' worth: 0.9 s is in time.
            clock.advance(milliseconds: 900)
            server.endLateRequests()
            client.send("cd")
            let (text, end) = await client.readUntilClosed()
            #expect(statusCode(ofRawResponse: text) == 200)
            #expect(body(ofRawResponse: text) == #"{"bytes":4}"#)
            #expect(end == .closedByServer)
        }
    }

    struct QueryCase: CustomTestStringConvertible, Sendable {
        var items: Int
        var status: Int
        var body: String
        var testDescription: String { "\(items) query items" }
    }

    /// libmicrohttpd's default pool of 32 KiB a connection ran out at 476 items (about 1.9 KB of
    /// query) and answered nothing at all.
    static let queryCases = [
        QueryCase(items: 476, status: 200, body: #"{"status":"ok"}"#),
        QueryCase(items: 1_000, status: 200, body: #"{"status":"ok"}"#),
        QueryCase(
            items: 5_000, status: 414,
            body:
                #"{"error":{"code":"uri_too_long","message":"the request target (path and query) is longer than 8192 bytes"}}"#
        ),
    ]

    @Test(arguments: queryCases)
    func aQueryOfAnySizeGetsAnAnswer(_ testCase: QueryCase) async throws {
        try await withLoopbackServer(DemoApp.make()) { _, port in
            let query = (0..<testCase.items).map { "p\($0)=1" }.joined(separator: "&")
            let client = try RawClient(port: port, receiveTimeoutSeconds: 20)
            client.send("GET /health?\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let (text, end) = await client.readUntilClosed()
            #expect(statusCode(ofRawResponse: text) == testCase.status)
            #expect(body(ofRawResponse: text) == testCase.body)
            #expect(end == .closedByServer)
        }
    }

    struct HeaderCase: CustomTestStringConvertible, Sendable {
        var id: String
        var fields: [String]
        var status: Int
        var testDescription: String { id }
    }

    static let headerCases = [
        // 1,000 fields of 11 bytes: past libmicrohttpd's 32 KiB pool, within the 32 KiB read.
        HeaderCase(id: "1,000 short fields", fields: (0..<1_000).map { "X-H\($0): v" }, status: 200),
        HeaderCase(
            id: "one field of 40 KiB", fields: ["X-Big: " + String(repeating: "a", count: 40_000)],
            status: 431),
        HeaderCase(id: "3,000 short fields", fields: (0..<3_000).map { "X-H\($0): v" }, status: 431),
    ]

    @Test(arguments: headerCases)
    func headerFieldsPastTheLimitAre431InTheJSONShape(_ testCase: HeaderCase) async throws {
        try await withLoopbackServer(DemoApp.make()) { _, port in
            let fields = testCase.fields.map { $0 + "\r\n" }.joined()
            let client = try RawClient(port: port, receiveTimeoutSeconds: 20)
            client.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\(fields)Connection: close\r\n\r\n")
            let (text, _) = await client.readUntilClosed()
            #expect(statusCode(ofRawResponse: text) == testCase.status)
            #expect(
                body(ofRawResponse: text)
                    == (testCase.status == 200
                        ? #"{"status":"ok"}"#
                        : #"{"error":{"code":"header_fields_too_large","message":"the header fields take more than 32768 bytes"}}"#)
            )
        }
    }
}
