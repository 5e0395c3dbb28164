import Foundation
import Li2DeepLinks
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `workbook serve` as a child process, started the way a reader starts it: on 127.0.0.1 and a
/// free port, with a fresh data folder, a test clock and a fixed seed.
///
/// Starting and stopping block a thread (waiting for the `listening on` line, waiting for the
/// exit), so both run on a serial Dispatch queue and never on Swift's cooperative threads, which
/// the SDK's own tasks need at the same moment.
final class MockServerProcess: @unchecked Sendable {
    /// `http://127.0.0.1:PORT`.
    let baseURL: URL
    /// What `config/demo.json` says: the keys, the link domain, the links, the time to live.
    let workspace: DemoWorkspace
    /// A session for the test's own calls: no cache, no cookies, no redirects followed.
    let session: URLSession
    // The process is touched only on `queue`, after `start` returned.
    private let process: Process
    private let exited: DispatchSemaphore
    private let dataFolder: URL

    private static let queue = DispatchQueue(label: "li2-journey-mock-server")

    private init(
        process: Process, exited: DispatchSemaphore, baseURL: URL, workspace: DemoWorkspace, dataFolder: URL
    ) {
        self.process = process
        self.exited = exited
        self.baseURL = baseURL
        self.workspace = workspace
        self.dataFolder = dataFolder
        self.session = URLSession(configuration: Self.sessionConfiguration, delegate: NoRedirects(), delegateQueue: nil)
    }

    deinit {
        // A test that failed before `stop()` must not leave a server running.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        session.invalidateAndCancel()
    }

    /// The API root the SDK is configured with: `http://127.0.0.1:PORT/api/v1`.
    var apiBaseURL: URL { baseURL.appendingPathComponent("api/v1") }
}

extension MockServerProcess {
    /// Why the server did not start, with what it printed and logged.
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts the server and waits, at most `timeout` seconds, for its `listening on` line.
    static func start(seed: UInt64, timeout: TimeInterval = 20) async throws -> MockServerProcess {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try launch(seed: seed, timeout: timeout) }) }
        }
    }

    /// Stops the server as Ctrl-C would (SIGTERM) and waits, at most `timeout` seconds, for it to
    /// exit; a server that hangs is killed. Returns the exit status: 0 after a graceful stop.
    @discardableResult
    func stop(timeout: TimeInterval = 10) async -> Int32 {
        await withCheckedContinuation { continuation in
            Self.queue.async { continuation.resume(returning: self.terminate(timeout: timeout)) }
        }
    }

    private static func launch(seed: UInt64, timeout: TimeInterval) throws -> MockServerProcess {
        let root = try repositoryRoot()
        let configuration = root.appendingPathComponent("config/demo.json")
        let workspace = try DemoWorkspace.load(from: configuration)
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("li2-journey-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // One line per request goes to standard error: a file keeps it for a failing test to show.
        let log = folder.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)

        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("workbook")
        process.arguments = [
            "serve", "--port", "0", "--data-dir", folder.path, "--config", configuration.path,
            "--test-clock", "--seed", String(seed),
        ]
        process.currentDirectoryURL = root
        // The environment may replace the configured keys (chapter 8); the journeys use the file's.
        var environment = ProcessInfo.processInfo.environment
        environment["WORKBOOK_PUBLISHABLE_KEY"] = nil
        environment["WORKBOOK_SECRET_KEY"] = nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()

        let lines = LineReader(output.fileHandleForReading)
        guard let line = lines.first(withPrefix: "listening on ", timeout: timeout),
            let baseURL = URL(string: String(line.dropFirst("listening on ".count)))
        else {
            kill(process.processIdentifier, SIGKILL)
            let logged = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: folder)
            throw StartFailure(
                description: "workbook serve did not start within \(timeout) s; it printed \(lines.all) "
                    + "and logged \(logged)")
        }
        return MockServerProcess(
            process: process, exited: exited, baseURL: baseURL, workspace: workspace, dataFolder: folder)
    }

    private func terminate(timeout: TimeInterval) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            _ = exited.wait(timeout: .now() + 5)
        }
        try? FileManager.default.removeItem(at: dataFolder)
        return process.isRunning ? -1 : process.terminationStatus
    }
}

/// Runs `body` against a fresh server, and always stops it. A server that does not stop
/// gracefully fails the test: it would have lost the events of requests in flight.
func withMockServer<Value>(
    seed: UInt64 = 12, isolation: isolated (any Actor)? = #isolation,
    _ body: (MockServerProcess) async throws -> Value
) async throws -> Value {
    let server = try await MockServerProcess.start(seed: seed)
    let value: Value
    do {
        value = try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    let status = await server.stop()
    #expect(status == 0, "workbook serve did not stop gracefully")
    return value
}

/// Lines a child process prints, read on a thread of their own until the pipe closes.
final class LineReader: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var waiting: (prefix: String, found: DispatchSemaphore)?

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 0x0A) {
                    append(String(decoding: buffer[..<newline], as: UTF8.self))
                    buffer.removeSubrange(...newline)
                }
            }
            finish()
        }
    }

    /// Every line so far.
    var all: [String] { locked { lines } }

    /// The first line starting with `prefix`, waiting at most `timeout` seconds for it; nil when
    /// it did not come (the process exited, or took too long).
    func first(withPrefix prefix: String, timeout: TimeInterval) -> String? {
        let found = DispatchSemaphore(value: 0)
        if let line = locked({ () -> String? in
            if let line = lines.first(where: { $0.hasPrefix(prefix) }) { return line }
            waiting = (prefix, found)
            return nil
        }) {
            return line
        }
        _ = found.wait(timeout: .now() + timeout)
        return locked { lines.first { $0.hasPrefix(prefix) } }
    }

    private func append(_ line: String) {
        locked {
            lines.append(line)
            if let waiting, line.hasPrefix(waiting.prefix) { waiting.found.signal() }
        }
    }

    private func finish() {
        locked { _ = waiting?.found.signal() }
    }

    private func locked<Value>(_ body: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
