import CSpawnShim
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
            (self.status, self.output, self.errors, self.timedOut, self.seconds) = (
                status, output, errors, timedOut, seconds
            )
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
    /// The child is spawned in a process group of its own and waited for with `waitpid`, so
    /// killing the group also stops what the child started (the test runner `swift test`
    /// spawns), and a background job it leaves does not hold up the wait. (Foundation's `Process`
    /// reports an exit only once every process holding its inherited descriptors has ended.)
    package static func run(
        _ executable: String, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String] = [:], timeout: TimeInterval, separateErrors: Bool = false,
        outputLimit: Int = .max, stopsOnInterrupt: Bool = true, stopsLeftovers: Bool = false
    ) -> Result {
        let started = ContinuousClock.now
        func seconds() -> Double { (ContinuousClock.now - started) / .seconds(1) }
        let files = OutputFiles(separate: separateErrors)
        defer { files.remove() }
        let child: ChildProcess
        do {
            child = try ChildProcess(
                executable, arguments, in: directory, environment: environment,
                output: .file(files.output), errors: files.errors.map { .file($0) })
        } catch {
            return Result(
                status: 127, output: "cannot run \(executable): \(String(cString: strerror(error.code)))",
                timedOut: false, seconds: seconds())
        }
        if stopsOnInterrupt { ChildProcesses.shared.add(child.pid) }
        var ending = child.wait(timeout: timeout)
        let timedOut = ending == nil
        if timedOut {
            child.kill()
            ending = child.wait(timeout: 30)
        } else if stopsLeftovers {
            _ = Foundation.kill(-child.pid, SIGKILL)
        }
        if stopsOnInterrupt { ChildProcesses.shared.remove(child.pid) }
        return Result(
            status: timedOut ? -1 : ending?.status ?? -1,
            output: files.read(files.output, limit: outputLimit),
            errors: files.errors.map { files.read($0, limit: outputLimit) } ?? "", timedOut: timedOut,
            seconds: seconds())
    }
}

/// `posix_spawn` with the child in a process group of its own, standard input from `/dev/null`
/// and its output where the caller says.
enum Spawn {
    enum Outcome {
        case success(pid_t)
        case failure(Int32)
    }

    /// Where the child's standard output or error goes.
    enum Stream {
        /// A file, created or emptied.
        case path(String)
        /// A descriptor of the parent's, such as a pipe's write end.
        case descriptor(Int32)
        case discarded
    }

    /// How long to wait before try `attempt` (from 0) of a program that is busy (`ETXTBSY`):
    /// 5 ms doubling up to 160 ms, twelve tries, 1.3 s at most in all.
    static let busyRetries = 12
    static func busyPause(_ attempt: Int) { usleep(useconds_t(5_000 << min(attempt, 5))) }

    /// Starts `executable`; `errors` nil sends standard error where standard output goes.
    /// `pause` waits between tries while the program is busy; tests replace it.
    static func start(
        _ executable: String, _ arguments: [String], in directory: URL?, environment: [String: String],
        output: Stream, errors: Stream?, pause: (Int) -> Void = busyPause
    ) -> Outcome {
        #if canImport(Darwin)
            var attributes: posix_spawnattr_t? = nil
            var actions: posix_spawn_file_actions_t? = nil
        #else
            var attributes = posix_spawnattr_t()
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        // The child starts with the signals a program expects: none blocked, and the ones this
        // process may ignore (Ctrl-C and SIGTERM while ``ChildProcesses`` watches them, SIGPIPE
        // where a runtime ignores it) back to their defaults, since an ignored signal stays
        // ignored across exec.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        func send(_ stream: Stream, to descriptor: Int32) {
            switch stream {
            case .path(let path):
                posix_spawn_file_actions_addopen(
                    &actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .descriptor(let source):
                posix_spawn_file_actions_adddup2(&actions, source, descriptor)
            case .discarded:
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            }
        }
        send(output, to: 1)
        if let errors {
            send(errors, to: 2)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        // The child inherits nothing else: a descriptor of another child's pipe, inherited, would
        // keep that pipe open (and its reader waiting) for as long as this child runs.
        #if canImport(Darwin)
            flags |= POSIX_SPAWN_CLOEXEC_DEFAULT
        #else
            _ = wb_spawn_addclosefrom(&actions, 3)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))
        // The folder, where the C library can change it; elsewhere a shell changes it and then
        // becomes the program (`exec`).
        var path = executable
        var argv = [executable] + arguments
        if let directory, wb_spawn_addchdir(&actions, directory.path) != 0 {
            path = "/bin/sh"
            argv = ["/bin/sh", "-c", "cd -- \"$0\" || exit 127\nexec \"$@\"", directory.path] + argv
        }
        guard FileManager.default.isExecutableFile(atPath: executable) else { return .failure(ENOENT) }
        let variables = environment.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        var code: Int32 = 0
        // ETXTBSY: the program was written a moment ago and another thread's child, forked before
        // it closed the file, still holds it open for writing until that child execs. The file is
        // fine; the moment passes, so try again, a bounded number of times
        // (source: "Linux man-pages: execve(2)").
        for attempt in 0..<busyRetries {
            code = withCStrings(argv) { argv in
                withCStrings(variables) { envp in posix_spawn(&pid, path, &actions, &attributes, argv, envp) }
            }
            guard code == ETXTBSY, attempt < busyRetries - 1 else { break }
            pause(attempt)
        }
        return code == 0 ? .success(pid) : .failure(code)
    }

    /// Blocks until `pid` has ended, without reaping it: the pid keeps naming the child until
    /// ``waitForExit(_:)`` reaps it.
    static func waitUntilEnded(_ pid: pid_t) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 {
            guard errno == EINTR else { return }
        }
    }

    /// Blocks until `pid` exits, reaps it, and says how it ended.
    static func waitForExit(_ pid: pid_t) -> ChildProcess.Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return .exited(127) }
        }
        // WIFEXITED / WEXITSTATUS are macros Swift cannot import.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    private static func withCStrings<Value>(
        _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Value
    ) -> Value {
        let pointers = strings.map { strdup($0) }
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers + [nil])
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
    /// the parent is gone they are re-parented), then killed after the child and its group. The
    /// child goes first, so that it ends by the signal rather than by noticing its children end.
    package static func kill(_ pid: Int32) {
        let tree = descendants(of: pid)
        _ = Foundation.kill(pid, SIGKILL)
        _ = Foundation.kill(-pid, SIGKILL)
        for child in tree { _ = Foundation.kill(child, SIGKILL) }
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
