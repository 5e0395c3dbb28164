import Dispatch
import Foundation

/// Runs `swift build` and `swift test` for the exercise commands: output captured in a file (so a
/// chatty build can never block on a full pipe), a deadline after which the whole process group is
/// killed, and Ctrl-C passed on to the child before the tool exits.
package enum Subprocess {
    package struct Result: Sendable {
        package var status: Int32
        package var output: String
        package var timedOut: Bool
        package var seconds: Double
    }

    /// Runs `executable` with `arguments` in `directory` and waits at most `timeout` seconds.
    ///
    /// Foundation starts each child in a process group of its own, so on a timeout (or Ctrl-C)
    /// killing the group also stops what the child started, such as the test runner that
    /// `swift test` spawns.
    package static func run(
        _ executable: String, _ arguments: [String], in directory: URL, environment: [String: String] = [:],
        timeout: TimeInterval
    ) -> Result {
        let started = Date()
        let logURL = FileManager.default.temporaryDirectory.appendingPathComponent(
            "workbook-exercises-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: logURL) }
        guard let log = try? FileHandle(forWritingTo: logURL) else {
            return Result(status: 127, output: "cannot create \(logURL.path)", timedOut: false, seconds: 0)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            try? log.close()
            return Result(
                status: 127, output: "cannot run \(executable): \(error.localizedDescription)",
                timedOut: false,
                seconds: 0)
        }
        let pid = process.processIdentifier
        ChildProcesses.shared.add(pid)
        var timedOut = false
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            ChildProcesses.kill(pid)
            _ = finished.wait(timeout: .now() + 5)
        }
        ChildProcesses.shared.remove(pid)
        try? log.close()
        let output =
            FileManager.default.contents(atPath: logURL.path).map { String(decoding: $0, as: UTF8.self) }
            ?? ""
        return Result(
            status: timedOut ? -1 : process.terminationStatus, output: output, timedOut: timedOut,
            seconds: Date().timeIntervalSince(started))
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
