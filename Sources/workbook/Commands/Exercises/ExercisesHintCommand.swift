import CommandLineKit
import Exercises
import Foundation
import LiterateCLI

extension ExercisesCommands {
    static let hint = Command(
        CommandSpec(
            name: "hint",
            abstract: "Reveal the next hint of an exercise.",
            discussion: """
                Each call reveals one more of the exercise's hints (its HINTS.md), in order, and
                remembers how many you have seen, so that reading the task gives nothing away.
                """,
            arguments: [currentExerciseArgument],
            options: [bookOption])
    ) { arguments, console in
        let session = try ExerciseSession.open(arguments, console: console)
        var progress = try session.loadProgress()
        let exercise = try session.exercise(arguments[0], progress: progress)
        let hints = exercise.hints
        guard !hints.isEmpty else {
            console.print(
                "\(exercise.numberText) has no hints; 'workbook exercises show \(exercise.number)' prints the task."
            )
            return .success
        }
        // The count was read within 0...hints.count; past the last hint, the last one again.
        let shown = min(max(0, progress.hintsShown[exercise.id] ?? 0), hints.count - 1) + 1
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
}
