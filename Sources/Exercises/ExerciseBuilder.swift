import Foundation
import ProcessRunner

/// What became of one exercise in a build-and-test run.
package enum ExerciseOutcome: Sendable {
    /// The exercise's code or its tests do not compile; the diagnostics name the learner's files.
    case doesNotCompile([CompilerDiagnostic], log: String)
    /// The tests ran (to the end, or until the run crashed or was killed).
    case tested(TestRun, log: String)
    /// Nothing could be run: the build timed out, or SwiftPM failed before compiling.
    case failedToRun(String)

    var testRun: TestRun? {
        if case .tested(let run, _) = self { return run }
        return nil
    }

    /// Whether every test ran and passed (and there was at least one).
    var allPassed: Bool {
        guard let run = testRun else { return false }
        return run.finished && !run.results.isEmpty && run.failed.isEmpty
    }
}

/// Builds a set of exercises as one generated package and runs their tests once, reading the
/// results per test module.
///
/// One build and one test process for many exercises is what keeps `verify` fast. When some
/// exercises do not compile, their diagnostics are attributed to them by path, they are dropped
/// and the rest is built again; when the test process crashes, the exercises without a complete
/// result are run again one at a time, so one crash cannot hide another exercise's results.
package struct ExerciseBuilder {
    var root: URL
    var package: GeneratedPackage
    var swift: String
    /// Passed to the tests: the exercises that talk to the mock server start `workbook serve`.
    var environment: [String: String]
    var buildTimeout: TimeInterval = 1800
    var testTimeout: TimeInterval
    /// Progress for a person watching a terminal; ignored elsewhere.
    var progress: (String) -> Void = { _ in }

    /// Builds and tests `members`, one result per exercise id. Two runs on the same generated
    /// package (a `watch` and a `check` in another terminal) take turns: each rewrites the
    /// package's links.
    package func run(_ members: [PackageMember]) throws -> [String: ExerciseOutcome] {
        try FileManager.default.createDirectory(at: package.directory, withIntermediateDirectories: true)
        let lockPath = package.directory.appendingPathComponent(".lock").path
        let descriptor = open(lockPath, O_CREAT | O_RDWR, 0o644)
        if descriptor >= 0 { _ = flock(descriptor, LOCK_EX) }
        defer { if descriptor >= 0 { close(descriptor) } }
        return try runLocked(members)
    }

    private func runLocked(_ members: [PackageMember]) throws -> [String: ExerciseOutcome] {
        var outcomes: [String: ExerciseOutcome] = [:]
        var remaining = members
        while !remaining.isEmpty {
            try package.prepare(remaining)
            progress("building \(describe(remaining))")
            let build = swiftCommand(["build", "--build-tests"], timeout: buildTimeout)
            if build.status == 0 { break }
            let mapping = package.pathMapping(remaining, root: root)
            if build.timedOut {
                for member in remaining {
                    outcomes[member.exercise.id] = .failedToRun(
                        "the build took longer than \(Int(buildTimeout)) s")
                }
                return outcomes
            }
            let errors = CompilerOutput.diagnostics(in: build.output).filter { $0.severity == "error" }
            var byExercise: [String: [CompilerDiagnostic]] = [:]
            for error in errors {
                guard let owner = owner(of: error.path, among: remaining) else { continue }
                var shown = error
                shown.path = mapping.display(path: error.path)
                shown.excerpt = shown.excerpt.map(mapping.rewrite)
                byExercise[owner.exercise.id, default: []].append(shown)
            }
            if byExercise.isEmpty {
                // Nothing points at an exercise (a linker error, a broken DeepLinkCore): with one
                // exercise left it is that one's; with more, build each alone to find out.
                if remaining.count == 1 {
                    outcomes[remaining[0].exercise.id] = .doesNotCompile(
                        errors.map {
                            var e = $0
                            e.path = mapping.display(path: e.path)
                            return e
                        },
                        log: Self.tail(mapping.rewrite(build.output)))
                    return outcomes
                }
                for member in remaining {
                    outcomes.merge(try runLocked([member])) { _, new in new }
                }
                return outcomes
            }
            for (id, diagnostics) in byExercise {
                outcomes[id] = .doesNotCompile(diagnostics, log: Self.tail(mapping.rewrite(build.output)))
            }
            remaining.removeAll { byExercise[$0.exercise.id] != nil }
        }
        guard !remaining.isEmpty else { return outcomes }
        let tested = test(remaining, filter: nil)
        for member in remaining {
            let run = tested.run.only(module: member.exercise.testModuleName)
            if tested.run.finished || remaining.count == 1 {
                outcomes[member.exercise.id] = .tested(run, log: tested.log)
            }
        }
        let unfinished = remaining.filter { outcomes[$0.exercise.id] == nil }
        for member in unfinished {
            // The shared run crashed: run each exercise alone, so the crash stays with its owner.
            let alone = test([member], filter: "^\(member.exercise.testModuleName)\\.")
            outcomes[member.exercise.id] = .tested(
                alone.run.only(module: member.exercise.testModuleName), log: alone.log)
        }
        return outcomes
    }

    /// Runs the already built tests once, optionally filtered, and reads the event stream. When a
    /// single exercise's run crashes, it is run once more with one test at a time, so that the
    /// test that crashed is the one marked, and the crash message goes with it.
    private func test(_ members: [PackageMember], filter: String?, serial: Bool = false) -> (
        run: TestRun, log: String
    ) {
        let events = package.directory.appendingPathComponent("events-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: events) }
        progress("testing \(describe(members))")
        var arguments = [
            "test", "--skip-build", "--disable-xctest", "--event-stream-output-path", events.path,
            "--event-stream-version", "0",
        ]
        if let filter { arguments += ["--filter", filter] }
        if serial { arguments.append("--no-parallel") }
        // A crash should end the run at once: the runtime's backtrace takes seconds and says
        // nothing a learner needs.
        let result = swiftCommand(
            arguments, timeout: testTimeout, extraEnvironment: ["SWIFT_BACKTRACE": "enable=no"])
        let mapping = package.pathMapping(members, root: root)
        let data = FileManager.default.contents(atPath: events.path) ?? Data()
        let log = Self.tail(mapping.rewrite(result.output))
        if result.timedOut {
            var run = TestEventStream.parse(data, mapping: mapping, stoppedAfter: Int(testTimeout.rounded()))
            run.finished = false
            run.stoppedAfter = Int(testTimeout.rounded())
            return (run, log)
        }
        let crash = Self.crashLines(result.output, mapping: mapping)
        var run = TestEventStream.parse(
            data, mapping: mapping, interruption: "the test process crashed during this test", details: crash)
        if !run.finished, members.count == 1, !serial {
            return test(members, filter: filter, serial: true)
        }
        if !run.finished, run.inFlight.isEmpty {
            run.results.append(
                TestResult(
                    module: members.count == 1 ? members[0].exercise.testModuleName : "",
                    name: "the test process",
                    testCase: nil, passed: false,
                    issues: [TestIssue(location: nil, message: "crashed outside any test", details: crash)]))
        }
        return (run, log)
    }

    private func swiftCommand(
        _ arguments: [String], timeout: TimeInterval, extraEnvironment: [String: String] = [:]
    ) -> Subprocess.Result {
        Subprocess.run(
            swift,
            arguments + ["--package-path", package.directory.path, "--scratch-path", package.scratch.path],
            in: package.directory, environment: environment.merging(extraEnvironment) { _, new in new },
            timeout: timeout)
    }

    private func owner(of path: String, among members: [PackageMember]) -> PackageMember? {
        let bases = [package.directory.path, package.directory.resolvingSymlinksInPath().path]
        return members.first { member in
            bases.contains { base in
                path.hasPrefix("\(base)/Sources/\(member.exercise.moduleName)/")
                    || path.hasPrefix("\(base)/Tests/\(member.exercise.testModuleName)/")
            }
        }
    }

    private func describe(_ members: [PackageMember]) -> String {
        members.count == 1 ? members[0].exercise.id : "\(members.count) exercises"
    }

    /// The last lines of a log, without Swift Testing's own progress lines.
    static func tail(_ output: String, lines count: Int = 40) -> String {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.suffix(count).joined(separator: "\n")
    }

    /// What a crash printed: the runtime's `Fatal error` line (its `Module/File.swift:LINE` turned
    /// into the learner's path) and its neighbours.
    static func crashLines(_ output: String, mapping: PathMapping) -> [String] {
        let markers = [
            "Fatal error", "Precondition failed", "Assertion failed", "Program crashed",
            "Illegal instruction",
            "Segmentation fault",
        ]
        let lines = output.split(separator: "\n").map(String.init).filter { line in
            markers.contains { line.contains($0) }
        }
        return lines.suffix(4).map { line in
            guard let colon = line.range(of: ".swift:") else { return line }
            let fileID = String(line[..<colon.lowerBound]) + ".swift"
            return mapping.display(fileID: fileID) + line[colon.lowerBound...].dropFirst(".swift".count)
        }
    }
}
