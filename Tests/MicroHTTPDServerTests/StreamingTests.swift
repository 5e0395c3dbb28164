import Foundation
import HTTPCore
import MicroHTTPDServer
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Answers every request with a stream, and hands each stream to the test.
private final class StreamingResponder: HTTPResponder, @unchecked Sendable {
    private let lock = NSLock()
    private var opened: [HTTPStream] = []

    var streams: [HTTPStream] {
        lock.withLock { opened }
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let stream = HTTPStream()
        lock.withLock { opened.append(stream) }
        return HTTPResponse(
            status: .ok, headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-store"],
            stream: stream)
    }
}

@Suite("Streamed responses", .serialized)
struct StreamingTests {
    @Test func clientReceivesTwoEventsInOrder() async throws {
        let responder = StreamingResponder()
        try await withLoopbackServer(responder) { _, port in
            let client = try RawClient(port: port)
            client.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(await eventually { !responder.streams.isEmpty })
            let stream = try #require(responder.streams.first)
            stream.send("event: first\ndata: 1\n\n")
            let head = await client.read(until: "data: 1")
            #expect(head.hasPrefix("HTTP/1.1 200"))
            #expect(head.lowercased().contains("content-type: text/event-stream"))
            #expect(head.lowercased().contains("transfer-encoding: chunked"))
            stream.send("event: second\ndata: 2\n\n")
            let rest = await client.read(until: "data: 2")
            let events = (head + rest).components(separatedBy: "event: ").dropFirst().map {
                String($0.prefix { $0 != "\n" })
            }
            #expect(events == ["first", "second"])
        }
    }

    /// RFC 9110 §9.3.2: a HEAD gets the headers a GET would and no content; the stream the
    /// responder made is finished at once, never left open. Its length is unknown, so the answer
    /// is framed by the close, in libmicrohttpd's HTTP/1.0 form (its chunked form sent `0\r\n\r\n`).
    @Test func aHeadOnAStreamGetsTheHeadersAndNoBody() async throws {
        let responder = StreamingResponder()
        try await withLoopbackServer(responder) { _, port in
            let client = try RawClient(port: port, receiveTimeoutSeconds: 20)
            client.send("HEAD /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let (text, end) = await client.readUntilClosed()
            let lines = text.components(separatedBy: "\r\n").filter { !$0.hasPrefix("Date: ") }
            #expect(
                lines == [
                    "HTTP/1.0 200 OK", "Connection: close", "Content-Type: text/event-stream",
                    "Cache-Control: no-store", "", "",
                ])
            #expect(end == .closedByServer)
            let stream = try #require(responder.streams.first)
            #expect(!stream.send("event: late\n\n"), "the stream was finished")
        }
    }

    /// The grace period is an hour: a stop that waited for the open stream would fail the time limit.
    @Test(.timeLimit(.minutes(1))) func stopEndsOpenStreamsAtOnce() async throws {
        let responder = StreamingResponder()
        let server = HTTPServer(responder: responder, configuration: quietConfiguration())
        let port = try server.start(host: "127.0.0.1", port: 0)
        let client = try RawClient(port: port)
        client.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(await eventually { !responder.streams.isEmpty })
        let stream = try #require(responder.streams.first)
        stream.send(": open\n\n")
        _ = await client.read(until: ": open")
        await server.stop(gracePeriod: .seconds(3_600))
        let (text, end) = await client.readUntilClosed()
        // The last chunk (size 0) ends the body cleanly before the connection closes.
        #expect(text.hasSuffix("0\r\n\r\n"))
        #expect(end == .closedByServer)
        #expect(stream.isClosed)
    }

    @Test func closeHandlerRunsWhenTheClientLeaves() async throws {
        let responder = StreamingResponder()
        try await withLoopbackServer(responder) { _, port in
            var client: RawClient? = try RawClient(port: port)
            client?.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(await eventually { !responder.streams.isEmpty })
            let stream = try #require(responder.streams.first)
            let closed = ClosedFlag()
            stream.onClose { closed.set() }
            client = nil
            // A suspended connection notices the client only when it next writes.
            #expect(
                await eventually {
                    stream.send(": heartbeat\n\n")
                    return closed.isSet
                })
            #expect(stream.send("event: late\n\n") == false)
        }
    }

    @Test func inProcessStreamBuffersUntilTakenAndRefusesAfterFinish() {
        let stream = HTTPStream()
        #expect(stream.send("a"))
        #expect(stream.send("b"))
        #expect(String(decoding: stream.takeBuffered(), as: UTF8.self) == "ab")
        #expect(stream.takeBuffered().isEmpty)
        stream.finish()
        #expect(stream.isClosed)
        #expect(stream.send("c") == false)
    }
}

private final class ClosedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}
