import CommandLineKit
import Foundation
import Literate
import LiterateCLI
import ProcessRunner
import SystemErrors
import Translations
import Weave

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What every `workbook exercises` subcommand starts from: the book, its exercises, the
/// learner's progress, and where generated packages are built.
package struct ExerciseSession {
    var root: URL
    package var catalog: ExerciseCatalog
    /// Generated packages and their build caches: `.build/exercises` unless `--build-path` says.
    package var buildRoot: URL
    var console: Console
    /// The folder of the learner's language in the site (`vi/`), empty for English: where the
    /// links of tasks, hints and failing checks lead.
    package var sitePrefix = ""

    /// The option shared by the subcommands that build.
    package static let buildPathOption = OptionSpec(
        "build-path", value: "DIR",
        help: "Where the generated packages and their build caches live (default: .build/exercises).")

    package static func open(_ arguments: ParsedArguments, console: Console) throws -> ExerciseSession {
        let root = try bookRoot(arguments)
        let catalog = try catching { try ExerciseCatalog.load(root: root) }
        let buildRoot = arguments.value("build-path").map {
            URL(
                fileURLWithPath: $0,
                relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            )
            .standardizedFileURL
        }
        var session = ExerciseSession(
            root: root, catalog: catalog,
            buildRoot: buildRoot ?? root.appendingPathComponent(".build/exercises"), console: console)
        // The learner's language, when chosen: tasks and hints read from its PO file. A
        // progress file that cannot be read is reported by loadProgress(), not here.
        if let language = (try? ProgressFile(root: root).read(catalog: catalog))?.0.language {
            try session.use(language: language)
        }
        return session
    }

    /// Reads the tasks and hints in `language` (`po/LANG.po`; `en` is the book's own): each
    /// message without a translation stays English. The links lead to that language's pages.
    package mutating func use(language: String) throws {
        guard language != "en" else {
            catalog = try Self.catching { try ExerciseCatalog.load(root: root) }
            sitePrefix = ""
            return
        }
        let translation: SiteTranslation
        do {
            translation = try Translations.siteTranslation(root: root, language: language)
        } catch {
            throw CommandError.badInput(
                "the exercises cannot be read in '\(language)': \(error.description) "
                    + "(workbook exercises language en goes back to English)")
        }
        for index in catalog.exercises.indices {
            var exercise = catalog.exercises[index]
            exercise.readmeText =
                translation.markdown("exercises/\(exercise.id)/README.md", exercise.readmeText).markdown
            exercise.hintsText = exercise.hintsText.map {
                translation.markdown("exercises/\(exercise.id)/HINTS.md", $0).markdown
            }
            // A hint's title in the language: the words of "Hint 1"'s translation before its number.
            if let title = translation.message("Hint 1")?.lowercased(), title.hasSuffix(" 1") {
                exercise.hintTitle = String(title.dropLast(2))
            }
            exercise.title = ExerciseReadme.title(in: exercise.readmeText) ?? exercise.title
            catalog.exercises[index] = exercise
        }
        sitePrefix = "\(language)/"
    }

    /// The learner's progress (``ProgressFile``); what had to be brought into range is said on
    /// standard error.
    package func loadProgress() throws -> ExerciseProgress {
        let (progress, warnings) = try catching { try ProgressFile(root: root).read(catalog: catalog) }
        for warning in warnings { console.error("warning: \(warning)") }
        return progress
    }

    package func save(_ progress: ExerciseProgress) throws {
        try catching { try ProgressFile(root: root).write(progress) }
    }

    package func exercise(_ text: String?, progress: ExerciseProgress) throws -> Exercise {
        if let text { return try catching { try catalog.exercise(named: text) } }
        guard let current = progress.currentExercise(in: catalog) else {
            throw CommandError.badInput("every exercise is done; name one to work on it again")
        }
        return current
    }

    /// What `show` prints, and `next` after it: the exercise, where to work, how to check, and
    /// the task without its hints.
    package func overview(_ exercise: Exercise, progress: ExerciseProgress) -> [String] {
        let done = catalog.exercises.filter(progress.isDone).count
        let hints = exercise.hints.count
        let shown = min(progress.hintsShown[exercise.id] ?? 0, hints)
        var lines = [
            "\(exercise.numberText) \(exercise.title) (\(done) of \(catalog.exercises.count) done)",
            "  edit:  \(display(exercise.work))/",
            "  check: workbook exercises check \(exercise.number)   (or: workbook exercises watch)",
        ]
        if hints > 0 {
            lines.append("  hints: workbook exercises hint \(exercise.number)   (\(shown) of \(hints) shown)")
        }
        let origin = SiteProbe.origin(bookRoot: root)
        lines += [
            "",
            ExerciseTask.text(
                of: exercise, sections: BookSections(root: root, sitePrefix: sitePrefix), origin: origin),
        ]
        return lines
    }

    /// Grades one learner's folder (the layout of `exercises/`, or a repository holding one):
    /// each attempted `Work/` folder built against this book's tests. Throws for a folder that
    /// is not there.
    package func grade(_ folder: URL, testTimeout: TimeInterval) throws -> GradeReport {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else { throw CommandError.badInput(ExerciseError.missingFolder(folder.path).description) }
        let learner = Self.exercisesFolder(of: folder)
        guard
            catalog.exercises.contains(where: {
                FileManager.default.fileExists(atPath: learner.appendingPathComponent($0.id).path)
            })
        else { throw CommandError.badInput(ExerciseError.noExerciseFolders(folder.path).description) }
        let members = catalog.exercises.compactMap { exercise -> PackageMember? in
            let work = learner.appendingPathComponent("\(exercise.id)/Work")
            guard !GeneratedPackage.swiftFiles(in: work).isEmpty else { return nil }
            return PackageMember(exercise: exercise, sources: work, copied: true)
        }
        let outcomes =
            members.isEmpty ? [:] : try builder(package: "grade", testTimeout: testTimeout).run(members)
        return GradeReport(
            learnerFolder: learner.path, generatedAt: Date(), catalog: catalog, outcomes: outcomes)
    }

    /// A learner's repository holds `exercises/`: that is the folder graded.
    package static func exercisesFolder(of folder: URL) -> URL {
        let nested = folder.appendingPathComponent("exercises")
        return FileManager.default.fileExists(atPath: nested.path) ? nested : folder
    }

    /// The hints a learner revealed, from the progress file at their repository's root (the
    /// folder given, or the one above its `exercises/`): nil without one, or why it is unreadable.
    package func hintsShown(by folder: URL) -> (hints: [String: Int]?, problem: String?) {
        let root =
            Self.exercisesFolder(of: folder).lastPathComponent == "exercises"
            ? Self.exercisesFolder(of: folder).deletingLastPathComponent() : folder
        let file = ProgressFile(root: root)
        guard FileManager.default.fileExists(atPath: file.url.path) else { return (nil, nil) }
        do {
            return (try file.read(catalog: catalog).0.hintsShown, nil)
        } catch {
            return (nil, error.description)
        }
    }

    /// A repository-relative path for messages.
    package func display(_ url: URL) -> String { PathMapping.display(url, root: root) }

    /// Creates `Work/` from the starter the first time it is needed. Returns whether it did.
    @discardableResult
    package func ensureWork(_ exercise: Exercise) throws -> Bool {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: exercise.work.path) { return false }
        try fileManager.copyItem(at: exercise.starter, to: exercise.work)
        console.print("created \(display(exercise.work))/ from Starter/: edit the files there")
        return true
    }

    /// Moves an exercise's `Work/` folder to `previous-work/ID-TIMESTAMP` in the build folder
    /// (`-2`, `-3`… after the timestamp when a reset in the same second took that name) and
    /// returns where; nil when there is no `Work/`.
    package func setWorkAside(_ exercise: Exercise, now: Date = Date()) throws -> URL? {
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: exercise.work.path) else { return nil }
        let stamp = ISO8601DateFormatter().string(from: now).replacingOccurrences(of: ":", with: "")
        let backups = buildRoot.appendingPathComponent("previous-work")
        do {
            try fileManager.createDirectory(at: backups, withIntermediateDirectories: true)
        } catch {
            throw CommandError.badInput("cannot create \(display(backups))/: \(SystemError.describe(error))")
        }
        for attempt in 1...1_000 {
            let backup = backups.appendingPathComponent(
                "\(exercise.id)-\(stamp)" + (attempt == 1 ? "" : "-\(attempt)"))
            // mkdir claims the name (it fails if another reset took it); rename then replaces the
            // empty folder with Work/.
            guard mkdir(backup.path, 0o755) == 0 else {
                if errno == EEXIST { continue }
                throw CommandError.badInput(
                    "cannot create \(display(backup))/: \(SystemError.describe(SystemError.current()))")
            }
            if rename(exercise.work.path, backup.path) == 0 { return backup }
            let failure = SystemError.current()
            rmdir(backup.path)
            // Another file system (a --build-path elsewhere): copy, then remove.
            if failure.code == .EXDEV, (try? fileManager.moveItem(at: exercise.work, to: backup)) != nil {
                return backup
            }
            throw CommandError.badInput(
                "cannot move \(display(exercise.work))/ to \(display(backup))/: \(SystemError.describe(failure)); "
                    + "your work is untouched")
        }
        throw CommandError.badInput("\(display(backups))/ already holds 1,000 copies of this second's work")
    }

    /// A builder for one of the generated packages under the build folder.
    package func builder(package name: String, testTimeout: TimeInterval) throws -> ExerciseBuilder {
        let core = root.appendingPathComponent("Sources/DeepLinkCore")
        var environment = ["WORKBOOK_ROOT": root.path]
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath().path {
            environment["WORKBOOK_EXECUTABLE"] = executable
        }
        let console = console
        return ExerciseBuilder(
            root: root,
            package: GeneratedPackage(
                directory: buildRoot.appendingPathComponent(name),
                coreSources: FileManager.default.fileExists(atPath: core.path) ? core : nil),
            swift: try swiftExecutable(), environment: environment,
            testTimeout: testTimeout,
            progress: { line in if console.isInteractive { console.error("… \(line)") } })
    }

    /// Builds and tests the learner's `Work/` of one exercise in the persistent `work` package and
    /// prints a summary. Returns whether every test passed.
    package func check(_ exercise: Exercise, testTimeout: TimeInterval, showAll: Bool = false) throws -> Bool
    {
        try ensureWork(exercise)
        let builder = try builder(package: "work", testTimeout: testTimeout)
        let member = PackageMember(exercise: exercise, sources: exercise.work)
        let outcome = try builder.run([member])[exercise.id] ?? .failedToRun("no result")
        console.print("check \(exercise.numberText) \(exercise.title) (\(display(exercise.work))/)")
        switch outcome {
        case .failedToRun(let reason):
            console.print("✘ the exercise could not be built: \(reason)")
            return false
        case .doesNotCompile(let diagnostics, let log):
            console.print("✘ \(display(exercise.work))/ does not compile yet:")
            printDiagnostics(diagnostics, log: log)
            return false
        case .tested(let run, _):
            return printTestSummary(run, exercise: exercise, showAll: showAll)
        }
    }

    func printDiagnostics(_ diagnostics: [CompilerDiagnostic], log: String) {
        if diagnostics.isEmpty {
            console.print(log)
            return
        }
        for diagnostic in diagnostics.prefix(10) {
            console.print(diagnostic.headline)
            for line in diagnostic.excerpt.prefix(8) { console.print(line) }
        }
        if diagnostics.count > 10 { console.print("… and \(diagnostics.count - 10) more errors") }
    }

    /// Prints which tests fail and why; returns whether all passed.
    func printTestSummary(_ run: TestRun, exercise: Exercise, showAll: Bool = false) -> Bool {
        let origin = run.failed.isEmpty ? nil : SiteProbe.origin(bookRoot: root)
        for line in Self.testSummary(
            run, exercise: exercise, showAll: showAll, origin: origin, sitePrefix: sitePrefix)
        {
            console.print(line)
        }
        return run.finished && !run.results.isEmpty && run.failed.isEmpty
    }

    /// `1 test`, `2 tests`.
    static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// The failures shown in full before the rest are only named (`check --all` shows them all).
    static let failuresShown = 8

    /// The lines of a check's summary: each failure with its issues (the first
    /// ``failuresShown``, or all with `showAll`), then the hint line.
    /// `origin`, when a server answers there, prefixes the site pages the `read:` lines give.
    static func testSummary(
        _ run: TestRun, exercise: Exercise, showAll: Bool, origin: String? = nil, sitePrefix: String = ""
    )
        -> [String]
    {
        let total = run.results.count
        let failed = run.failed
        if run.finished, total > 0, failed.isEmpty { return ["✔ all \(total) tests pass"] }
        var lines: [String]
        if let seconds = run.stoppedAfter {
            // Stopped for its time: the tests still running neither passed nor failed.
            let running = run.stillRunning.map(\.name)
            lines = [
                "✘ stopped after \(seconds) s: \(counted(running.count, "test")) still running"
                    + (running.isEmpty
                        ? ""
                        : " (\(running.prefix(4).joined(separator: ", "))\(running.count > 4 ? ", …" : ""))")
                    + ", \(run.notRun.count) not run"
            ]
            if total > 0 {
                lines.append("  before the stop: \(run.passed.count) passed, \(failed.count) failed")
            }
            if !running.isEmpty {
                lines.append(
                    "  a test still running after \(seconds) s is usually an endless loop: start there")
            }
        } else if total == 0 {
            return ["✘ no test ran"]
        } else {
            lines = [
                "✘ \(failed.count) of \(total) tests fail"
                    + (run.notRun.isEmpty
                        ? "" : "; the test process stopped, and \(run.notRun.count) did not run")
            ]
        }
        let shown = showAll ? failed.count : failuresShown
        let readings = TestReadings(
            exercise: exercise, bookRoot: exercise.bookRoot,
            sections: BookSections(root: exercise.bookRoot, sitePrefix: sitePrefix))
        for result in failed.prefix(shown) {
            lines += ["", "✘ \(result.fullName)"]
            for issue in result.issues {
                let place = issue.location.map { "\($0): " } ?? ""
                lines.append("    \(place)\(issue.message)")
                lines += issue.details.map { "    → \($0)" }
            }
            lines += readings.links(for: result).map { "    read: \($0.text(origin: origin))" }
        }
        if failed.count > shown {
            lines += [
                "",
                "… and \(failed.count - shown) more ('workbook exercises check \(exercise.number) --all' "
                    + "shows them): "
                    + failed.dropFirst(shown).map(\.fullName).prefix(6).joined(separator: ", ")
                    + (failed.count > shown + 6 ? ", …" : ""),
            ]
        }
        let hints = exercise.hints.count
        lines.append("")
        if hints > 0 {
            lines.append(
                "Stuck? 'workbook exercises hint \(exercise.number)' reveals the next of \(hints) hints.")
        }
        return lines
    }

    /// The `swift` on `PATH`, which builds and tests the generated packages.
    func swiftExecutable() throws -> String {
        guard let swift = BookChecker.findExecutable("swift") else {
            throw CommandError.badInput(ExerciseError.noSwift.description)
        }
        return swift
    }

    /// Turns the model's errors into the command line's bad-input error.
    func catching<T>(_ body: () throws -> T) throws -> T {
        try Self.catching(body)
    }

    static func catching<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ExerciseError {
            throw CommandError.badInput(error.description)
        }
    }
}
