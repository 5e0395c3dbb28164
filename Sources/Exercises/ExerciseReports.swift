import Foundation

/// One row of `workbook exercises verify`: the five things every exercise must prove.
package struct VerifyRow: Sendable {
    package var exercise: Exercise
    var starter: ExerciseOutcome
    var solution: ExerciseOutcome
    var hintCount: Int
    var todoCount: Int
    /// Tests that do not say where the chapter explains their rule (see ``TestReadings``).
    var readingProblems: [String] = []

    package init(
        exercise: Exercise, starter: ExerciseOutcome, solution: ExerciseOutcome, hintCount: Int,
        todoCount: Int,
        readingProblems: [String] = []
    ) {
        (self.exercise, self.starter, self.solution, self.hintCount, self.todoCount, self.readingProblems) = (
            exercise, starter, solution, hintCount, todoCount, readingProblems
        )
    }

    var starterCompiles: Bool { starter.testRun != nil }
    /// A starter must fail at least one test, or the exercise can be passed by doing nothing.
    var starterFails: Bool { starter.testRun.map { !$0.failed.isEmpty || !$0.finished } ?? false }
    var solutionPasses: Bool { solution.allPassed }
    /// Two or three progressive hints, in `HINTS.md`, and none in the README where the task is.
    var hasHints: Bool { hintCount >= 2 && exercise.hintsInReadme == 0 }
    var hasTodos: Bool { todoCount > 0 }
    /// Every test names the chapter section that explains its rule.
    var hasReadings: Bool { readingProblems.isEmpty }
    package var isSound: Bool {
        starterCompiles && starterFails && solutionPasses && hasHints && hasTodos && hasReadings
    }

    /// One sentence per broken promise, naming what to fix.
    package var problems: [String] {
        var problems: [String] = []
        if let problem = Self.buildProblem(starter, part: "starter") {
            problems.append(problem)
        } else if let run = starter.testRun {
            if run.results.isEmpty { problems.append("the starter ran no test: is Tests/ empty?") }
            if !starterFails, !run.results.isEmpty {
                problems.append(
                    "the starter passes every test: it must fail at least one, or doing nothing passes")
            }
        }
        if let problem = Self.buildProblem(solution, part: "solution") {
            problems.append(problem)
        } else if let run = solution.testRun {
            if run.results.isEmpty { problems.append("the solution ran no test") }
            for result in run.failed.prefix(3) {
                let why = result.issues.first.map { ": \($0.message)" } ?? ""
                problems.append("the solution fails \(result.fullName)\(why)")
            }
            if run.failed.count > 3 { problems.append("… and \(run.failed.count - 3) more failing tests") }
            if !run.finished, run.failed.isEmpty { problems.append("the solution's test run did not finish") }
        }
        if hintCount < 2 {
            problems.append(
                "HINTS.md has \(hintCount) hint\(hintCount == 1 ? "" : "s"); it needs two or three")
        }
        if exercise.hintsInReadme > 0 {
            problems.append(
                "README.md shows \(exercise.hintsInReadme) hint\(exercise.hintsInReadme == 1 ? "" : "s") beside "
                    + "the task: move them to HINTS.md, where reading the task does not give them away")
        }
        problems += readingProblems
        if !hasTodos {
            problems.append("Starter/ has no '// TODO' marker to show the learner where to start")
        }
        return problems
    }

    /// Why the starter or the solution (`part`) could not be tested, or nil when its tests ran.
    private static func buildProblem(_ outcome: ExerciseOutcome, part: String) -> String? {
        switch outcome {
        case .doesNotCompile(let diagnostics, let log):
            let first = diagnostics.first?.headline ?? ExerciseBuilder.tail(log, lines: 3)
            return "the \(part) does not compile: \(first)"
        case .failedToRun(let reason):
            return "the \(part) could not be built: \(reason)"
        case .tested:
            return nil
        }
    }

    /// `27 of 28 fail`, `does not compile`.
    static func counts(_ outcome: ExerciseOutcome, failing: Bool) -> String {
        switch outcome {
        case .doesNotCompile: return "does not compile"
        case .failedToRun: return "not run"
        case .tested(let run, _):
            if let seconds = run.stoppedAfter { return "stopped after \(seconds) s" }
            let count = failing ? run.failed.count : run.passed.count
            return "\(count) of \(run.results.count) \(failing ? "fail" : "pass")"
        }
    }

    /// Counts `// TODO` markers in the starter's Swift files.
    package static func todoCount(in folder: URL) -> Int {
        GeneratedPackage.swiftFiles(in: folder).reduce(0) { count, file in
            let text =
                FileManager.default.contents(atPath: file.path).map { String(decoding: $0, as: UTF8.self) }
                ?? ""
            return count + text.components(separatedBy: "// TODO").count - 1
        }
    }
}

/// Renders the verify table: one line per exercise, `ok` or `NO` in each column.
package enum VerifyTable {
    package static func render(_ rows: [VerifyRow]) -> [String] {
        let header = [
            "exercise", "starter builds", "starter fails", "solution passes", "hints", "TODOs", "readings",
        ]
        var table = [header]
        for row in rows {
            table.append([
                row.exercise.id,
                row.starterCompiles ? "ok" : "NO",
                (row.starterFails ? "ok " : "NO ") + "(\(VerifyRow.counts(row.starter, failing: true)))",
                (row.solutionPasses ? "ok " : "NO ") + "(\(VerifyRow.counts(row.solution, failing: false)))",
                (row.hasHints ? "ok " : "NO ") + "(\(row.hintCount))",
                (row.hasTodos ? "ok " : "NO ") + "(\(row.todoCount))",
                row.hasReadings ? "ok" : "NO (\(row.readingProblems.count))",
            ])
        }
        let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        return table.map { cells in
            zip(cells, widths).map { cell, width in cell.padding(toLength: width, withPad: " ", startingAt: 0)
            }
            .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
    }
}

/// A report `workbook exercises grade` writes as JSON (`report.json`, `class.json`).
package protocol JSONReport: Encodable {}

extension JSONReport {
    /// The report as a file holds it: pretty-printed, keys sorted, slashes as they are, and a
    /// final line break.
    package func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(UInt8(ascii: "\n"))
        return data
    }
}

/// The report `workbook exercises grade` writes, as JSON (`report.json`) and Markdown (`report.md`).
package struct GradeReport: Codable, Sendable, JSONReport {
    package struct Summary: Codable, Sendable {
        package var exercises: Int
        package var passed: Int
        var failed: Int
        var doesNotCompile: Int
        var notAttempted: Int
    }

    package struct ExerciseReport: Codable, Sendable {
        package var id: String
        var number: Int
        var title: String
        /// `passed`, `failed`, `stopped` (the tests ran out of time), `does-not-compile`,
        /// `not-attempted` or `not-run`.
        package var status: String
        package var passedTests: Int
        var failedTests: Int
        package var tests: [TestResult]
        /// For a stopped run: after how many seconds, the tests still running, and those never
        /// started (a crash also leaves tests not run).
        var stoppedAfterSeconds: Int?
        var stillRunning: [String] = []
        var notRun: [String] = []
        var compilerErrors: [CompilerDiagnostic]
        /// The end of the build or test log when something went wrong in an unusual way.
        var log: String?
    }

    var learnerFolder: String
    var generatedAt: String
    package var summary: Summary
    package var exercises: [ExerciseReport]

    package init(
        learnerFolder: String, generatedAt: Date, catalog: ExerciseCatalog,
        outcomes: [String: ExerciseOutcome]
    ) {
        self.learnerFolder = learnerFolder
        self.generatedAt = ISO8601DateFormatter().string(from: generatedAt)
        var reports: [ExerciseReport] = []
        for exercise in catalog.exercises {
            var report = ExerciseReport(
                id: exercise.id, number: exercise.number, title: exercise.title, status: "not-attempted",
                passedTests: 0, failedTests: 0, tests: [], stoppedAfterSeconds: nil, compilerErrors: [],
                log: nil)
            switch outcomes[exercise.id] {
            case nil:
                break
            case .doesNotCompile(let diagnostics, let log)?:
                report.status = "does-not-compile"
                report.compilerErrors = diagnostics
                if diagnostics.isEmpty { report.log = log }
            case .failedToRun(let reason)?:
                report.status = "not-run"
                report.log = reason
            case .tested(let run, let log)?:
                let passed = run.finished && !run.results.isEmpty && run.failed.isEmpty
                report.status = passed ? "passed" : run.stoppedAfter != nil ? "stopped" : "failed"
                report.tests = run.results
                report.passedTests = run.passed.count
                report.failedTests = run.failed.count
                report.stoppedAfterSeconds = run.stoppedAfter
                report.stillRunning = run.stillRunning.map(\.name)
                report.notRun = run.notRun.map(\.name)
                if !run.finished { report.log = log }
            }
            reports.append(report)
        }
        exercises = reports
        summary = Summary(
            exercises: reports.count, passed: reports.filter { $0.status == "passed" }.count,
            failed: reports.filter { ["failed", "stopped", "not-run"].contains($0.status) }.count,
            doesNotCompile: reports.filter { $0.status == "does-not-compile" }.count,
            notAttempted: reports.filter { $0.status == "not-attempted" }.count)
    }

    package func markdown() -> String {
        var lines = [
            "# Exercise report", "",
            "Learner folder: `\(learnerFolder)`, graded \(generatedAt).", "",
            "\(summary.passed) of \(summary.exercises) exercises pass; \(summary.failed) fail, "
                + "\(summary.doesNotCompile) do not compile, \(summary.notAttempted) were not attempted.", "",
            "| # | Exercise | Result | Tests passed |", "| --- | --- | --- | --- |",
        ]
        for exercise in exercises {
            let tests = exercise.tests.isEmpty ? "" : "\(exercise.passedTests) of \(exercise.tests.count)"
            lines.append(
                "| \(exercise.number) | \(markdownLine(exercise.title)) | \(exercise.status.replacingOccurrences(of: "-", with: " ")) | \(tests) |"
            )
        }
        for exercise in exercises where exercise.status != "not-attempted" {
            lines += [
                "",
                "## \(exercise.number). \(markdownLine(exercise.title)): \(exercise.status.replacingOccurrences(of: "-", with: " "))",
                "",
            ]
            for error in exercise.compilerErrors {
                lines.append("- `\(error.headline)`")
            }
            if let seconds = exercise.stoppedAfterSeconds {
                lines.append(
                    "- stopped after \(seconds) s: \(exercise.stillRunning.count) still running, "
                        + "\(exercise.notRun.count) not run")
            }
            for name in exercise.stillRunning { lines.append("- … `\(name)` (still running at the stop)") }
            for test in exercise.tests {
                lines.append("- \(test.passed ? "✔" : "✘") `\(test.fullName)`")
                for issue in test.issues {
                    let place = issue.location.map { "`\($0)`: " } ?? ""
                    lines.append("  - \(place)\(markdownLine(issue.message))")
                    for detail in issue.details { lines.append("    - \(markdownLine(detail))") }
                }
            }
            if !exercise.notRun.isEmpty {
                lines.append("- not run: " + exercise.notRun.map { "`\($0)`" }.joined(separator: ", "))
            }
            if let log = exercise.log, !log.isEmpty {
                lines += ["", "```text", log, "```"]
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `text` kept to one line of a Markdown table cell or list item, with `|` and `<` stopped from
/// becoming Markdown: the reports quote learners' names and test output in both.
func markdownLine(_ text: String) -> String {
    text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "|", with: "\\|")
        .replacingOccurrences(of: "<", with: "&lt;")
}
