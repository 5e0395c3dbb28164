import Foundation
import ProcessRunner
import TestSupport
import Testing

/// The package's one way to run a child process to completion
/// (source: "this book: chapter 25, Starting the server").
struct SubprocessTests {
    static func shell(
        _ script: String, timeout: TimeInterval = 60, separateErrors: Bool = false, outputLimit: Int = .max,
        stopsLeftovers: Bool = false
    ) -> Subprocess.Result {
        Subprocess.run(
            "/bin/sh", ["-c", script], timeout: timeout, separateErrors: separateErrors,
            outputLimit: outputLimit,
            stopsOnInterrupt: false, stopsLeftovers: stopsLeftovers)
    }

    @Test func outputAndErrorsInterleaveUnlessAskedApart() {
        var together = Self.shell("echo out; echo err >&2; exit 3")
        together.seconds = 0
        #expect(together == Subprocess.Result(status: 3, output: "out\nerr\n", timedOut: false, seconds: 0))
        var apart = Self.shell("echo out; echo err >&2", separateErrors: true)
        apart.seconds = 0
        #expect(
            apart
                == Subprocess.Result(status: 0, output: "out\n", errors: "err\n", timedOut: false, seconds: 0)
        )
    }

    @Test func runsInTheFolderWithTheEnvironmentAdded() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "subprocess-\(UUID().uuidString)"
        )
        .resolvingSymlinksInPath()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = Subprocess.run(
            "/bin/sh", ["-c", "pwd; echo \"$WORKBOOK_TEST_VALUE\"; test -n \"$PATH\" && echo path"],
            in: folder,
            environment: ["WORKBOOK_TEST_VALUE": "added"], timeout: 60, stopsOnInterrupt: false)
        #expect(result.output == "\(folder.path)\nadded\npath\n")
    }

    /// The child never ends on its own; the deadline stops it and what it started.
    @Test func aChildPastItsDeadlineIsStoppedWithWhatItStarted() async {
        let result = Self.shell("tail -f /dev/null & echo $!; wait", timeout: 0.5)
        #expect(result.timedOut)
        #expect(result.status == -1)
        let pid = Int32(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(pid > 0)
        // Signal 0 tests for existence: the job is gone, or a zombie waiting to be reaped.
        #expect(await eventually { kill(pid, 0) != 0 || Self.isZombie(pid) })
    }

    @Test func whatIsReadBackIsCapped() {
        let result = Self.shell("printf 'abcdefghij'", outputLimit: 4)
        #expect(result.output == "abcd")
    }

    /// A background job outlives its shell unless the run stops leftovers; with it, the job's
    /// process group is killed, so its pipe reaches end of file at once.
    @Test func leftoversOfTheProcessGroupAreStoppedWhenAsked() async {
        let result = Self.shell("tail -f /dev/null & echo $!", stopsLeftovers: true)
        let pid = Int32(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(pid > 0)
        // Signal 0 tests for existence: the job is gone, or a zombie waiting to be reaped (the
        // kill is sent at once; the job dies when the system next schedules it).
        #expect(await eventually { kill(pid, 0) != 0 || Self.isZombie(pid) })
    }

    /// A descriptor the parent holds (here a pipe's two ends, inheritable) does not reach the
    /// child: inherited, it would keep that pipe open for as long as the child runs.
    @Test func theChildInheritsOnlyItsStandardDescriptors() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        let result = Self.shell("ls /proc/$$/fd")
        let open = Set(result.output.split(separator: "\n").compactMap { Int32($0) })
        #expect(open.isSuperset(of: [0, 1, 2]))
        #expect(open.isDisjoint(with: ends), "inherited: \(open.sorted())")
    }

    @Test func aMissingExecutableIsStatus127WithTheReason() {
        let result = Subprocess.run("/nonexistent/tool", [], timeout: 5, stopsOnInterrupt: false)
        #expect(result.status == 127)
        #expect(result.output == "cannot run /nonexistent/tool: No such file or directory")
        #expect(!result.timedOut)
    }

    static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(close, offsetBy: 2)] == "Z"
    }
}
