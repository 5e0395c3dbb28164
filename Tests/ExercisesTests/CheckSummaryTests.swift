import Foundation
import Testing

@testable import Exercises

/// A check shows the first eight failures in full and names the rest; with `--all` it shows every
/// one, as the exercises README says
/// (source: "this book: an exercise check shows eight failures in full, and --all every one").
struct CheckSummaryTests {
    static let exercise = Exercise(
        id: "05-many", number: 5, slug: "many", folder: URL(fileURLWithPath: "/nonexistent/05-many"),
        title: "Many", readmeText: "# Many\n")

    static func run(failing: Int) -> TestRun {
        let results = (1...failing).map { index in
            TestResult(
                module: "ManyTests", name: "case\(index)", testCase: nil, passed: false,
                issues: [
                    TestIssue(location: "Tests/ManyTests.swift:\(index)", message: "failed", details: [])
                ])
        }
        return TestRun(results: results, finished: true, inFlight: [])
    }

    @Test func theFirstEightAreShownAndTheRestNamedWithTheWayToSeeThem() {
        let lines = ExerciseSession.testSummary(
            Self.run(failing: 10), exercise: Self.exercise, showAll: false)
        #expect(lines.filter { $0.hasPrefix("✘ case") }.count == 8)
        #expect(
            lines.contains(
                "… and 2 more ('workbook exercises check 5 --all' shows them): case9, case10"))
    }

    @Test func allShowsEveryFailureInFull() {
        let lines = ExerciseSession.testSummary(Self.run(failing: 10), exercise: Self.exercise, showAll: true)
        #expect(lines.filter { $0.hasPrefix("✘ case") } == (1...10).map { "✘ case\($0)" })
        #expect(!lines.contains { $0.hasPrefix("… and") })
    }
}
