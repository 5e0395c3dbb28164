import CommandLineKit
import Exercises
import Foundation
import LiterateCLI

extension ExercisesCommands {
    static let verify = Command(
        CommandSpec(
            name: "verify",
            abstract: "Prove every exercise sound: the starter compiles and fails, the solution passes.",
            discussion: """
                For every exercise (or the ones named): the starter compiles, the starter fails at
                least one test, the reference solution passes all of them, HINTS.md has at least
                two hints (and the README, which holds the task, none), the starter carries
                '// TODO' markers, and every test names the chapter
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
}
