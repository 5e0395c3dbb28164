import Foundation

/// Watches folders on a thread of its own and calls `onChange` after each settled change: the
/// live site's book, and an exercise's `Work/` folder.
///
/// What changed is always decided by comparing snapshots (modification times and sizes), which
/// works everywhere and cannot miss an edit. *When* to look is the question: polling every
/// 150 ms would leave a save waiting 75 ms on average before anything happens, a third of the
/// 200 ms a save may take to reach the browser. So on Linux the watcher sleeps on inotify
/// (through Glibc: no package needed) and looks the moment a file in a watched folder is
/// written, moved or removed; it still looks once a second in case the kernel dropped events
/// (its queue can overflow). Elsewhere it polls every `interval`. After a change it looks again
/// after the short `quietPeriod` instead, and rebuilds once two looks agree.
package final class FolderWatcher: @unchecked Sendable {
    let root: URL
    let folders: [String]
    let skipped: Set<String>
    let interval: Double
    let quietPeriod: Double
    private let onChange: @Sendable ([String]) -> Void
    private let waker: ChangeWaker
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var thread: Thread?
    private var stopped = false

    /// `interval` is the polling period where inotify is missing; with inotify it is a safety
    /// net of at least a second.
    package init(
        root: URL, folders: [String], skipping skipped: Set<String> = [], interval: Double = 0.15,
        quietPeriod: Double = 0.025, onChange: @escaping @Sendable ([String]) -> Void
    ) {
        self.root = root
        self.folders = folders
        self.skipped = skipped
        self.waker = ChangeWaker(root: root, folders: folders, skipping: skipped)
        self.interval = waker.isEventDriven ? max(interval, 1) : interval
        self.quietPeriod = quietPeriod
        self.onChange = onChange
    }

    /// True when inotify wakes the watcher; false when it polls.
    package var isEventDriven: Bool { waker.isEventDriven }

    /// Starts the watcher's thread: it takes the first snapshot (changes from then on count),
    /// runs `first` (the initial build, so that it never overlaps a rebuild), then watches.
    package func start(first: @escaping @Sendable () -> Void = {}) {
        let thread = Thread { [self] in
            waker.watchFolders()
            var debouncer = ChangeDebouncer(
                initial: snapshot(), quietPeriod: quietPeriod)
            first()
            let clock = ContinuousClock()
            let origin = clock.now
            while true {
                // While a change settles, wake when its quiet period is over, not a whole period
                // after the last look.
                let before = (clock.now - origin) / .seconds(1)
                let settling = debouncer.remainingQuiet(at: before)
                let wait = settling.map { max($0, 0.001) } ?? interval
                let woken = waker.wait(seconds: wait)
                if woken == .stop { break }
                // A folder made (a new exercise) or made again needs a watch of its own before
                // the look: what is saved in it from then on wakes the watcher, and what was saved
                // before is in the snapshot.
                if woken == .change(foldersAppeared: true) { waker.watchFolders() }
                let now = (clock.now - origin) / .seconds(1)
                let look = snapshot()
                // A change no event told of (in a watched folder made after the start, which no
                // watch covers yet), seen on an idle look: walk for new watches.
                if woken == .timeout, settling == nil, look != debouncer.settled { waker.watchFolders() }
                if let changed = debouncer.observe(look, at: now) {
                    // The rebuild runs here, on the watcher's thread: changes made meanwhile are
                    // seen by the next look and give one more rebuild, never a pile of them.
                    onChange(changed)
                }
            }
            waker.close()
            finished.signal()
        }
        thread.name = "workbook-folder-watcher"
        lock.lock()
        self.thread = thread
        lock.unlock()
        thread.start()
    }

    /// Stops watching and waits (up to `timeout` seconds) for a rebuild in progress to end.
    package func stop(timeout: Double = 10) {
        lock.lock()
        let running = thread != nil && !stopped
        stopped = true
        lock.unlock()
        guard running else { return }
        waker.stop()
        _ = finished.wait(timeout: .now() + timeout)
    }

    /// What the watched folders hold now.
    package func snapshot() -> FolderSnapshot {
        FolderSnapshot.take(root: root, folders: folders, skipping: skipped)
    }
}
