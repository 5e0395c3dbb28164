import Foundation
import TestSupport
import Testing

/// A copy of the fixture exercise book (`Fixtures/exercise-book`) in a temporary folder, so the
/// learner's real progress file and Work folders are never touched. Two sound exercises (add two
/// numbers, say hello) and two broken ones (a starter that already passes, a solution that fails).
final class ExerciseBook {
    let folder: TemporaryFolder
    var root: URL { folder.url }

    init() throws {
        folder = try TemporaryFolder()
        try folder.copyFixture("exercise-book")
    }

    /// Runs `workbook exercises ARGUMENTS` on this book, building under its own folder.
    func run(_ arguments: [String], buildPath: Bool = true) async throws -> CommandRunner.Output {
        var all = ["exercises"] + arguments + ["--book", root.path]
        if buildPath { all += ["--build-path", root.appendingPathComponent("build").path] }
        // No probe for a running server: the links a check prints would then depend on one.
        return try await CommandRunner.run(
            "workbook", all, in: root, environment: ["CI": "1", "WORKBOOK_SITE_PROBE": "off"])
    }

    func read(_ path: String) -> String? { folder.read(path) }

    func write(_ path: String, _ text: String) throws { try folder.write(path, text) }

    /// Copies an exercise's reference solution into its Work folder.
    func solve(_ exercise: String, file: String) throws {
        let solution = try #require(read("exercises/\(exercise)/Solution/\(file)"))
        try write("exercises/\(exercise)/Work/\(file)", solution)
    }

    var progress: String? { read(".exercises-state.json") }
}

/// `workbook exercises` on the fixture book. The commands that build (check, watch, grade, verify)
/// compile small generated packages; each of those tests has a time limit, generous because the
/// CLI tests run their processes one at a time and may queue behind each other.
struct ExercisesCommandTests {
    @Test func listMarksTheFirstExerciseCurrentForANewLearner() async throws {
        let book = try ExerciseBook()
        let output = try await book.run(["list"], buildPath: false)
        #expect(output.status == 0)
        #expect(
            output.stdout == """
                Exercises: 0 of 4 done

                  #   status   exercise
                  01  current  Add two numbers
                  02  to do    Say hello
                  03  to do    A starter that already passes
                  04  to do    A solution that fails

                Current: 01 Add two numbers. Read exercises/01-add-two/README.md, then run 'workbook exercises check 1'.

                """)
        #expect(book.progress == nil, "list only reads the progress")
    }

    @Test func listShowsDoneCurrentAndToDoFromTheProgressFile() async throws {
        let book = try ExerciseBook()
        try book.write(
            ".exercises-state.json", #"{"current":"03-starter-passes","done":["01-add-two"],"version":1}"#)
        let output = try await book.run(["list"], buildPath: false)
        #expect(output.status == 0)
        #expect(
            output.stdout == """
                Exercises: 1 of 4 done

                  #   status   exercise
                  01  done     Add two numbers
                  02  to do    Say hello
                  03  current  A starter that already passes
                  04  to do    A solution that fails

                Current: 03 A starter that already passes. Read exercises/03-starter-passes/README.md, then run \
                'workbook exercises check 3'.

                """)
    }

    @Test func nextPreparesTheWorkFolderAndPrintsTheTask() async throws {
        let book = try ExerciseBook()
        let output = try await book.run(["next"], buildPath: false)
        #expect(output.status == 0)
        #expect(
            output.stdout == """
                created exercises/01-add-two/Work/ from Starter/: edit the files there
                01 Add two numbers (0 of 4 done)
                  edit:  exercises/01-add-two/Work/
                  check: workbook exercises check 1   (or: workbook exercises watch)
                  hints: workbook exercises hint 1   (0 of 2 shown)

                A fixture exercise for the exercise commands. Practises Adding (chapters/01-numbers.html#adding, chapters/01-numbers.md:6).

                ## The task

                Write `add(_:_:)` so that it returns the sum of its two arguments.

                """)
        #expect(
            book.read("exercises/01-add-two/Work/Add.swift")
                == book.read("exercises/01-add-two/Starter/Add.swift"))
        #expect(book.progress == #"{"current":"01-add-two","done":[],"hintsShown":{},"version":1}"# + "\n")
    }

    /// The task without its hints, for any exercise, and nothing written.
    @Test func showPrintsTheTaskAndNoHint() async throws {
        let book = try ExerciseBook()
        try book.write(".exercises-state.json", #"{"hintsShown":{"02-say-hello":1},"version":1}"#)
        let output = try await book.run(["show", "2"], buildPath: false)
        #expect(output.status == 0)
        #expect(
            output.stdout == """
                02 Say hello (0 of 4 done)
                  edit:  exercises/02-say-hello/Work/
                  check: workbook exercises check 2   (or: workbook exercises watch)
                  hints: workbook exercises hint 2   (1 of 2 shown)

                A second fixture exercise, to move on to.

                ## The task

                Write `greeting(for:)`: `Hello, NAME!`.

                """)
        #expect(!output.stdout.contains("Hint"))
        #expect(
            !FileManager.default.fileExists(
                atPath: book.root.appendingPathComponent("exercises/02-say-hello/Work").path))
    }

    @Test func nextMovesOnOnceTheCurrentExerciseIsDoneAndSkipsOnRequest() async throws {
        let book = try ExerciseBook()
        try book.write(
            ".exercises-state.json", #"{"current":"01-add-two","done":["01-add-two"],"version":1}"#)
        let moved = try await book.run(["next"], buildPath: false)
        #expect(moved.stdout.contains("02 Say hello (1 of 4 done)"), "a done exercise gives way to the next")
        let skipped = try await book.run(["next", "--skip"], buildPath: false)
        #expect(
            skipped.stdout.contains("03 A starter that already passes (1 of 4 done)"),
            "--skip moves on anyway")
        #expect(book.progress?.contains(#""current":"03-starter-passes""#) == true)
    }

    @Test func theLanguageChosenIsTheOneShowAndHintSpeak() async throws {
        let book = try ExerciseBook()
        try book.write(
            "po/vi.po",
            """
            msgid ""
            msgstr ""
            "Language: vi\\n"
            "Content-Type: text/plain; charset=UTF-8\\n"

            msgid "Add two numbers"
            msgstr "Cộng hai số"

            msgid "Hint 1"
            msgstr "Gợi ý 1"

            msgid "Hint 2"
            msgstr "Gợi ý 2"

            msgid "Swift adds with `+`."
            msgstr "Swift cộng bằng `+`."

            """)
        let unknown = try await book.run(["language", "xx"], buildPath: false)
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "error: no translation 'xx' in this book (available: en, vi)\n")
        let chosen = try await book.run(["language", "vi"], buildPath: false)
        #expect(
            chosen.stdout == "exercises: tasks and hints in vi (English: workbook exercises language en)\n")
        #expect(book.progress?.contains(#""language":"vi""#) == true)
        // Translated where the PO file says so, English elsewhere; the hints still count.
        let hint = try await book.run(["hint", "1"], buildPath: false)
        #expect(hint.stdout == "Hint 1 of 2 for 01 Cộng hai số:\n\nSwift cộng bằng `+`.\n")
        let show = try await book.run(["show", "1"], buildPath: false)
        #expect(show.stdout.hasPrefix("01 Cộng hai số (0 of 4 done)\n"))
        #expect(show.stdout.contains("(vi/chapters/01-numbers.html#adding, chapters/01-numbers.md:"))
        _ = try await book.run(["language", "en"], buildPath: false)
        let english = try await book.run(["hint", "1"], buildPath: false)
        #expect(english.stdout.hasPrefix("Hint 2 of 2 for 01 Add two numbers:"))
        #expect(book.progress?.contains("language") == false)
    }

    @Test func hintRevealsOneHintAtATime() async throws {
        let book = try ExerciseBook()
        let first = try await book.run(["hint", "1"], buildPath: false)
        #expect(first.stdout == "Hint 1 of 2 for 01 Add two numbers:\n\nSwift adds with `+`.\n")
        let second = try await book.run(["hint", "1"], buildPath: false)
        #expect(
            second.stdout == """
                Hint 2 of 2 for 01 Add two numbers:

                The whole body is `a + b`.

                That was the last hint; the chapter sections linked from the README explain the rest.

                """)
        let again = try await book.run(["hint", "add-two"], buildPath: false)
        #expect(again.stdout.hasPrefix("Hint 2 of 2"), "past the last hint, the last one is shown again")
        #expect(book.progress?.contains(#""hintsShown":{"01-add-two":2}"#) == true)
    }

    @Test func resetRestoresTheStarterAndKeepsThePreviousWork() async throws {
        let book = try ExerciseBook()
        try book.write("exercises/01-add-two/Work/Add.swift", "// my attempt\n")
        try book.write(".exercises-state.json", #"{"done":["01-add-two"],"version":1}"#)
        let output = try await book.run(["reset", "01"])
        #expect(output.status == 0)
        #expect(
            book.read("exercises/01-add-two/Work/Add.swift")
                == book.read("exercises/01-add-two/Starter/Add.swift"))
        let backups = try FileManager.default.contentsOfDirectory(
            atPath: book.root.appendingPathComponent("build/previous-work").path)
        #expect(backups.count == 1 && backups[0].hasPrefix("01-add-two-"))
        #expect(book.read("build/previous-work/\(backups[0])/Add.swift") == "// my attempt\n")
        #expect(output.stdout.hasSuffix("restored exercises/01-add-two/Work/ from Starter/\n"))
        #expect(book.progress?.contains(#""done":[]"#) == true, "a reset exercise is no longer done")
    }

    /// Twice in the same second: the second backup takes the name with `-2` after the timestamp.
    @Test func resetTwiceInARowKeepsBothBackups() async throws {
        let book = try ExerciseBook()
        try book.write("exercises/01-add-two/Work/Add.swift", "// first attempt\n")
        let first = try await book.run(["reset", "1"])
        try book.write("exercises/01-add-two/Work/Add.swift", "// second attempt\n")
        let second = try await book.run(["reset", "1"])
        #expect((first.status, second.status) == (0, 0), "\(second.stderr)")
        let backups = try FileManager.default.contentsOfDirectory(
            atPath: book.root.appendingPathComponent("build/previous-work").path
        ).sorted()
        #expect(backups.count == 2)
        let kept = Set(backups.compactMap { book.read("build/previous-work/\($0)/Add.swift") })
        #expect(kept == ["// first attempt\n", "// second attempt\n"])
        let named = backups.map { "moved your previous work to build/previous-work/\($0)/" }
        #expect(
            Set([first, second].map { $0.stdout.split(separator: "\n").first.map(String.init) ?? "" })
                == Set(named))
    }

    /// Once a trap (exit 132) for a huge count and an index out of range for a negative one.
    @Test func aHandEditedProgressFileIsBadInputNeverACrash() async throws {
        let book = try ExerciseBook()
        try book.write(".exercises-state.json", #"{"hintsShown":{"01-add-two":-5}}"#)
        let negative = try await book.run(["hint", "1"], buildPath: false)
        #expect(negative.status == 2)
        #expect(
            negative.stderr
                == #"error: .exercises-state.json:1:29: hintsShown["01-add-two"] is -5; it counts the hints shown, "#
                + "a whole number from 0 to 2\n")
        #expect(book.progress == #"{"hintsShown":{"01-add-two":-5}}"#, "nothing is rewritten")

        try book.write(".exercises-state.json", #"{"hintsShown":{"01-add-two":9223372036854775807}}"#)
        let huge = try await book.run(["hint", "1"], buildPath: false)
        #expect(huge.status == 0)
        #expect(
            huge.stderr
                == #"warning: .exercises-state.json:1:29: hintsShown["01-add-two"] is 9223372036854775807, "#
                + "more than the 2 hints there are; read as 2\n")
        #expect(huge.stdout.hasPrefix("Hint 2 of 2 for 01 Add two numbers:"))
        #expect(book.progress == #"{"done":[],"hintsShown":{"01-add-two":2},"version":1}"# + "\n")
    }

    @Test func aFolderWhereTheProgressFileBelongsIsTheSameErrorForEverySubcommand() async throws {
        let book = try ExerciseBook()
        try FileManager.default.createDirectory(
            at: book.root.appendingPathComponent(".exercises-state.json"), withIntermediateDirectories: false)
        for command in [["list"], ["hint", "1"], ["next"], ["reset", "1"]] {
            let output = try await book.run(command, buildPath: command[0] == "reset")
            #expect(output.status == 2, "\(command)")
            #expect(
                output.stderr
                    == "error: .exercises-state.json: a folder stands where the progress file belongs; move it "
                    + "away or delete it\n", "\(command)")
        }
    }

    @Test func anUnknownExerciseIsBadInput() async throws {
        let book = try ExerciseBook()
        let output = try await book.run(["check", "9"])
        #expect(output.status == 2)
        #expect(
            output.stderr
                == "error: no exercise '9'; try one of: 01-add-two, 02-say-hello, 03-starter-passes, 04-solution-fails\n"
        )
    }

    @Test(.timeLimit(.minutes(10)))
    func checkAndWatchSayWhatIsWrongUntilTheWorkPasses() async throws {
        let book = try ExerciseBook()
        let starter = try await book.run(["check", "1"])
        #expect(starter.status == 1)
        #expect(
            starter.stdout == """
                created exercises/01-add-two/Work/ from Starter/: edit the files there
                check 01 Add two numbers (exercises/01-add-two/Work/)
                ✘ 1 of 2 tests fail

                ✘ twoAndTwoMakeFour
                    exercises/01-add-two/Tests/AddTests.swift:8: Expectation failed: (add(2, 2) → 0) == 4
                    → add(2, 2) must be 4: return a + b
                    read: chapters/01-numbers.html#adding  (chapters/01-numbers.md:6)

                Stuck? 'workbook exercises hint 1' reveals the next of 2 hints.

                """)

        try book.write(
            "exercises/01-add-two/Work/Add.swift", "func add(_ a: Int, _ b: Int) -> Int {\n    a +\n}\n")
        let broken = try await book.run(["check", "1"])
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("✘ exercises/01-add-two/Work/ does not compile yet:\n"))
        #expect(
            broken.stdout.contains(
                "exercises/01-add-two/Work/Add.swift:3:1: error: expected expression after operator"),
            "compiler errors name the learner's file, not the generated package")

        try book.solve("01-add-two", file: "Add.swift")
        let solved = try await book.run(["check"])
        #expect(solved.status == 0)
        #expect(
            solved.stdout == """
                check 01 Add two numbers (exercises/01-add-two/Work/)
                ✔ all 2 tests pass
                01 is done (1 of 4).
                Next: 02 Say hello. Run 'workbook exercises show 2' to read it.

                """)
        #expect(
            book.progress == #"{"current":"02-say-hello","done":["01-add-two"],"hintsShown":{},"version":1}"#
                + "\n")

        // Watching starts at the current exercise, 02, whose fresh starter fails; --max-checks
        // bounds the run.
        let watching = try await book.run(["watch", "--interval", "0.2", "--max-checks", "1"])
        #expect(watching.status == 0)
        #expect(
            watching.stdout.split(separator: "\n").filter { $0.hasPrefix("watch:") } == [
                "watch: checking 02-say-hello",
                "watch: stopped (--max-checks reached)",
            ], "plain lines when not on a terminal")
        #expect(watching.stdout.contains("created exercises/02-say-hello/Work/ from Starter/"))

        try book.solve("02-say-hello", file: "Greeting.swift")
        try book.write(
            ".exercises-state.json", #"{"current":"02-say-hello","done":["03-starter-passes"],"version":1}"#)
        let moving = try await book.run(["watch", "--interval", "0.2", "--max-checks", "2"])
        #expect(
            moving.stdout.split(separator: "\n").filter { $0.hasPrefix("watch:") } == [
                "watch: checking 02-say-hello",
                "watch: 02 is done; moving on to 04-solution-fails",
                "watch: checking 04-solution-fails",
                "watch: stopped (--max-checks reached)",
            ], "a passing check marks the exercise done and moves on to the next one not done")
        #expect(book.progress?.contains(#""done":["03-starter-passes","02-say-hello"]"#) == true)

        // Named, watching starts there, whatever the current exercise is.
        let named = try await book.run(["watch", "4", "--interval", "0.2", "--max-checks", "1"])
        #expect(
            named.stdout.split(separator: "\n").filter { $0.hasPrefix("watch:") } == [
                "watch: checking 04-solution-fails",
                "watch: stopped (--max-checks reached)",
            ])
    }

    @Test(.timeLimit(.minutes(10)))
    func gradeWritesBothReportsWithoutTouchingTheLearnersFiles() async throws {
        let book = try ExerciseBook()
        let learner = "learner/exercises"
        try book.write(
            "\(learner)/01-add-two/Work/Add.swift", book.read("exercises/01-add-two/Solution/Add.swift") ?? ""
        )
        try book.write(
            "\(learner)/02-say-hello/Work/Greeting.swift",
            book.read("exercises/02-say-hello/Starter/Greeting.swift") ?? "")
        try book.write("\(learner)/04-solution-fails/Work/Double.swift", "func double(_ n: Int) -> Int {\n")
        let before = try snapshot(book.root.appendingPathComponent("learner"))
        let output = try await book.run(["grade", "learner", "--out", "report"])
        #expect(output.status == 0)
        #expect(
            output.stdout == """
                01-add-two: passed (2 of 2 tests pass)
                02-say-hello: failed (0 of 1 tests pass)
                03-starter-passes: not attempted
                04-solution-fails: does not compile

                grade: 1 of 4 exercises pass
                wrote report/report.md
                wrote report/report.json

                """)
        #expect(
            try snapshot(book.root.appendingPathComponent("learner")) == before,
            "grading writes nothing in DIR")

        let json = try #require(book.read("report/report.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let summary = try #require(report["summary"] as? [String: Int])
        #expect(
            summary == ["exercises": 4, "passed": 1, "failed": 1, "doesNotCompile": 1, "notAttempted": 1])
        let exercises = try #require(report["exercises"] as? [[String: Any]])
        #expect(
            exercises.map { $0["status"] as? String } == [
                "passed", "failed", "not-attempted", "does-not-compile",
            ])
        let hello = try #require(exercises[1]["tests"] as? [[String: Any]])
        let issues = try #require(hello.first?["issues"] as? [[String: Any]])
        #expect(issues.first?["details"] as? [String] == ["the greeting is Hello, NAME!"])

        let markdown = try #require(book.read("report/report.md"))
        #expect(markdown.contains("| 2 | Say hello | failed | 0 of 1 |"))
        #expect(markdown.contains("- ✘ `aGreetingNamesThePerson`"))
        #expect(markdown.contains("    - the greeting is Hello, NAME!"))
        #expect(markdown.contains("## 4. A solution that fails: does not compile"))
    }

    /// Two learners whose folders share a name, and a folder that is not there: a class table with
    /// a row each, and a report per learner.
    @Test(.timeLimit(.minutes(10)))
    func gradeOfSeveralLearnersWritesAClassTable() async throws {
        let book = try ExerciseBook()
        try book.write(
            "class/morning/ada/exercises/01-add-two/Work/Add.swift",
            book.read("exercises/01-add-two/Solution/Add.swift") ?? "")
        try book.write(
            "class/morning/ada/.exercises-state.json", #"{"hintsShown":{"01-add-two":1},"version":1}"#)
        // Graded right after a passing learner, in the same generated package: the starter's
        // failure must be this learner's, not the first one's build again.
        try book.write(
            "class/evening/ada/exercises/01-add-two/Work/Add.swift",
            book.read("exercises/01-add-two/Starter/Add.swift") ?? "")
        try book.write("class/mistake/notes.txt", "not an exercises folder\n")
        let output = try await book.run([
            "grade", "class/morning/ada", "class/evening/ada", "class/nobody", "class/mistake", "--out",
            "report",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout == """
                morning-ada: 1 of 4 exercises pass
                evening-ada: 0 of 4 exercises pass
                nobody: not graded: no folder at \(book.root.path)/class/nobody
                mistake: not graded: \(book.root.path)/class/mistake holds no exercise folder (NN-slug/, or exercises/NN-slug/): nothing to grade

                grade: 4 learners, 2 not graded
                wrote report/class.md
                wrote report/class.json
                wrote report/class.csv

                """)
        #expect(
            book.read("report/class.csv")
                == "learner,01-add-two,02-say-hello,03-starter-passes,04-solution-fails,passed,hints,problem\r\n"
                + "morning-ada,passed,not-attempted,not-attempted,not-attempted,1,1,\r\n"
                + "evening-ada,failed:1,not-attempted,not-attempted,not-attempted,0,,\r\n"
                + "nobody,,,,,,,no folder at \(book.root.path)/class/nobody\r\n"
                // A field with a comma is quoted (RFC 4180).
                + "mistake,,,,,,,\"\(book.root.path)/class/mistake holds no exercise folder (NN-slug/, or "
                + "exercises/NN-slug/): nothing to grade\"\r\n")
        let markdown = try #require(book.read("report/class.md"))
        #expect(
            markdown.contains("| [morning-ada](morning-ada/report.md) | passed | — | — | — | 1 of 4 | 1 |"))
        #expect(
            markdown.contains(
                "| [evening-ada](evening-ada/report.md) | failed (1) | — | — | — | 0 of 4 | ? |"))
        #expect(markdown.contains("| **Passed** | 1 of 2 | 0 of 2 | 0 of 2 | 0 of 2 | | |"))
        #expect(book.read("report/morning-ada/report.json") != nil)
        #expect(book.read("report/evening-ada/report.md") != nil)
        let json = try #require(book.read("report/class.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let learners = try #require(report["learners"] as? [[String: Any]])
        #expect(
            learners.map { $0["name"] as? String } == ["morning-ada", "evening-ada", "nobody", "mistake"])
    }

    @Test(.timeLimit(.minutes(10)))
    func verifyCatchesAStarterThatPassesAndASolutionThatFails() async throws {
        let book = try ExerciseBook()
        let output = try await book.run(["verify"])
        #expect(output.status == 1)
        let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            Array(lines.prefix(5)) == [
                "exercise           starter builds  starter fails     solution passes   hints   TODOs   readings",
                "01-add-two         ok              ok (1 of 2 fail)  ok (2 of 2 pass)  ok (2)  ok (1)  ok",
                "02-say-hello       ok              ok (1 of 1 fail)  ok (1 of 1 pass)  ok (2)  ok (1)  ok",
                "03-starter-passes  ok              NO (0 of 1 fail)  ok (1 of 1 pass)  ok (2)  ok (1)  NO (1)",
                "04-solution-fails  ok              ok (1 of 1 fail)  NO (0 of 1 pass)  NO (1)  ok (1)  NO (1)",
            ])
        #expect(
            lines.contains(
                "03-starter-passes: the starter passes every test: it must fail at least one, or doing nothing passes"
            ))
        #expect(
            lines.contains(
                "04-solution-fails: the solution fails threeDoubledIsSix: Expectation failed: (double(3) → 5) == 6"
            ))
        #expect(
            lines.contains("04-solution-fails: HINTS.md has 1 hint; it needs two or three"))
        #expect(
            lines.contains(
                "03-starter-passes: exercises/03-starter-passes/Tests/EvenTests.swift:6: test 'fourIsEven' has no "
                    + "'/// Read: chapters/…md#section' line naming where the chapter explains its rule"))
        #expect(
            lines.contains(
                "04-solution-fails: exercises/04-solution-fails/Tests/DoubleTests.swift:7: "
                    + "'chapters/01-numbers.md#halving' names no section of chapters/01-numbers.md"))
        #expect(lines.contains { $0.hasPrefix("verify: 2 of 4 exercises broken (") })

        let sound = try await book.run(["verify", "1", "2"])
        #expect(sound.status == 0, "the sound exercises alone pass")
        #expect(sound.stdout.split(separator: "\n").last?.hasPrefix("verify: 2 exercises sound (") == true)
    }

    /// Every file under `folder` with its contents, to prove that nothing changed.
    private func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            let values = try url.resourceValues(forKeys: [.isDirectoryKey])
            if values.isDirectory != true { files[url.path] = try Data(contentsOf: url) }
        }
        return files
    }
}
