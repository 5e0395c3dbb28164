import CommandLineKit
import Foundation
import LiterateCLI

/// `workbook exercises`: the new hire's practice loop (`list`, `next`, `check`, `hint`, `watch`,
/// `reset`) and the instructor's proofs (`verify`, `grade`).
let exercisesCommand = Command(
    CommandSpec(
        name: "exercises",
        abstract:
            "Practise what the chapters teach: list, check, hint, watch; verify and grade for instructors.",
        discussion: """
            Each exercise is a folder exercises/NN-slug/ with a README (the task and its hints), a
            starter, a reference solution and tests. You work in exercises/NN-slug/Work/, a copy of
            the starter that git ignores, created the first time you check it. Progress is kept in
            .exercises-state.json at the repository root.

            Start with 'workbook exercises list', read the README of the current exercise, edit
            its Work/ folder, and run 'workbook exercises check' (or 'watch') until it passes.
            """),
    subcommands: [
        ExercisesCommands.list, ExercisesCommands.next, ExercisesCommands.check, ExercisesCommands.hint,
        ExercisesCommands.watch, ExercisesCommands.reset, ExercisesCommands.verify, ExercisesCommands.grade,
    ])

/// The subcommands of `workbook exercises`, one value each.
enum ExercisesCommands {
    static let testTimeoutOption = OptionSpec(
        "test-timeout", value: "SECONDS", help: "Stop a test run that takes longer (default: 120).")

    static func testTimeout(_ arguments: ParsedArguments, command: String) throws -> TimeInterval {
        try seconds(arguments, "test-timeout", default: 120, command: command)
    }

    static func seconds(
        _ arguments: ParsedArguments, _ name: String, default value: TimeInterval, command: String
    ) throws -> TimeInterval {
        guard let text = arguments.value(name) else { return value }
        guard let seconds = TimeInterval(text), seconds > 0 else {
            throw CommandError.usage(
                "--\(name) needs a positive number of seconds", command: ["workbook", "exercises", command])
        }
        return seconds
    }

    // MARK: list

    static let list = Command(
        CommandSpec(
            name: "list",
            abstract: "List the exercises with your progress: done, current, to do.",
            options: [bookOption])
    ) { arguments, console in
        let session = try ExerciseSession.open(arguments, console: console)
        let progress = try session.loadProgress()
        let exercises = session.catalog.exercises
        let current = progress.currentExercise(in: session.catalog)
        let doneCount = exercises.filter(progress.isDone).count
        console.print("Exercises: \(doneCount) of \(exercises.count) done")
        console.print("")
        let width = exercises.map(\.numberText.count).max() ?? 2
        console.print(
            "  " + "#".padding(toLength: width, withPad: " ", startingAt: 0) + "  status   exercise")
        for exercise in exercises {
            let status = progress.isDone(exercise) ? "done" : exercise == current ? "current" : "to do"
            let number = exercise.numberText.padding(toLength: width, withPad: " ", startingAt: 0)
            console.print(
                "  \(number)  \(status.padding(toLength: 7, withPad: " ", startingAt: 0))  \(exercise.title)")
        }
        console.print("")
        if let current {
            console.print(
                "Current: \(current.numberText) \(current.title). Read \(session.display(current.readme)), "
                    + "then run 'workbook exercises check \(current.number)'.")
        } else if !exercises.isEmpty {
            console.print("Every exercise is done. 'workbook exercises reset N' starts one again.")
        }
        return .success
    }

    // MARK: next

    static let next = Command(
        CommandSpec(
            name: "next",
            abstract: "Show the exercise to work on now, and prepare its Work/ folder.",
            discussion: """
                Prints the current exercise's task and where to work. When the current exercise is
                done, moves on to the next one not done. --skip moves on even when it is not done.
                """,
            options: [
                bookOption,
                OptionSpec("skip", help: "Move on to the next exercise not done, even if this one is not."),
            ])
    ) { arguments, console in
        let session = try ExerciseSession.open(arguments, console: console)
        var progress = try session.loadProgress()
        var exercise = progress.currentExercise(in: session.catalog)
        if let current = exercise, progress.isDone(current) || arguments.flag("skip") {
            exercise = progress.nextToDo(after: current, in: session.catalog)
        }
        guard let exercise else {
            console.print("Every exercise is done. 'workbook exercises reset N' starts one again.")
            return .success
        }
        progress.current = exercise.id
        try session.save(progress)
        try session.ensureWork(exercise)
        let done = session.catalog.exercises.filter(progress.isDone).count
        console.print(
            "\(exercise.numberText) \(exercise.title) (\(done) of \(session.catalog.exercises.count) done)")
        console.print("  read:  \(session.display(exercise.readme))")
        console.print("  edit:  \(session.display(exercise.work))/")
        console.print("  check: workbook exercises check \(exercise.number)   (or: workbook exercises watch)")
        if let task = exercise.task {
            console.print("")
            console.print(task)
        }
        return .success
    }

    // MARK: check

    static let check = Command(
        CommandSpec(
            name: "check",
            abstract: "Run an exercise's tests against your code in its Work/ folder.",
            discussion: """
                Builds exercises/NN-slug/Work/ (created from the starter the first time) with the
                exercise's tests in a generated package, runs them, and prints which fail and why.
                Without an argument, checks the current exercise. A passing check marks the
                exercise done. The first 8 failures are shown in full and the rest named; --all
                shows every one. Exit status: 0 when every test passes, 1 otherwise.
                """,
            arguments: [
                ArgumentSpec("exercise", optional: true, help: "A number (1, 01), folder name or slug.")
            ],
            options: [
                bookOption, ExerciseSession.buildPathOption, testTimeoutOption,
                OptionSpec("all", help: "Show every failure in full, not only the first 8."),
            ])
    ) { arguments, console in
        let session = try ExerciseSession.open(arguments, console: console)
        var progress = try session.loadProgress()
        let exercise = try session.exercise(arguments[0], progress: progress)
        let passed = try session.check(
            exercise, testTimeout: testTimeout(arguments, command: "check"), showAll: arguments.flag("all"))
        guard passed else { return .failure }
        progress = try session.loadProgress()
        let next = progress.markDone(exercise, in: session.catalog)
        try session.save(progress)
        let done = session.catalog.exercises.filter(progress.isDone).count
        console.print("\(exercise.numberText) is done (\(done) of \(session.catalog.exercises.count)).")
        if let next {
            console.print("Next: \(next.numberText) \(next.title). Run 'workbook exercises next'.")
        }
        return .success
    }

    // MARK: hint

    static let hint = Command(
        CommandSpec(
            name: "hint",
            abstract: "Reveal the next hint of an exercise.",
            discussion: """
                Each call reveals one more of the README's hints, in order, and remembers how many
                you have seen (the README folds them, so that reading it gives nothing away).
                """,
            arguments: [
                ArgumentSpec(
                    "exercise", optional: true, help: "A number, folder name or slug (default: current).")
            ],
            options: [bookOption])
    ) { arguments, console in
        let session = try ExerciseSession.open(arguments, console: console)
        var progress = try session.loadProgress()
        let exercise = try session.exercise(arguments[0], progress: progress)
        let hints = exercise.hints
        guard !hints.isEmpty else {
            console.print("\(exercise.numberText) has no hints; its README explains the task.")
            return .success
        }
        let shown = min((progress.hintsShown[exercise.id] ?? 0) + 1, hints.count)
        progress.hintsShown[exercise.id] = shown
        try session.save(progress)
        console.print("Hint \(shown) of \(hints.count) for \(exercise.numberText) \(exercise.title):")
        console.print("")
        console.print(hints[shown - 1])
        if shown == hints.count {
            console.print("")
            console.print(
                "That was the last hint; the chapter sections linked from the README explain the rest.")
        }
        return .success
    }

    // MARK: watch

    static let watch = Command(
        CommandSpec(
            name: "watch",
            abstract: "Check the current exercise on every save; move on when it passes.",
            discussion: """
                Polls the Swift files in the exercise's Work/ folder (the current one, or the one
                named) and checks it whenever one changes. When the check passes, the exercise is
                marked done and watching moves on to the next one. Stops when every exercise is
                done, after --timeout seconds, after --max-checks checks, or on Ctrl-C. On a
                terminal the screen is cleared before each check; elsewhere the output is plain
                lines.
                """,
            arguments: [
                ArgumentSpec(
                    "exercise", optional: true, help: "A number, folder name or slug (default: current).")
            ],
            options: [
                bookOption, ExerciseSession.buildPathOption, testTimeoutOption,
                OptionSpec("interval", value: "SECONDS", help: "How often to look for changes (default: 1)."),
                OptionSpec(
                    "timeout", value: "SECONDS", help: "Stop watching after this long (default: 7200)."),
                OptionSpec(
                    "max-checks", value: "N", help: "Stop after this many checks (default: no limit)."),
            ])
    ) { arguments, console in
        let session = try ExerciseSession.open(arguments, console: console)
        let interval = try seconds(arguments, "interval", default: 1, command: "watch")
        let timeout = try seconds(arguments, "timeout", default: 7200, command: "watch")
        let testTimeout = try testTimeout(arguments, command: "watch")
        var checksLeft = Int.max
        if let text = arguments.value("max-checks") {
            guard let count = Int(text), count > 0 else {
                throw CommandError.usage(
                    "--max-checks needs a positive number", command: ["workbook", "exercises", "watch"])
            }
            checksLeft = count
        }
        let deadline = Date().addingTimeInterval(timeout)
        var progress = try session.loadProgress()
        let named = try arguments[0].map { try session.exercise($0, progress: progress) }
        guard var exercise = named ?? progress.currentExercise(in: session.catalog) else {
            console.print("watch: every exercise is done")
            return .success
        }
        try session.ensureWork(exercise)
        var seen: [String: Date]?
        while Date() < deadline {
            let snapshot = modificationTimes(exercise.work)
            if snapshot != seen {
                checksLeft -= 1
                seen = snapshot
                // On a terminal, each check starts on a clean screen; a log gets plain lines.
                let clear = console.isInteractive ? "\u{1B}[2J\u{1B}[H" : ""
                console.print("\(clear)watch: checking \(exercise.id)")
                if try session.check(exercise, testTimeout: testTimeout) {
                    progress = try session.loadProgress()
                    let next = progress.markDone(exercise, in: session.catalog)
                    try session.save(progress)
                    guard let next else {
                        console.print("watch: every exercise is done")
                        return .success
                    }
                    console.print("watch: \(exercise.numberText) is done; moving on to \(next.id)")
                    exercise = next
                    try session.ensureWork(exercise)
                    seen = nil
                } else if checksLeft > 0 {
                    console.print(
                        "watch: waiting for a change in \(session.display(exercise.work))/ (Ctrl-C stops)")
                }
                if checksLeft == 0 {
                    console.print("watch: stopped (--max-checks reached)")
                    return .success
                }
                continue
            }
            Thread.sleep(forTimeInterval: interval)
        }
        console.print("watch: stopped after \(Int(timeout)) s; run it again to go on")
        return .success
    }

    /// The Swift files of a folder and their modification times: a change in the map is a save.
    static func modificationTimes(_ folder: URL) -> [String: Date] {
        var times: [String: Date] = [:]
        for file in GeneratedPackage.swiftFiles(in: folder) {
            let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
            times[file.path] = attributes?[.modificationDate] as? Date ?? .distantPast
        }
        return times
    }

    // MARK: reset

    static let reset = Command(
        CommandSpec(
            name: "reset",
            abstract: "Restore an exercise's Work/ folder from its starter.",
            discussion: """
                Your previous Work/ folder is moved to the build folder (its path is printed), never
                deleted. The exercise is no longer marked done.
                """,
            arguments: [ArgumentSpec("exercise", help: "A number, folder name or slug.")],
            options: [bookOption, ExerciseSession.buildPathOption])
    ) { arguments, console in
        let session = try ExerciseSession.open(arguments, console: console)
        var progress = try session.loadProgress()
        let exercise = try session.exercise(arguments[0], progress: progress)
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: exercise.work.path) {
            let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
            let backups = session.buildRoot.appendingPathComponent("previous-work")
            try fileManager.createDirectory(at: backups, withIntermediateDirectories: true)
            let backup = backups.appendingPathComponent("\(exercise.id)-\(stamp)")
            try fileManager.moveItem(at: exercise.work, to: backup)
            console.print("moved your previous work to \(session.display(backup))/")
        }
        try fileManager.copyItem(at: exercise.starter, to: exercise.work)
        progress.done.removeAll { $0 == exercise.id }
        try session.save(progress)
        console.print("restored \(session.display(exercise.work))/ from Starter/")
        return .success
    }

    // MARK: verify

    static let verify = Command(
        CommandSpec(
            name: "verify",
            abstract: "Prove every exercise sound: the starter compiles and fails, the solution passes.",
            discussion: """
                For every exercise (or the ones named): the starter compiles, the starter fails at
                least one test, the reference solution passes all of them, the README has at least
                two hints, the starter carries '// TODO' markers, and every test names the chapter
                section that explains its rule ('/// Read: chapters/NN-slug.md#section'). All starters
                are built as one generated package and all solutions as another, each tested in
                one run. Prints a table; exit status 1 when any exercise breaks a promise.
                """,
            arguments: [
                ArgumentSpec("exercise", optional: true, variadic: true, help: "Only these exercises.")
            ],
            options: [bookOption, ExerciseSession.buildPathOption, testTimeoutOption])
    ) { arguments, console in
        let started = Date()
        let session = try ExerciseSession.open(arguments, console: console)
        let exercises =
            try arguments.positionals.isEmpty
            ? session.catalog.exercises
            : arguments.positionals.map { try session.catalog.exercise(named: $0) }
        guard !exercises.isEmpty else {
            console.print("verify: no exercises")
            return .success
        }
        let timeout = try testTimeout(arguments, command: "verify")
        let starters = try session.builder(package: "starters", testTimeout: timeout)
            .run(exercises.map { PackageMember(exercise: $0, sources: $0.starter) })
        let solutions = try session.builder(package: "solutions", testTimeout: timeout)
            .run(exercises.map { PackageMember(exercise: $0, sources: $0.solution) })
        let rows = exercises.map { exercise in
            VerifyRow(
                exercise: exercise, starter: starters[exercise.id] ?? .failedToRun("no result"),
                solution: solutions[exercise.id] ?? .failedToRun("no result"),
                hintCount: exercise.hints.count,
                todoCount: VerifyRow.todoCount(in: exercise.starter),
                readingProblems: TestReadings(exercise: exercise, bookRoot: exercise.bookRoot)
                    .problems(bookRoot: exercise.bookRoot))
        }
        for line in VerifyTable.render(rows) { console.print(line) }
        let broken = rows.filter { !$0.isSound }
        for row in broken {
            console.print("")
            for problem in row.problems { console.print("\(row.exercise.id): \(problem)") }
        }
        let seconds = Int(Date().timeIntervalSince(started).rounded())
        console.print("")
        if broken.isEmpty {
            console.print("verify: \(rows.count) exercise\(rows.count == 1 ? "" : "s") sound (\(seconds) s)")
            return .success
        }
        console.print("verify: \(broken.count) of \(rows.count) exercises broken (\(seconds) s)")
        return .failure
    }

    // MARK: grade

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
