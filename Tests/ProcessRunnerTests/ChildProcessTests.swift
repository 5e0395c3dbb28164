import Foundation
import ProcessRunner
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A child that runs until it exits or is stopped (a server under test, a build in the background)
/// (source: "this book: chapter 25, Starting the server").
@Suite(.timeLimit(.minutes(1)))
struct ChildProcessTests {
    static func shell(
        _ script: String, environment: [String: String?] = [:], output: ChildProcess.Destination = .pipe
    )
        throws -> ChildProcess
    {
        try ChildProcess("/bin/sh", ["-c", script], environment: environment, output: output)
    }

    /// Everything the child writes to the pipe, up to its end.
    static func readAll(_ child: ChildProcess) async -> String {
        await offPool {
            String(decoding: child.output?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        }
    }

    @Test func aPipeCarriesStandardOutputAndErrorToItsEnd() async throws {
        let child = try Self.shell("echo out; echo err >&2; exit 3")
        #expect(await Self.readAll(child) == "out\nerr\n")
        #expect(await offPool { child.wait(timeout: 60) } == .exited(3))
        #expect(child.termination == .exited(3))
        #expect(!child.isRunning)
    }

    @Test func outputGoesToAFileAndErrorsCanBeDiscarded() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("left from before\n".utf8).write(to: file)
        let child = try ChildProcess(
            "/bin/sh", ["-c", "echo out; echo err >&2"], output: .file(file), errors: .discarded)
        #expect(child.output == nil)
        #expect(await offPool { child.wait(timeout: 60) } == .exited(0))
        #expect(try String(contentsOf: file, encoding: .utf8) == "out\n")
    }

    /// `PATH` is always inherited; `env` prints what the child was given.
    @Test func theEnvironmentIsAddedToAndANilRemovesAVariable() async throws {
        #expect(ProcessInfo.processInfo.environment["PATH"] != nil)
        let child = try ChildProcess(
            "/usr/bin/env", [], environment: ["WORKBOOK_CHILD_TEST_ADDED": "added", "PATH": nil],
            output: .pipe)
        let given = await Self.readAll(child).split(separator: "\n").filter {
            $0.hasPrefix("WORKBOOK_CHILD_TEST_ADDED=") || $0.hasPrefix("PATH=")
        }
        #expect(given == ["WORKBOOK_CHILD_TEST_ADDED=added"])
    }

    /// This process may ignore SIGTERM (the runner does while it watches Ctrl-C); the child must
    /// not inherit that, or it could never be asked to stop.
    @Test func aSignalEndsItAndSaysWhich() async throws {
        let previous = signal(SIGTERM, SIG_IGN)
        defer { signal(SIGTERM, previous) }
        let child = try Self.shell("echo ready; exec sleep 600")
        let firstLine = await offPool { child.output?.availableData ?? Data() }
        #expect(String(decoding: firstLine, as: UTF8.self) == "ready\n")
        #expect(child.isRunning)
        #expect(child.wait(timeout: 0) == nil)
        child.send(SIGTERM)
        let ended = await offPool { child.wait(timeout: 60) }
        #expect(ended == .signalled(SIGTERM))
        #expect(ended?.status == 128 + SIGTERM)
        child.send(SIGTERM)  // once it has ended: nothing, and no other process
    }

    @Test func killStopsWhatTheChildStartedToo() async throws {
        // The grandchild holds the pipe: the output ends only once it is gone as well.
        let child = try Self.shell("sleep 600 & echo started; wait")
        let firstLine = await offPool { child.output?.availableData ?? Data() }
        #expect(String(decoding: firstLine, as: UTF8.self) == "started\n")
        child.kill()
        #expect(await offPool { child.wait(timeout: 60) } == .signalled(SIGKILL))
        #expect(await Self.readAll(child) == "")
    }

    @Test func anExitHandlerRunsWhenItEndsOrAtOnceWhenItHasEnded() async throws {
        let child = try Self.shell("exit 7", output: .discarded)
        let seen = Mailbox<ChildProcess.Termination>()
        child.onExit { seen.put($0) }
        #expect(await seen.take() == .exited(7))
        // Registered after the end: called before onExit returns, on this thread.
        let late = Mailbox<ChildProcess.Termination>()
        child.onExit { late.put($0) }
        #expect(await late.take(timeout: .zero) == .exited(7))
    }

    @Test func aMissingExecutableIsAStartErrorNamingIt() {
        let error = #expect(throws: ChildProcess.StartError.self) {
            try ChildProcess("/no/such/program", [])
        }
        #expect(error?.code == ENOENT)
        #expect(error?.description == "cannot run /no/such/program (No such file or directory)")
    }
}
