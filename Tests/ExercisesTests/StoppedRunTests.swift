import Foundation
import Testing

@testable import Exercises

/// A test run stopped for its time is reported as stopped: the tests still running neither pass
/// nor fail, and the tests that never started are counted as not run, never as failures.
///
/// The fixture is a real event stream (`swift test --event-stream-version 0`), cut by a 20 s
/// timeout: `first()`, `aCase(_:)` over 0..<24 and `last()`, where cases 3 and 7 loop forever and
/// hold both threads, so `first()` and `last()` started but never ran.
struct StoppedRunTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/stopped-run.jsonl")

    static func run(stoppedAfter: Int?) throws -> TestRun {
        let data = try Data(contentsOf: fixture)
        return TestEventStream.parse(
            data, mapping: PathMapping(prefixes: [], modules: [:]), stoppedAfter: stoppedAfter)
    }

    @Test func aStoppedRunListsWhatRanWhatWasStillRunningAndWhatNeverStarted() throws {
        let run = try Self.run(stoppedAfter: 15)
        #expect(!run.finished)
        #expect(run.stoppedAfter == 15)
        #expect(run.results.map(\.fullName) == (0..<7).filter { $0 != 3 }.map { "aCase [\($0)]" })
        #expect(run.failed.isEmpty, "no test failed before the stop")
        #expect(
            run.stillRunning.map(\.name) == ["first", "aCase [3]", "aCase [7]", "last"],
            "declaration order, then case order")
        #expect(run.notRun.map(\.name) == (8..<24).map { "aCase [\($0)]" })
    }

    @Test func theSummarySaysStoppedNeverFail() throws {
        let exercise = Exercise(
            id: "09-loop", number: 9, slug: "loop", folder: URL(fileURLWithPath: "/nonexistent/09-loop"),
            title: "Loop", readmeText: "# Loop\n")
        let lines = ExerciseSession.testSummary(
            try Self.run(stoppedAfter: 15), exercise: exercise, showAll: false)
        #expect(
            lines == [
                "✘ stopped after 15 s: 4 tests still running (first, aCase [3], aCase [7], last), 16 not run",
                "  before the stop: 6 passed, 0 failed",
                "  a test still running after 15 s is usually an endless loop: start there",
                "",
            ])
    }

    /// Without a stop (the process crashed), the tests it cut short failed; the rest did not run.
    @Test func aCrashFailsTheTestsItCutShortAndCountsTheRestAsNotRun() throws {
        let run = try Self.run(stoppedAfter: nil)
        #expect(run.stoppedAfter == nil)
        #expect(run.failed.map(\.fullName) == ["first", "aCase [3]", "aCase [7]", "last"])
        #expect(run.notRun.count == 16)
        #expect(run.stillRunning.isEmpty)
    }

    @Test func theGradeReportSaysStopped() throws {
        let catalogExercise = Exercise(
            id: "09-loop", number: 9, slug: "loop", folder: URL(fileURLWithPath: "/nonexistent/09-loop"),
            title: "Loop", readmeText: "# Loop\n")
        let report = GradeReport(
            learnerFolder: "learner", generatedAt: Date(timeIntervalSince1970: 0),
            catalog: ExerciseCatalog(
                root: URL(fileURLWithPath: "/nonexistent"), exercises: [catalogExercise]),
            outcomes: ["09-loop": .tested(try Self.run(stoppedAfter: 15), log: "")])
        let only = try #require(report.exercises.first)
        #expect(only.status == "stopped")
        #expect(only.stillRunning == ["first", "aCase [3]", "aCase [7]", "last"])
        #expect(only.notRun.count == 16)
        #expect(report.markdown().contains("- stopped after 15 s: 4 still running, 16 not run"))
        #expect(report.summary.failed == 1)
    }
}
