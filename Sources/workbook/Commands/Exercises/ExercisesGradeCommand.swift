import CommandLineKit
import Exercises
import Foundation
import LiterateCLI

extension ExercisesCommands {
    static let grade = Command(
        CommandSpec(
            name: "grade",
            abstract: "Grade learners' exercise folders: a report each, and a class table for several.",
            discussion: """
                Each DIR has the layout of exercises/: DIR/NN-slug/Work/ for each exercise attempted
                (a learner's whole repository works too). Each Work/ folder is built with this
                repository's tests, never the learner's, and nothing in DIR is written.

                One DIR: the report goes to --out (default: .build/exercises/reports/NAME, NAME
                being DIR's name) as report.md and report.json: per exercise, the status and every
                test with its messages.

                Several DIRs, or --class DIR (a folder holding one folder per learner): --out
                (default: .build/exercises/reports/class) receives class.md, class.json and
                class.csv, a row per learner and a column per exercise (passed; failed, with its
                failing tests; not attempted), the hints each learner revealed (from their
                .exercises-state.json) and the totals per exercise; and LEARNER/report.md and
                report.json for each. LEARNER is the folder's name, with its parent's name in
                front when two folders share one. A folder that cannot be graded is a row that
                says why.

                Exit status 0 when the reports are written, whatever the grades.
                """,
            arguments: [
                ArgumentSpec(
                    "dir", optional: true, variadic: true,
                    help: "A learner's exercises folder (or repository); several make a class.")
            ],
            options: [
                bookOption, ExerciseSession.buildPathOption, testTimeoutOption,
                OptionSpec("class", value: "DIR", help: "Grade every folder in DIR, one learner each."),
                OptionSpec("out", value: "DIR", help: "Where to write the reports."),
            ])
    ) { arguments, console in
        let session = try ExerciseSession.open(arguments, console: console)
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        func resolve(_ path: String) -> URL {
            URL(fileURLWithPath: path, relativeTo: here).standardizedFileURL
        }
        var folders = arguments.positionals.map(resolve)
        if let classFolder = arguments.value("class").map(resolve) {
            folders += try learnerFolders(in: classFolder)
        }
        let timeout = try testTimeout(arguments, command: "grade")
        let out = arguments.value("out").map(resolve)
        if folders.count <= 1, arguments.value("class") == nil {
            return try gradeOne(
                folders.first ?? here, session: session, timeout: timeout, out: out, console: console)
        }
        return try gradeClass(folders, session: session, timeout: timeout, out: out, console: console)
    }

    /// The folders of a class folder, one per learner, by name; hidden ones skipped.
    private static func learnerFolders(in folder: URL) throws -> [URL] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            throw CommandError.badInput(ExerciseError.missingFolder(folder.path).description)
        }
        return names.sorted().filter { !$0.hasPrefix(".") }.map { folder.appendingPathComponent($0) }.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0.path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
    }

    private static func gradeOne(
        _ folder: URL, session: ExerciseSession, timeout: TimeInterval, out: URL?, console: Console
    ) throws -> ExitCode {
        let report = try session.grade(folder, testTimeout: timeout)
        let name = ClassReport.uniqueNames([folder])[0]
        let destination = out ?? session.buildRoot.appendingPathComponent("reports/\(name)")
        try write(report, to: destination)
        for exercise in report.exercises {
            let tests =
                exercise.tests.isEmpty
                ? "" : " (\(exercise.passedTests) of \(exercise.tests.count) tests pass)"
            console.print(
                "\(exercise.id): \(exercise.status.replacingOccurrences(of: "-", with: " "))\(tests)")
        }
        console.print("")
        console.print("grade: \(report.summary.passed) of \(report.summary.exercises) exercises pass")
        console.print("wrote \(session.display(destination.appendingPathComponent("report.md")))")
        console.print("wrote \(session.display(destination.appendingPathComponent("report.json")))")
        return .success
    }

    private static func gradeClass(
        _ folders: [URL], session: ExerciseSession, timeout: TimeInterval, out: URL?, console: Console
    ) throws -> ExitCode {
        let destination = out ?? session.buildRoot.appendingPathComponent("reports/class")
        let names = ClassReport.uniqueNames(folders)
        var learners: [ClassReport.Learner] = []
        for (folder, name) in zip(folders, names) {
            var learner = ClassReport.Learner(name: name, folder: folder.path)
            (learner.hintsShown, learner.progressProblem) = session.hintsShown(by: folder)
            do {
                let report = try session.grade(folder, testTimeout: timeout)
                try write(report, to: destination.appendingPathComponent(name))
                learner.report = report
                console.print(
                    "\(name): \(report.summary.passed) of \(report.summary.exercises) exercises pass")
            } catch let error as CommandError {
                if case .badInput(let message) = error {
                    learner.problem = message
                } else {
                    learner.problem = "\(error)"
                }
                console.print("\(name): not graded: \(learner.problem ?? "")")
            } catch {
                learner.problem = "\(error)"
                console.print("\(name): not graded: \(learner.problem ?? "")")
            }
            learners.append(learner)
        }
        let report = ClassReport(generatedAt: Date(), catalog: session.catalog, learners: learners)
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        try Data(report.markdown().utf8).write(
            to: destination.appendingPathComponent("class.md"), options: .atomic)
        try report.json().write(to: destination.appendingPathComponent("class.json"), options: .atomic)
        try Data(report.csv().utf8).write(
            to: destination.appendingPathComponent("class.csv"), options: .atomic)
        console.print("")
        console.print(
            "grade: \(learners.count) learners, \(learners.filter { $0.report == nil }.count) not graded")
        for file in ["class.md", "class.json", "class.csv"] {
            console.print("wrote \(session.display(destination.appendingPathComponent(file)))")
        }
        return .success
    }

    private static func write(_ report: GradeReport, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(report.markdown().utf8).write(
            to: folder.appendingPathComponent("report.md"), options: .atomic)
        try report.json().write(to: folder.appendingPathComponent("report.json"), options: .atomic)
    }
}
