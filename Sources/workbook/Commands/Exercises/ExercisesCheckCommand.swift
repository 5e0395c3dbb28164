import CommandLineKit
import Exercises
import Foundation
import LiterateCLI

extension ExercisesCommands {
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
        // Whether or not it was the current one, say what comes next, or that the course is done.
        if let next = next ?? progress.nextToDo(after: exercise, in: session.catalog) {
            console.print(
                "Next: \(next.numberText) \(next.title). Run 'workbook exercises show \(next.number)' to read it."
            )
        } else {
            console.print("Every exercise is done: that is the whole course.")
        }
        return .success
    }
}
