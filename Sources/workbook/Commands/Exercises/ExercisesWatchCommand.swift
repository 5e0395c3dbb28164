import CommandLineKit
import Exercises
import Foundation
import LiterateCLI

extension ExercisesCommands {
    static let watch = Command(
        CommandSpec(
            name: "watch",
            abstract: "Check the current exercise on every save; move on when it passes.",
            discussion: """
                Watches the exercise's Work/ folder (the current one, or the one named) and checks
                it whenever a file in it is saved. When the check passes, the exercise is
                marked done and watching moves on to the next one. Stops when every exercise is
                done, after --timeout seconds, after --max-checks checks, or on Ctrl-C. On a
                terminal the screen is cleared before each check; elsewhere the output is plain
                lines.
                """,
            arguments: [currentExerciseArgument],
            options: [
                bookOption, ExerciseSession.buildPathOption, testTimeoutOption,
                OptionSpec(
                    "interval", value: "SECONDS",
                    help: "How often to look for changes where the system cannot tell (default: 1)."),
                OptionSpec(
                    "timeout", value: "SECONDS", help: "Stop watching after this long (default: 7200)."),
                OptionSpec(
                    "max-checks", value: "N", help: "Stop after this many checks (default: no limit)."),
            ])
    ) { arguments, console in
        let session = try ExerciseSession.open(arguments, console: console)
        let interval = try seconds(arguments, "interval", default: 1, command: "watch")
        let timeout = try seconds(arguments, "timeout", default: 7200, command: "watch")
        let testTimeout = try testTimeout(arguments, command: "watch")
        var checksLeft = Int.max
        if let text = arguments.value("max-checks") {
            guard let count = Int(text), count > 0 else {
                throw CommandError.usage(
                    "--max-checks needs a positive number", command: ["workbook", "exercises", "watch"])
            }
            checksLeft = count
        }
        let progress = try session.loadProgress()
        let named = try arguments[0].map { try session.exercise($0, progress: progress) }
        guard let exercise = named ?? progress.currentExercise(in: session.catalog) else {
            console.print("watch: every exercise is done")
            return .success
        }
        try ExerciseWatch(
            session: session, interval: interval, timeout: timeout, maxChecks: checksLeft,
            testTimeout: testTimeout
        ).run(from: exercise, console: console)
        return .success
    }
}
