import CommandLineKit
import Dispatch
import FileWatch
import Foundation

/// `workbook exercises watch`: check an exercise, wait for a save in its `Work/` folder, check
/// again; move on to the next exercise when one passes.
///
/// The folder is watched with the live site's ``FolderWatcher`` (inotify on Linux, polling
/// elsewhere) from before the first check, so that a save made while a check runs starts the
/// next one as soon as it ends.
package struct ExerciseWatch {
    package var session: ExerciseSession
    /// How often to look where no change events exist; with inotify, a safety net of a second.
    package var interval: TimeInterval
    package var timeout: TimeInterval
    package var maxChecks: Int
    package var testTimeout: TimeInterval

    package init(
        session: ExerciseSession, interval: TimeInterval, timeout: TimeInterval, maxChecks: Int,
        testTimeout: TimeInterval
    ) {
        (self.session, self.interval, self.timeout, self.maxChecks, self.testTimeout) = (
            session, interval, timeout, maxChecks, testTimeout
        )
    }

    /// Watches from `first` until every exercise is done, the time is up or `maxChecks` ran.
    package func run(from first: Exercise, console: Console) throws {
        let deadline = DispatchTime.now() + timeout
        var checksLeft = maxChecks
        var exercise = first
        try session.ensureWork(exercise)
        var saves = SaveSignal.watching(exercise, interval: interval)
        defer { saves.stop() }
        while true {
            saves.clear()
            checksLeft -= 1
            // On a terminal, each check starts on a clean screen; a log gets plain lines.
            let clear = console.isInteractive ? "\u{1B}[2J\u{1B}[H" : ""
            console.print("\(clear)watch: checking \(exercise.id)")
            if try session.check(exercise, testTimeout: testTimeout) {
                var progress = try session.loadProgress()
                let next = progress.markDone(exercise, in: session.catalog)
                try session.save(progress)
                guard let next else {
                    console.print("watch: every exercise is done")
                    return
                }
                console.print("watch: \(exercise.numberText) is done; moving on to \(next.id)")
                exercise = next
                try session.ensureWork(exercise)
                if checksLeft == 0 { break }
                saves.stop()
                saves = SaveSignal.watching(exercise, interval: interval)
                continue
            }
            if checksLeft == 0 { break }
            console.print("watch: waiting for a change in \(session.display(exercise.work))/ (Ctrl-C stops)")
            guard saves.wait(until: deadline) else {
                console.print("watch: stopped after \(Int(timeout)) s; run it again to go on")
                return
            }
        }
        console.print("watch: stopped (--max-checks reached)")
    }
}

/// A save in an exercise's `Work/` folder, handed from the watcher's thread to the watch loop.
private final class SaveSignal: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private var watcher: FolderWatcher?

    static func watching(_ exercise: Exercise, interval: TimeInterval) -> SaveSignal {
        let signal = SaveSignal()
        let watcher = FolderWatcher(
            root: exercise.work.deletingLastPathComponent(), folders: [exercise.work.lastPathComponent],
            interval: interval, quietPeriod: 0.1
        ) { changed in
            // A Swift file, as the check reads them: an editor's backup or lock file is no save.
            if changed.contains(where: { $0.hasSuffix(".swift") }) { signal.saved() }
        }
        signal.watcher = watcher
        let started = DispatchSemaphore(value: 0)
        watcher.start { started.signal() }
        started.wait()
        return signal
    }

    private func saved() {
        semaphore.signal()
    }

    /// Forgets the saves seen so far: the check about to run reads them.
    func clear() {
        while semaphore.wait(timeout: .now()) == .success {}
    }

    /// Waits for a save (true), or until `deadline` (false).
    func wait(until deadline: DispatchTime) -> Bool {
        semaphore.wait(timeout: deadline) == .success
    }

    func stop() {
        watcher?.stop()
        watcher = nil
    }
}
