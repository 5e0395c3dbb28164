import CSpawnShim
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child that runs until it exits or is stopped: `workbook serve` under test, the reference
/// built in the background while the site is served, and under
/// ``Subprocess/run(_:_:in:environment:timeout:separateErrors:outputLimit:stopsOnInterrupt:stopsLeftovers:)``
/// every child run to completion. It has a process group of its own, standard input from
/// `/dev/null` and no descriptor inherited but the standard three, and it is waited for with
/// `waitpid` on a thread of its own.
///
/// It never stops itself on Ctrl-C: its owner decides (a server stops its build gracefully).
///
/// ```swift
/// let server = try ChildProcess(workbook, ["serve", "--port", "0"], output: .pipe)
/// let line = server.output?.availableData  // "listening on http://127.0.0.1:…"
/// server.send(SIGTERM)
/// server.wait(timeout: 20)  // .exited(0)
/// ```
package final class ChildProcess: @unchecked Sendable {
    /// Where the child's standard output or standard error goes.
    package enum Destination: Sendable {
        /// Nowhere (`/dev/null`).
        case discarded
        /// A file, created or emptied first.
        case file(URL)
        /// A pipe whose read end is ``ChildProcess/output``.
        case pipe
    }

    /// How a child ended.
    package enum Termination: Equatable, Sendable {
        /// It called `exit` with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)

        /// The status a shell shows: the exit status, or 128 + the signal.
        package var status: Int32 {
            switch self {
            case .exited(let status): status
            case .signalled(let signal): 128 + signal
            }
        }
    }

    /// The child could not be started.
    package struct StartError: Error, Equatable, CustomStringConvertible {
        package var executable: String
        /// The `errno` value `posix_spawn` or `pipe` reported.
        package var code: Int32

        package var description: String { "cannot run \(executable) (\(String(cString: strerror(code))))" }
    }

    package let pid: Int32
    /// The read end of standard output, when it was asked for as a ``Destination/pipe``; reading
    /// it gives an empty chunk once the child (and anything it started) has closed it.
    package let output: FileHandle?

    private let lock = NSLock()
    private let exited = DispatchSemaphore(value: 0)
    private var ending: Termination?
    private var exitHandlers: [@Sendable (Termination) -> Void] = []

    /// Starts `executable` with `arguments` in `directory`; `environment` is added to the
    /// inherited one, and a nil value removes a variable. Standard error goes where `errors` says,
    /// or with standard output when it is nil.
    package init(
        _ executable: String, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String?] = [:], output: Destination = .discarded, errors: Destination? = nil
    ) throws(StartError) {
        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        var pipe: (read: Int32, write: Int32)?
        if case .pipe = output {
            pipe = try Self.makePipe(executable)
        } else if case .pipe = errors {
            pipe = try Self.makePipe(executable)
        }
        func stream(_ destination: Destination) -> Spawn.Stream {
            switch destination {
            case .discarded: .discarded
            case .file(let url): .path(url.path)
            case .pipe: .descriptor(pipe?.write ?? -1)
            }
        }
        let outcome = Spawn.start(
            executable, arguments, in: directory, environment: variables, output: stream(output),
            errors: errors.map(stream))
        if let pipe { close(pipe.write) }
        switch outcome {
        case .success(let pid):
            self.pid = pid
            self.output = pipe.map { FileHandle(fileDescriptor: $0.read, closeOnDealloc: true) }
        case .failure(let code):
            if let pipe { close(pipe.read) }
            throw StartError(executable: executable, code: code)
        }
        Thread.detachNewThread { [self] in
            Spawn.waitUntilEnded(pid)
            finish()
        }
    }

    /// How the child ended; nil while it runs.
    package var termination: Termination? { lock.withLock { ending } }

    package var isRunning: Bool { termination == nil }

    /// Waits at most `timeout` seconds for the child to end; how it ended, or nil if it still runs.
    @discardableResult
    package func wait(timeout: TimeInterval) -> Termination? {
        guard exited.wait(timeout: .now() + timeout) == .success else { return nil }
        exited.signal()  // every later wait returns at once too
        return termination
    }

    /// Calls `handler` once the child has ended (at once if it has), on the thread that saw it end,
    /// before ``wait(timeout:)`` returns.
    package func onExit(_ handler: @escaping @Sendable (Termination) -> Void) {
        let ended: Termination? = lock.withLock {
            if ending == nil { exitHandlers.append(handler) }
            return ending
        }
        if let ended { handler(ended) }
    }

    /// Sends `signal` to the child alone, as Ctrl-C (`SIGINT`) or a service manager (`SIGTERM`)
    /// would; nothing once it has ended.
    package func send(_ signal: Int32) {
        lock.withLock {
            // The child is reaped under this lock as `ending` is set, so the pid still names it.
            if ending == nil { _ = Foundation.kill(pid, signal) }
        }
    }

    /// Kills the child and everything it started; nothing once it has ended.
    package func kill() {
        lock.withLock {
            // As in send(_:): under the lock, the pid still names the child.
            if ending == nil { ChildProcesses.kill(pid) }
        }
    }

    /// Reaps the child under the lock, so that ``send(_:)`` never signals a reused pid.
    private func finish() {
        let (termination, handlers) = lock.withLock {
            let termination = Spawn.waitForExit(pid)
            ending = termination
            defer { exitHandlers = [] }
            return (termination, exitHandlers)
        }
        // The handlers run before any wait returns: once ``wait(timeout:)`` has said how the
        // child ended, they are done (so a handler must not wait for the child itself).
        for handler in handlers { handler(termination) }
        exited.signal()
    }

    /// A pipe whose two ends are closed on `exec`, so that no other child inherits them; the
    /// child gets the write end as a standard descriptor, which the `dup2` leaves open.
    private static func makePipe(_ executable: String) throws(StartError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        let code = wb_spawn_pipe(&ends)
        guard code == 0 else { throw StartError(executable: executable, code: code) }
        return (ends[0], ends[1])
    }
}
