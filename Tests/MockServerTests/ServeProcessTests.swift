import AttributionService
import Foundation
import HTTPCore
import MockServer
import MockServerTesting
import ProcessRunner
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `workbook serve` as a child process, run the way a user runs it.
final class ServeProcess: @unchecked Sendable {
    let process: ChildProcess
    private(set) var port = 0
    private(set) var stdoutLines: [String] = []

    /// Starts `workbook serve ARGUMENTS` and waits (at most 20 s) for its `listening on` line.
    /// Most tests are about the API, so the site is left out (`--no-site`) unless `site` asks for
    /// it: no background build competes with them, and nothing lands in the repository's `.build`.
    init(_ arguments: [String], environment: [String: String] = [:], site: Bool = false) throws {
        // One log line per request goes to standard error: a pipe nobody reads would fill up and
        // stall the server.
        process = try ChildProcess(
            CommandRunner.productsDirectory.appendingPathComponent("workbook").path,
            ["serve"] + (site ? [] : ["--no-site"]) + arguments, in: repositoryRoot,
            environment: environment, output: .pipe, errors: .discarded)
        let output = process.output ?? FileHandle.nullDevice
        // The greeting ends with the `events:` line (then `site:` when the site is served).
        let last = site ? "site: " : "events: "
        let greeted = DispatchSemaphore(value: 0)
        let collector = LineCollector()
        Thread.detachNewThread {
            var buffer = Data()
            var signalled = false
            while true {
                let chunk = output.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 0x0A) {
                    collector.append(String(decoding: buffer[..<newline], as: UTF8.self))
                    buffer.removeSubrange(...newline)
                    if !signalled, collector.lines.last?.hasPrefix(last) == true {
                        signalled = true
                        greeted.signal()
                    }
                }
            }
            if !signalled { greeted.signal() }
        }
        guard greeted.wait(timeout: .now() + 20) == .success,
            collector.lines.contains(where: { $0.hasPrefix(last) }),
            let line = collector.lines.first(where: { $0.hasPrefix("listening on ") }),
            let port = URLComponents(string: String(line.dropFirst("listening on ".count)))?.port
        else {
            process.kill()
            throw ServeProcessError.didNotStart(collector.lines)
        }
        self.port = port
        stdoutLines = collector.lines
    }

    deinit {
        process.kill()
    }

    func send(_ signal: Int32) {
        process.send(signal)
    }

    /// Waits for the process to exit (at most `seconds`); its exit status (128 + the signal when
    /// a signal ended it), or nil.
    func waitForExit(seconds: Double = 20) -> Int32? {
        process.wait(timeout: seconds)?.status
    }

    /// Starts the server from an async test: the waiting for its first lines happens on a
    /// Dispatch thread, never on one of the cooperative threads other tests' servers answer on.
    static func start(_ arguments: [String], environment: [String: String] = [:], site: Bool = false)
        async throws -> ServeProcess
    {
        try await offPool { try ServeProcess(arguments, environment: environment, site: site) }
    }

    /// ``waitForExit(seconds:)`` off the cooperative pool.
    func exitStatus(seconds: Double = 20) async -> Int32? {
        await offPool { self.waitForExit(seconds: seconds) }
    }
}

enum ServeProcessError: Error {
    case didNotStart([String])
}

final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func append(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        stored.append(line)
    }
}

/// The click ids of the calls a burst got answers for.
/// The click ids the server answered, and a way to wait for a number of them without polling.
actor Acknowledged {
    private(set) var clickIds: [String] = []
    private var finished = false
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    func add(_ clickId: String) {
        clickIds.append(clickId)
        release()
    }

    /// No more answers will come (the burst ended): every waiter goes on.
    func finish() {
        finished = true
        release()
    }

    /// Returns once `count` answers arrived, or the burst ended with fewer.
    func waitFor(count: Int) async {
        guard clickIds.count < count, !finished else { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }

    private func release() {
        let ready = waiters.filter { finished || clickIds.count >= $0.count }
        waiters.removeAll { finished || clickIds.count >= $0.count }
        for waiter in ready { waiter.continuation.resume() }
    }
}

@Suite("workbook serve as a process", .serialized)
struct ServeProcessTests {
    static let demo = try! ServerConfiguration.load(from: demoConfiguration, environment: [:])

    static func openRequest(_ index: Int) -> HTTPRequest {
        post(
            "/api/v1/track/open",
            #"{"li2Domains":["go.example"],"clipboardStatus":"\#(index % 2 == 0 ? "empty" : "optout")"}"#,
            headers: ["X-Li2-Key": demo.keys.publishable])
    }

    /// Fires `tasks` concurrent loops of track/open calls (each at most `perTask`), recording
    /// every answered click id, until a call fails (the server went away) or the budget is spent.
    static func burst(port: Int, tasks: Int, perTask: Int, into acknowledged: Acknowledged) async {
        let session = makeSession()
        defer { session.finishTasksAndInvalidate() }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for index in 0..<perTask {
                        guard
                            let response = try? await send(
                                openRequest(task * perTask + index), port: port, session: session),
                            response.status == .ok,
                            let answer = try? JSONDecoder().decode(
                                TrackOpenResponse.self, from: response.body)
                        else { return }
                        await acknowledged.add(answer.clickId)
                    }
                }
            }
        }
        await acknowledged.finish()
    }

    /// The click ids of every stored open event, read through the API page by page (1,000 a
    /// page, following `next`, at most 100 pages), and the `total` the first page gave.
    static func storedClickIds(port: Int) async throws -> (clickIds: Set<String>, total: Int) {
        let session = makeSession()
        defer { session.finishTasksAndInvalidate() }
        var clickIds: Set<String> = []
        var cursor: String?
        var total = -1
        for _ in 0..<100 {
            let query = "limit=1000" + (cursor.map { "&after=\($0)" } ?? "")
            let response = try await send(
                get("/api/v1/events?\(query)", headers: ["Authorization": "Bearer \(demo.keys.secret)"]),
                port: port, session: session)
            let page = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            let events = try #require(page["events"] as? [[String: Any]])
            clickIds.formUnion(events.compactMap { $0["clickId"] as? String })
            if total < 0 { total = try #require(page["total"] as? Int) }
            guard let next = page["next"] as? String else { return (clickIds, total) }
            cursor = next
        }
        Issue.record("more than 100 pages of events")
        return (clickIds, total)
    }

    @Test func everyAcknowledgedEventSurvivesKill9DuringABurst() async throws {
        let folder = try DataFolder()
        let arguments = ["--port", "0", "--data-dir", folder.url.path]
        let server = try await ServeProcess.start(arguments)
        let acknowledged = Acknowledged()
        let port = server.port
        async let calls: Void = Self.burst(port: port, tasks: 8, perTask: 1_500, into: acknowledged)
        // Kill it while the burst is running: after 10,000 answers, before the budget runs out.
        await acknowledged.waitFor(count: 10_000)
        server.send(SIGKILL)
        await calls
        #expect(await server.exitStatus() == 128 + SIGKILL)
        let answered = await acknowledged.clickIds
        #expect(answered.count >= 10_000)
        #expect(answered.count < 8 * 1_500, "the kill came after the burst had ended")

        // Every acknowledged event, read back through the API past its 1,000-a-page limit.
        let restarted = try await ServeProcess.start(arguments)
        let stored = try await Self.storedClickIds(port: restarted.port)
        #expect(Set(answered).subtracting(stored.clickIds).isEmpty, "acknowledged but lost")
        #expect(stored.total == stored.clickIds.count)
        restarted.send(SIGTERM)
        let status = await restarted.exitStatus()
        #expect(status == 0)
    }

    /// `serve --request-head-timeout` reaches the server: a half-sent head is closed at the
    /// deadline, long before the idle timeout (30 s, past the client's wait).
    @Test func aHalfSentHeadIsClosedAtTheDeadlineServeWasGiven() async throws {
        let folder = try DataFolder()
        let server = try await ServeProcess.start(
            ["--port", "0", "--data-dir", folder.url.path, "--request-head-timeout", "1"])
        let client = try RawClient(port: server.port, receiveTimeoutSeconds: 20)
        client.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        let (text, end) = await client.readUntilClosed()
        #expect(text.isEmpty)
        #expect(end == .closedByServer)
        server.send(SIGTERM)
        #expect(await server.exitStatus() == 0)
    }

    @Test func sigtermFinishesTheRequestsInFlightAndExitsCleanly() async throws {
        let folder = try DataFolder()
        let arguments = ["--port", "0", "--data-dir", folder.url.path]
        let server = try await ServeProcess.start(arguments)
        let acknowledged = Acknowledged()
        let port = server.port
        async let calls: Void = Self.burst(port: port, tasks: 4, perTask: 100, into: acknowledged)
        await acknowledged.waitFor(count: 40)
        server.send(SIGTERM)
        await calls
        #expect(await server.exitStatus() == 0)

        let restarted = try await ServeProcess.start(arguments)
        let stored = try await Self.storedClickIds(port: restarted.port)
        #expect(Set(await acknowledged.clickIds).subtracting(stored.clickIds).isEmpty)
        restarted.send(SIGINT)
        #expect(await restarted.exitStatus() == 0)
    }

    @Test func itPrintsOneListeningLineThenTheURLsAndTheKeys() async throws {
        let folder = try DataFolder()
        let server = try await ServeProcess.start(
            ["--port", "0", "--data-dir", folder.url.path, "--reset"],
            environment: ["WORKBOOK_PUBLISHABLE_KEY": "li2_pk_from_environment"])
        let lines = server.stdoutLines
        #expect(lines.first == "listening on http://127.0.0.1:\(server.port)")
        #expect(lines.filter { $0.hasPrefix("listening on") }.count == 1)
        #expect(lines.contains("  publishable li2_pk_from_environment  (X-Li2-Key: tracking only)"))
        #expect(
            lines.contains("  secret      \(Self.demo.keys.secret)  (Authorization: Bearer: links, events)"))
        server.send(SIGTERM)
        #expect(await server.exitStatus() == 0)
    }

    @Test func theTestClockRouteExistsOnlyWithItsFlag() async throws {
        let folder = try DataFolder()
        for (flag, status) in [([String](), 404), (["--test-clock"], 200)] {
            let server = try await ServeProcess.start(["--port", "0", "--data-dir", folder.url.path] + flag)
            let session = makeSession()
            let response = try await send(
                post(
                    "/api/v1/test/clock", #"{"advanceSeconds":1}"#,
                    headers: ["Authorization": "Bearer \(Self.demo.keys.secret)"]),
                port: server.port, session: session)
            session.finishTasksAndInvalidate()
            #expect(response.status.code == status, "flags: \(flag)")
            server.send(SIGTERM)
            #expect(await server.exitStatus() == 0)
        }
    }

    /// The error's line (a usage error goes on with the usage, the same for every one).
    @Test(arguments: [
        (["--tls-cert", "cert.pem"], Int32(64), "error: --tls-cert and --tls-key go together"),
        (["--port", "70000"], Int32(64), "error: --port needs a number from 0 to 65535"),
        (["--config", "no-such-file.json"], Int32(2), "error: no configuration file at no-such-file.json"),
    ])
    func unusableArgumentsStopBeforeServing(_ arguments: [String], _ status: Int32, _ error: String)
        async throws
    {
        let run = try await CommandRunner.run("workbook", ["serve"] + arguments, in: repositoryRoot)
        #expect(run.status == status)
        #expect(run.stderr.split(separator: "\n").first.map(String.init) == error)
        #expect(run.stdout == "")
    }
}
