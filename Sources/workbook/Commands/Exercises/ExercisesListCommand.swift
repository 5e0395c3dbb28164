import CommandLineKit
import Exercises
import Foundation
import LiterateCLI

extension ExercisesCommands {
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
}
