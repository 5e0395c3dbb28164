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
                Polls the Swift files in the exercise's Work/ folder (the current one, or the one
                named) and checks it whenever one changes. When the check passes, the exercise is
                marked done and watching moves on to the next one. Stops when every exercise is
                done, after --timeout seconds, after --max-checks checks, or on Ctrl-C. On a
                terminal the screen is cleared before each check; elsewhere the output is plain
                lines.
                """,
            arguments: [
                ArgumentSpec(
                    "exercise", optional: true, help: "A number, folder name or slug (default: current).")
            ],
            options: [
                bookOption, ExerciseSession.buildPathOption, testTimeoutOption,
                OptionSpec("interval", value: "SECONDS", help: "How often to look for changes (default: 1)."),
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
        let deadline = Date().addingTimeInterval(timeout)
        var progress = try session.loadProgress()
        let named = try arguments[0].map { try session.exercise($0, progress: progress) }
        guard var exercise = named ?? progress.currentExercise(in: session.catalog) else {
            console.print("watch: every exercise is done")
            return .success
        }
        try session.ensureWork(exercise)
        var seen: [String: Date]?
        while Date() < deadline {
            let snapshot = modificationTimes(exercise.work)
            if snapshot != seen {
                checksLeft -= 1
                seen = snapshot
                // On a terminal, each check starts on a clean screen; a log gets plain lines.
                let clear = console.isInteractive ? "\u{1B}[2J\u{1B}[H" : ""
                console.print("\(clear)watch: checking \(exercise.id)")
                if try session.check(exercise, testTimeout: testTimeout) {
                    progress = try session.loadProgress()
                    let next = progress.markDone(exercise, in: session.catalog)
                    try session.save(progress)
                    guard let next else {
                        console.print("watch: every exercise is done")
                        return .success
                    }
                    console.print("watch: \(exercise.numberText) is done; moving on to \(next.id)")
                    exercise = next
                    try session.ensureWork(exercise)
                    seen = nil
                } else if checksLeft > 0 {
                    console.print(
                        "watch: waiting for a change in \(session.display(exercise.work))/ (Ctrl-C stops)")
                }
                if checksLeft == 0 {
                    console.print("watch: stopped (--max-checks reached)")
                    return .success
                }
                continue
            }
            Thread.sleep(forTimeInterval: interval)
        }
        console.print("watch: stopped after \(Int(timeout)) s; run it again to go on")
        return .success
    }

    /// The Swift files of a folder and their modification times: a change in the map is a save.
    static func modificationTimes(_ folder: URL) -> [String: Date] {
        var times: [String: Date] = [:]
        for file in GeneratedPackage.swiftFiles(in: folder) {
            let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
            times[file.path] = attributes?[.modificationDate] as? Date ?? .distantPast
        }
        return times
    }
}
