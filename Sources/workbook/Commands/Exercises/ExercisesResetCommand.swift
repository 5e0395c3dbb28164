import CommandLineKit
import Exercises
import Foundation
import LiterateCLI

extension ExercisesCommands {
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
        if let backup = try session.setWorkAside(exercise) {
            console.print("moved your previous work to \(session.display(backup))/")
        }
        try FileManager.default.copyItem(at: exercise.starter, to: exercise.work)
        progress.done.removeAll { $0 == exercise.id }
        try session.save(progress)
        console.print("restored \(session.display(exercise.work))/ from Starter/")
        return .success
    }
}
