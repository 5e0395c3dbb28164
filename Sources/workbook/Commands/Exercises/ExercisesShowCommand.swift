import CommandLineKit
import Exercises
import Foundation
import LiterateCLI

extension ExercisesCommands {
    static let show = Command(
        CommandSpec(
            name: "show",
            abstract: "Print an exercise's task, without its hints.",
            discussion: """
                Prints the exercise (the current one unless named), where to work and how to check
                it, then its README: the task, with each link spelled out as the site page and the
                chapter file and line. Its hints stay in HINTS.md; 'workbook exercises hint' reveals
                them one at a time. When ./wb serve is running, the pages are its addresses.
                """,
            arguments: [currentExerciseArgument],
            options: [bookOption])
    ) { arguments, console in
        let session = try ExerciseSession.open(arguments, console: console)
        let progress = try session.loadProgress()
        let exercise = try session.exercise(arguments[0], progress: progress)
        for line in session.overview(exercise, progress: progress) { console.print(line) }
        return .success
    }
}
