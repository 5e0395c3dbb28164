import CommandLineKit
import Exercises
import Foundation
import LiterateCLI

extension ExercisesCommands {
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
        for line in session.overview(exercise, progress: progress) { console.print(line) }
        return .success
    }
}
