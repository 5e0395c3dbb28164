import Foundation

/// What became of one exercise in a build-and-test run.
enum ExerciseOutcome: Sendable {
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
struct ExerciseBuilder {
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
    func run(_ members: [PackageMember]) throws -> [String: ExerciseOutcome] {
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

    /// Runs the already built tests once, optionally filtered, and reads the event stream.
    private func test(_ members: [PackageMember], filter: String?) -> (run: TestRun, log: String) {
        let events = package.directory.appendingPathComponent("events-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: events) }
        progress("testing \(describe(members))")
        var arguments = [
            "test", "--skip-build", "--disable-xctest", "--event-stream-output-path", events.path,
            "--event-stream-version", "0",
        ]
        if let filter { arguments += ["--filter", filter] }
        let result = swiftCommand(arguments, timeout: testTimeout)
        let mapping = package.pathMapping(members, root: root)
        var run = TestEventStream.parse(
            FileManager.default.contents(atPath: events.path) ?? Data(), mapping: mapping)
        if result.timedOut {
            run.finished = false
            run.results.append(
                TestResult(
                    module: members.count == 1 ? members[0].exercise.testModuleName : "",
                    name: "the tests", testCase: nil, passed: false,
                    issues: [
                        TestIssue(
                            location: nil,
                            message: "stopped after \(Int(testTimeout)) s: is there an endless loop?",
                            details: run.inFlight)
                    ]))
        } else if !run.finished, members.count == 1 {
            run.results.append(
                TestResult(
                    module: members[0].exercise.testModuleName, name: "the tests", testCase: nil,
                    passed: false,
                    issues: [
                        TestIssue(
                            location: nil, message: "the test process crashed",
                            details: Self.crashLines(result.output))
                    ]))
        }
        return (run, Self.tail(mapping.rewrite(result.output)))
    }

    private func swiftCommand(_ arguments: [String], timeout: TimeInterval) -> Subprocess.Result {
        Subprocess.run(
            swift,
            arguments + ["--package-path", package.directory.path, "--scratch-path", package.scratch.path],
            in: package.directory, environment: environment, timeout: timeout)
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

    /// What a crash printed: the runtime's `Fatal error` line and its neighbours.
    static func crashLines(_ output: String) -> [String] {
        let lines = output.split(separator: "\n").map(String.init)
        let markers = ["Fatal error", "Precondition failed", "Assertion failed", "Crash", "signal", "error:"]
        let interesting = lines.filter { line in markers.contains { line.contains($0) } }
        return Array((interesting.isEmpty ? lines : interesting).suffix(8))
    }
}
