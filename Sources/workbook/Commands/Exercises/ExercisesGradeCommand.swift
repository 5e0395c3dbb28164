import CommandLineKit
import Exercises
import Foundation
import LiterateCLI

extension ExercisesCommands {
    static let grade = Command(
        CommandSpec(
            name: "grade",
            abstract: "Grade a learner's exercise folder and write a Markdown and a JSON report.",
            discussion: """
                DIR has the layout of exercises/: DIR/NN-slug/Work/ for each exercise attempted (a
                learner's whole repository works too). Each Work/ folder is built with this
                repository's tests, never the learner's, and nothing in DIR is written. The report
                goes to --out (default: .build/exercises/reports/NAME, NAME being DIR's name) as
                report.md and report.json: per exercise, the status and every test with its
                messages. Exit status 0 when the report is written, whatever the grades.
                """,
            arguments: [ArgumentSpec("dir", help: "The learner's exercises folder (or repository).")],
            options: [
                bookOption, ExerciseSession.buildPathOption, testTimeoutOption,
                OptionSpec("out", value: "DIR", help: "Where to write report.md and report.json."),
            ])
    ) { arguments, console in
        let session = try ExerciseSession.open(arguments, console: console)
        let currentDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        var learner = URL(fileURLWithPath: arguments[0] ?? ".", relativeTo: currentDirectory)
            .standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: learner.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw CommandError.badInput(ExerciseError.missingFolder(learner.path).description)
        }
        let nested = learner.appendingPathComponent("exercises")
        if FileManager.default.fileExists(atPath: nested.path) { learner = nested }
        let members = session.catalog.exercises.compactMap { exercise -> PackageMember? in
            let work = learner.appendingPathComponent("\(exercise.id)/Work")
            guard !GeneratedPackage.swiftFiles(in: work).isEmpty else { return nil }
            return PackageMember(exercise: exercise, sources: work)
        }
        let outcomes =
            members.isEmpty
            ? [:]
            : try session.builder(package: "grade", testTimeout: testTimeout(arguments, command: "grade"))
                .run(members)
        let report = GradeReport(
            learnerFolder: learner.path, generatedAt: Date(), catalog: session.catalog, outcomes: outcomes)
        let name =
            learner.lastPathComponent == "exercises"
            ? learner.deletingLastPathComponent().lastPathComponent : learner.lastPathComponent
        let out =
            arguments.value("out").map {
                URL(fileURLWithPath: $0, relativeTo: currentDirectory).standardizedFileURL
            } ?? session.buildRoot.appendingPathComponent("reports/\(name)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data(report.markdown().utf8).write(to: out.appendingPathComponent("report.md"), options: .atomic)
        try report.json().write(to: out.appendingPathComponent("report.json"), options: .atomic)
        for exercise in report.exercises {
            let tests =
                exercise.tests.isEmpty
                ? "" : " (\(exercise.passedTests) of \(exercise.tests.count) tests pass)"
            console.print(
                "\(exercise.id): \(exercise.status.replacingOccurrences(of: "-", with: " "))\(tests)")
        }
        let summary = report.summary
        console.print("")
        console.print("grade: \(summary.passed) of \(summary.exercises) exercises pass")
        console.print("wrote \(session.display(out.appendingPathComponent("report.md")))")
        console.print("wrote \(session.display(out.appendingPathComponent("report.json")))")
        return .success
    }
}
