import Foundation
import HTTPCore
import HTTPDemoApp
import MicroHTTPDServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The same cases as the in-process suite, through libmicrohttpd on 127.0.0.1. The live
/// response carries more headers (Date, Content-Length …); every expected header must be there
/// with its value, and status and body must match exactly.
@Suite("The libmicrohttpd server over loopback", .serialized)
struct LoopbackTests {
    @Test(arguments: shellCases)
    func serverAnswersLikeTheResponder(_ shellCase: ShellCase) async throws {
        try await withLoopbackServer(DemoApp.make()) { _, port in
            let session = makeSession()
            defer { session.finishTasksAndInvalidate() }
            let live = try await send(shellCase.request, port: port, session: session)
            #expect(live.status == shellCase.expected.status)
            #expect(live.bodyText == shellCase.expected.bodyText)
            for field in shellCase.expected.headers {
                #expect(live.headers[field.name] == field.value, "header \(field.name)")
            }
        }
    }

    @Test func requestCarriesThePeerAddress() async throws {
        let app = DemoApp.make { router in
            router.get("/whoami") { request, _ in try .json(["remote": request.remoteAddress ?? "unknown"]) }
        }
        try await withLoopbackServer(app) { _, port in
            let session = makeSession()
            defer { session.finishTasksAndInvalidate() }
            let live = try await send(
                HTTPRequest(method: .get, target: "/whoami"), port: port, session: session)
            #expect(live.bodyText == #"{"remote":"127.0.0.1"}"#)
        }
    }

    @Test func portZeroBindsAFreePortAndStopReleasesIt() async throws {
        let server = HTTPServer(responder: DemoApp.make(), configuration: quietConfiguration())
        let port = try server.start(port: 0)
        #expect(port > 0)
        #expect(server.port == port)
        #expect(throws: HTTPServerError.alreadyRunning) { try server.start(port: 0) }
        await server.stop()
        #expect(server.port == nil)
        #expect(throws: POSIXError.self) { _ = try RawClient(port: port) }
    }

    @Test func bodyAtTheLimitIsAccepted() async throws {
        try await withLoopbackServer(DemoApp.make()) { _, port in
            let session = makeSession()
            defer { session.finishTasksAndInvalidate() }
            let request = HTTPRequest(method: .post, target: "/api/v1/size", body: Data(count: 65_536))
            let live = try await send(request, port: port, session: session)
            #expect(live.bodyText == #"{"bytes":65536}"#)
        }
    }

    @Test func oversizeDeclaredBodyIsRefusedBeforeItIsSent() async throws {
        try await withLoopbackServer(DemoApp.make()) { _, port in
            // Only the headers go out: the 413 must come back without a single body byte.
            let client = try RawClient(port: port)
            client.send("POST /api/v1/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 70000\r\n\r\n")
            let (text, end) = await client.readUntilClosed()
            #expect(statusCode(ofRawResponse: text) == 413)
            #expect(
                body(ofRawResponse: text)
                    == #"{"error":{"code":"payload_too_large","message":"request body exceeds 65536 bytes"}}"#
            )
            #expect(end == .closedByServer)
        }
    }

    @Test func oversizeBodyFromURLSessionIs413() async throws {
        try await withLoopbackServer(DemoApp.make()) { _, port in
            let session = makeSession()
            defer { session.finishTasksAndInvalidate() }
            let request = HTTPRequest(method: .post, target: "/api/v1/size", body: Data(count: 100_000))
            let live = try await send(request, port: port, session: session)
            #expect(live.status == .payloadTooLarge)
        }
    }

    @Test func oversizeChunkedBodyIs413() async throws {
        try await withLoopbackServer(DemoApp.make()) { _, port in
            let client = try RawClient(port: port)
            client.send("POST /api/v1/size HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = String(repeating: "x", count: 10_000)
            for _ in 0..<7 {
                client.send("2710\r\n\(chunk)\r\n")
            }
            client.send("0\r\n\r\n")
            let (text, end) = await client.readUntilClosed()
            #expect(statusCode(ofRawResponse: text) == 413)
            #expect(end == .closedByServer)
        }
    }

    @Test func slowClientsDoNotBlockOthers() async throws {
        var configuration = quietConfiguration()
        configuration.threadPoolSize = 1
        try await withLoopbackServer(DemoApp.make(), configuration: configuration) { _, port in
            // Half a header block, and a full header block with half its body.
            var stalled: [RawClient] = []
            for index in 0..<4 {
                let client = try RawClient(port: port)
                if index.isMultiple(of: 2) {
                    client.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow")
                } else {
                    client.send(
                        "POST /api/v1/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{\"na")
                }
                stalled.append(client)
            }
            let session = makeSession()
            defer { session.finishTasksAndInvalidate() }
            let live = try await send(
                HTTPRequest(method: .get, target: "/health"), port: port, session: session)
            #expect(live.bodyText == #"{"status":"ok"}"#)
            withExtendedLifetime(stalled) {}  // the stalled clients stay connected until here
        }
    }

    @Test func idleHalfRequestIsClosedAfterTheTimeout() async throws {
        var configuration = quietConfiguration()
        configuration.connectionTimeoutSeconds = 1
        try await withLoopbackServer(DemoApp.make(), configuration: configuration) { _, port in
            let client = try RawClient(port: port, receiveTimeoutSeconds: 6)
            client.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            // Closed by the server (its one-second idle timeout), not by the client's own wait.
            let (text, end) = await client.readUntilClosed()
            #expect(end == .closedByServer)
            #expect(text.isEmpty)
        }
    }

    @Test func defaultLimitsAdmit64ConnectionsFromOneAddressAndCloseThe65th() async throws {
        try await withLoopbackServer(DemoApp.make()) { server, port in
            var clients: [RawClient] = []
            for _ in 0..<64 {
                clients.append(try RawClient(port: port))
            }
            // Every slot is taken (the server has accepted all 64) before the extra one connects.
            #expect(await eventually { server.connectionsAwaitingHead == 64 })
            let extra = try RawClient(port: port)
            extra.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let (refused, refusedEnd) = await extra.readUntilClosed()
            for client in clients {
                client.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            }
            var answered = 0
            for client in clients {
                let (text, _) = await client.readUntilClosed()
                if statusCode(ofRawResponse: text) == 200 { answered += 1 }
            }
            #expect(answered == 64)
            #expect(refused.isEmpty)
            #expect(refusedEnd == .closedByServer)
        }
    }

    /// A head deadline of one second on a clock the test moves, so that no test waits for it;
    /// libmicrohttpd's own idle timeout (real time) is a minute, past every wait here.
    func headDeadlineOfOneSecond(_ clock: ManualNanoseconds) -> HTTPServer.Configuration {
        var configuration = quietConfiguration()
        configuration.requestHeadTimeoutSeconds = 1
        configuration.connectionTimeoutSeconds = 60
        configuration.deadlineClock = { clock.now }
        return configuration
    }

    /// A client that trickles its head, a byte at a time, is ended at the head deadline though
    /// every byte resets libmicrohttpd's idle timeout.
    @Test func aTricklingHeadIsEndedAtItsDeadline() async throws {
        let clock = ManualNanoseconds()
        try await withLoopbackServer(DemoApp.make(), configuration: headDeadlineOfOneSecond(clock)) {
            server, port in
            let client = try RawClient(port: port, receiveTimeoutSeconds: 20)
            client.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            #expect(await eventually { server.connectionsAwaitingHead == 1 })
            // The slow client: a byte every 200 ms of the server's clock, until the deadline ends it.
            for _ in 0..<4 {
                #expect(client.send("x"))
                clock.advance(milliseconds: 200)
                server.endLateRequests()
                #expect(server.connectionsAwaitingHead == 1)
            }
            client.send("x")
            clock.advance(milliseconds: 200)
            server.endLateRequests()
            let (text, end) = await client.readUntilClosed()
            #expect(text.isEmpty)
            #expect(end == .closedByServer)
        }
    }

    /// On a kept-alive connection the next head has its deadline too, counted from the end of
    /// the previous request.
    @Test func aKeptAliveConnectionMustSendItsNextHeadInTime() async throws {
        let clock = ManualNanoseconds()
        try await withLoopbackServer(DemoApp.make(), configuration: headDeadlineOfOneSecond(clock)) {
            server, port in
            let client = try RawClient(port: port, receiveTimeoutSeconds: 20)
            client.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let first = await client.read(until: #"{"status":"ok"}"#)
            #expect(statusCode(ofRawResponse: first) == 200)
            // The deadline starts again once the request has ended.
            #expect(await eventually { server.connectionsAwaitingHead == 1 })
            clock.advance(milliseconds: 1_000)
            server.endLateRequests()
            let (rest, end) = await client.readUntilClosed()
            #expect(rest.isEmpty)
            #expect(end == .closedByServer)
        }
    }

    /// The deadline is for the head only: an answer that takes longer is not cut.
    @Test func aSlowAnswerOutlivesTheHeadDeadline() async throws {
        let clock = ManualNanoseconds()
        let answer = Mailbox<Bool>()
        let app = DemoApp.make { router in
            router.get("/slow") { _, _ in
                _ = await answer.take()
                return try .json(["done": true])
            }
        }
        try await withLoopbackServer(app, configuration: headDeadlineOfOneSecond(clock)) { server, port in
            let client = try RawClient(port: port, receiveTimeoutSeconds: 20)
            client.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(await eventually { server.requestsInFlight == 1 })
            clock.advance(milliseconds: 1_500)
            server.endLateRequests()
            answer.put(true)
            let (text, end) = await client.readUntilClosed()
            #expect(statusCode(ofRawResponse: text) == 200)
            #expect(body(ofRawResponse: text) == #"{"done":true}"#)
            #expect(end == .closedByServer)
        }
    }

    @Test func perAddressCapClosesTheConnectionBeyondIt() async throws {
        var configuration = quietConfiguration()
        configuration.perIPConnectionLimit = 2
        try await withLoopbackServer(DemoApp.make(), configuration: configuration) { _, port in
            let held = [try RawClient(port: port), try RawClient(port: port)]
            let extra = try RawClient(port: port)
            extra.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let (text, end) = await extra.readUntilClosed()
            #expect(text.isEmpty)
            #expect(end == .closedByServer)
            withExtendedLifetime(held) {}  // the two held connections stay open until here
        }
    }

    @Test func connectionBeyondTheCapWaitsUntilASlotFrees() async throws {
        var configuration = quietConfiguration()
        configuration.connectionLimit = 2
        try await withLoopbackServer(DemoApp.make(), configuration: configuration) { _, port in
            // At the cap libmicrohttpd stops accepting: the kernel queues the connection.
            var held = [try RawClient(port: port), try RawClient(port: port)]
            let extra = try RawClient(port: port, receiveTimeoutSeconds: 1)
            extra.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let (waiting, waitEnd) = await extra.readUntilClosed()
            #expect(waiting.isEmpty)
            #expect(waitEnd == .timedOut)
            held.removeAll()
            // Freed slots are taken up on the server's next turn; a busy machine may take a while.
            extra.setReceiveTimeout(seconds: 10)
            let (text, end) = await extra.readUntilClosed()
            #expect(statusCode(ofRawResponse: text) == 200)
            #expect(end == .closedByServer)
        }
    }

    @Test func stopRefusesNewConnectionsAndFinishesRequestsInFlight() async throws {
        let gate = Gate()
        let app = DemoApp.make { router in
            router.get("/slow") { _, _ in
                await gate.pass()
                return try .json(["done": true])
            }
        }
        let server = HTTPServer(responder: app, configuration: quietConfiguration())
        let port = try server.start()
        let session = makeSession()
        defer { session.finishTasksAndInvalidate() }
        let slow = Task {
            try await send(HTTPRequest(method: .get, target: "/slow"), port: port, session: session)
        }
        #expect(await eventually { await gate.entered == 1 })
        let stopping = Task { await server.stop(gracePeriod: .seconds(5)) }
        #expect(
            await eventually {
                do {
                    _ = try RawClient(port: port)
                    return false
                } catch {
                    return true
                }
            })
        #expect(server.requestsInFlight == 1)
        await gate.open()
        let live = try await slow.value
        #expect(live.bodyText == #"{"done":true}"#)
        await stopping.value
        #expect(server.port == nil)
    }

    @Test func stopAnswersARequestStuckPastTheGracePeriodWith503() async throws {
        let gate = Gate()
        let app = DemoApp.make { router in
            router.get("/stuck") { _, _ in
                await gate.pass()
                return try .json(["done": true])
            }
        }
        let server = HTTPServer(responder: app, configuration: quietConfiguration())
        let port = try server.start()
        let session = makeSession()
        defer { session.finishTasksAndInvalidate() }
        let stuck = Task {
            try await send(HTTPRequest(method: .get, target: "/stuck"), port: port, session: session)
        }
        #expect(await eventually { await gate.entered == 1 })
        await server.stop(gracePeriod: .milliseconds(200))
        let live = try await stuck.value
        #expect(live.status == .serviceUnavailable)
        #expect(
            live.bodyText == #"{"error":{"code":"shutting_down","message":"the server is shutting down"}}"#)
        await gate.open()
    }

    /// On Linux the cooperative pool has one thread per core, shared with `DispatchQueue.global()`.
    /// A program that blocks them all (a test suite building sites, `workbook serve` building
    /// the book) must still get its answers: responders run on the server's own threads, and
    /// the actor they await follows them there.
    @Test func theServerAnswersWhileEveryCooperativeThreadIsBlocked() async throws {
        let tally = Gate()
        let app = DemoApp.make { router in
            router.get("/tally") { _, _ in
                await tally.open()
                return try .json(["entered": await tally.entered])
            }
        }
        try await withLoopbackServer(app) { _, port in
            let width = ProcessInfo.processInfo.activeProcessorCount
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let blockers = (0..<width).map { _ in
                Task.detached { holdThread(signalling: started, until: release) }
            }
            // The request goes out from a thread of its own once every blocker holds a thread;
            // the blockers are let go after the answer, or after the client's 10 s timeout.
            let answer = await offPool { () -> String in
                defer { for _ in 0..<width { release.signal() } }
                for _ in 0..<width { _ = started.wait(timeout: .now() + 60) }
                guard let client = try? RawClient(port: port, receiveTimeoutSeconds: 10) else {
                    return "no connection"
                }
                _ = client.send("GET /tally HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                return client.readAll()
            }
            for blocker in blockers { await blocker.value }
            #expect(statusCode(ofRawResponse: answer) == 200)
            #expect(body(ofRawResponse: answer) == #"{"entered":0}"#)
        }
    }

    @Test func startFailsClearlyOnANonNumericAddress() {
        let server = HTTPServer(responder: DemoApp.make(), configuration: quietConfiguration())
        #expect(throws: HTTPServerError.cannotStart("not a numeric IPv4 or IPv6 address: example.com")) {
            try server.start(host: "example.com", port: 0)
        }
    }

    @Test func startFailsWhenThePortIsTaken() async throws {
        try await withLoopbackServer(DemoApp.make()) { _, port in
            let second = HTTPServer(responder: DemoApp.make(), configuration: quietConfiguration())
            #expect(throws: HTTPServerError.self) { try second.start(port: port) }
        }
    }
}

/// Holds the calling thread until `release` is signalled, after saying so on `started`.
private func holdThread(signalling started: DispatchSemaphore, until release: DispatchSemaphore) {
    started.signal()
    release.wait()
}
