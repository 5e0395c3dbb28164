import CommandLineKit
import Exercises
import Foundation
import LiterateCLI

/// `workbook exercises`: the new hire's practice loop (`list`, `show`, `next`, `check`, `hint`,
/// `watch`, `reset`) and the instructor's proofs (`verify`, `grade`).
let exercisesCommand = Command(
    CommandSpec(
        name: "exercises",
        abstract:
            "Practise what the chapters teach: list, check, hint, watch; verify and grade for instructors.",
        discussion: """
            Each exercise is a folder exercises/NN-slug/ with a README (the task), HINTS.md (its
            hints, apart so that reading the task gives none away), a starter, a reference
            solution and tests. You work in exercises/NN-slug/Work/, a copy of the starter that
            git ignores, created the first time you check it. Progress is kept in
            .exercises-state.json at the repository root.

            Start with 'workbook exercises list', read the current exercise's task with
            'workbook exercises show', edit its Work/ folder, and run 'workbook exercises check'
            (or 'watch') until it passes.
            """),
    subcommands: [
        ExercisesCommands.list, ExercisesCommands.show, ExercisesCommands.next, ExercisesCommands.check,
        ExercisesCommands.hint, ExercisesCommands.language,
        ExercisesCommands.watch, ExercisesCommands.reset, ExercisesCommands.verify, ExercisesCommands.grade,
    ])

/// The subcommands of `workbook exercises`, one value each.
enum ExercisesCommands {
    /// The exercise `show`, `hint` and `watch` work on: the current one unless named.
    static let currentExerciseArgument = ArgumentSpec(
        "exercise", optional: true, help: "A number, folder name or slug (default: current).")

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
}
