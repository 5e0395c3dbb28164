import Dispatch
import Foundation

/// The package's one way to run a child process to completion: what the exercises build and
/// test with, what checks a console transcript, what runs `swiftc -parse`, `swift format`, DocC's
/// tools, and the executables under test.
///
/// Output goes to files, never pipes, so a chatty child can never block on a full pipe and a killed
/// pipeline cannot leave a writer holding one open. A deadline kills the child and everything it
/// started. With `stopsOnInterrupt`, Ctrl-C (or SIGTERM) stops the child before the tool exits.
///
/// ```swift
/// let result = Subprocess.run("/bin/sh", ["-c", "echo hi"], timeout: 5)
/// result.output  // "hi\n"
/// ```
package enum Subprocess {
    package struct Result: Equatable, Sendable {
        package var status: Int32
        /// Standard output, with standard error interleaved unless it was asked apart.
        package var output: String
        /// Standard error when `separateErrors` asked for it apart; empty otherwise.
        package var errors: String
        package var timedOut: Bool
        package var seconds: Double

        package init(status: Int32, output: String, errors: String = "", timedOut: Bool, seconds: Double) {
            self.status = status
            self.output = output
            self.errors = errors
            self.timedOut = timedOut
            self.seconds = seconds
        }
    }

    /// Runs `executable` with `arguments` in `directory` and waits at most `timeout` seconds.
    ///
    /// - `environment` is added to the inherited one.
    /// - `separateErrors` keeps standard error apart (in ``Result/errors``).
    /// - `outputLimit` caps what is read back of each output.
    /// - `stopsOnInterrupt` kills the child on Ctrl-C or SIGTERM and exits the tool: right for a
    ///   command, wrong inside a server that stops gracefully.
    /// - `stopsLeftovers` kills what the child left running in its process group after it exits
    ///   (a shell's background job).
    ///
    /// Foundation starts each child in a process group of its own, so killing the group also
    /// stops what the child started, such as the test runner that `swift test` spawns.
    package static func run(
        _ executable: String, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String] = [:], timeout: TimeInterval, separateErrors: Bool = false,
        outputLimit: Int = .max, stopsOnInterrupt: Bool = true, stopsLeftovers: Bool = false
    ) -> Result {
        let started = ContinuousClock.now
        func seconds() -> Double {
            let elapsed = (ContinuousClock.now - started).components
            return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        }
        let files = OutputFiles(separate: separateErrors)
        defer { files.remove() }
        guard let out = files.open(files.output), let err = files.errors.map(files.open) ?? out else {
            return Result(
                status: 127,
                output: "cannot create a file in \(files.folder): \(String(cString: strerror(errno)))",
                timedOut: false, seconds: 0)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            try? out.close()
            try? err.close()
            return Result(
                status: 127, output: "cannot run \(executable): \(error.localizedDescription)",
                timedOut: false,
                seconds: 0)
        }
        let pid = process.processIdentifier
        if stopsOnInterrupt { ChildProcesses.shared.add(pid) }
        var timedOut = false
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            ChildProcesses.kill(pid)
            _ = finished.wait(timeout: .now() + 5)
        } else if stopsLeftovers {
            _ = Foundation.kill(-pid, SIGKILL)
        }
        if stopsOnInterrupt { ChildProcesses.shared.remove(pid) }
        try? out.close()
        try? err.close()
        return Result(
            status: timedOut ? -1 : process.terminationStatus,
            output: files.read(files.output, limit: outputLimit),
            errors: files.errors.map { files.read($0, limit: outputLimit) } ?? "", timedOut: timedOut,
            seconds: seconds())
    }
}

/// The files a child writes its output to, in a folder of their own removed afterwards.
private struct OutputFiles {
    let folder: URL
    let output: URL
    let errors: URL?

    init(separate: Bool) {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "workbook-run-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        output = folder.appendingPathComponent("output")
        errors = separate ? folder.appendingPathComponent("errors") : nil
    }

    func open(_ file: URL) -> FileHandle? {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else { return nil }
        return try? FileHandle(forWritingTo: file)
    }

    func read(_ file: URL, limit: Int) -> String {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return "" }
        defer { try? handle.close() }
        let data = (limit == .max ? try? handle.readToEnd() : try? handle.read(upToCount: limit)) ?? nil
        return String(decoding: data ?? Data(), as: UTF8.self)
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// The children running right now, so that Ctrl-C (or SIGTERM) stops them too: they live in
/// process groups of their own, which the terminal's signal does not reach.
package final class ChildProcesses: @unchecked Sendable {
    package static let shared = ChildProcesses()

    private let lock = NSLock()
    private var pids: Set<Int32> = []
    private var sources: [any DispatchSourceSignal] = []

    package func add(_ pid: Int32) {
        lock.withLock {
            pids.insert(pid)
            if sources.isEmpty { installHandlers() }
        }
    }

    package func remove(_ pid: Int32) {
        _ = lock.withLock { pids.remove(pid) }
    }

    /// Kills a child and everything it started. `swift test` starts the test runner in a process
    /// group of its own, so the group alone is not enough: the descendants are found first (once
    /// the parent is gone they are re-parented), then killed with the group and the child.
    package static func kill(_ pid: Int32) {
        let tree = descendants(of: pid)
        for child in tree.reversed() { _ = Foundation.kill(child, SIGKILL) }
        _ = Foundation.kill(-pid, SIGKILL)
        _ = Foundation.kill(pid, SIGKILL)
    }

    /// The processes below `pid`, parents before children, read from `/proc` (empty elsewhere).
    static func descendants(of pid: Int32) -> [Int32] {
        var children: [Int32: [Int32]] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let process = Int32(entry),
                let data = FileManager.default.contents(atPath: "/proc/\(entry)/stat")
            else { continue }
            // "pid (command) state ppid ...": the command may hold spaces and parentheses.
            let stat = String(decoding: data, as: UTF8.self)
            guard let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = Int32(fields[1]) else { continue }
            children[parent, default: []].append(process)
        }
        var result: [Int32] = []
        var pending = children[pid] ?? []
        while let next = pending.first {
            pending.removeFirst()
            result.append(next)
            pending += children[next] ?? []
        }
        return result
    }

    /// Called with the lock held, once.
    private func installHandlers() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in
                let running = self?.lock.withLock { self?.pids ?? [] } ?? []
                for pid in running { Self.kill(pid) }
                exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }
}
