import Foundation

/// Watches folders on a thread of its own and calls `onSettled` after each settled change: the
/// live site's book, and an exercise's `Work/` folder.
///
/// What changed is always decided by comparing snapshots (modification times and sizes), which
/// works everywhere and cannot miss an edit. *When* to look is the question: polling every
/// 150 ms would leave a save waiting 75 ms on average before anything happens, a third of the
/// 200 ms a save may take to reach the browser. So on Linux the watcher sleeps on inotify
/// (through Glibc: no package needed) and looks the moment a file in a watched folder is
/// written, moved or removed; it still looks once a second in case the kernel dropped events
/// (its queue can overflow). Elsewhere it polls every `interval`. After a change it waits out the
/// short `quietPeriod` instead, and calls back once the change has stayed the same for that long.
///
/// Polling, that takes a second look. With inotify, a quiet period that passes without an event
/// needs none: nothing in the watched folders was written, moved or removed since the first look,
/// so that look is still what they hold (a look of this book's 700 files takes about 5 ms).
///
/// The looks are numbered. With inotify, `onSeen` hears of each look about to be taken after an
/// event (or taken on an idle look that found a change): work started from then on (the live
/// site's English build) read what the change settles on if `onSettled` names that same look,
/// because any write after it would have sent an event, and so a newer look.
package final class FolderWatcher: @unchecked Sendable {
    let root: URL
    let folders: [String]
    let skipped: Set<String>
    let interval: Double
    let quietPeriod: Double
    private let onSeen: (@Sendable (_ look: Int) -> Void)?
    private let onSettled: @Sendable (_ changed: [String], _ look: Int) -> Void
    private let waker: ChangeWaker
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var thread: Thread?
    private var stopped = false

    /// `interval` is the polling period where inotify is missing; with inotify it is a safety
    /// net of at least a second.
    ///
    /// `onSettled` gets the changed paths and the number of the look they settled on; `onSeen`,
    /// with inotify only, the number of each look that may see a change (nil: not told). Both
    /// run on the watcher's thread, which goes on only once they return.
    package init(
        root: URL, folders: [String], skipping skipped: Set<String> = [], interval: Double = 0.15,
        quietPeriod: Double = 0.025, onSeen: (@Sendable (_ look: Int) -> Void)? = nil,
        onSettled: @escaping @Sendable (_ changed: [String], _ look: Int) -> Void
    ) {
        self.root = root
        self.folders = folders
        self.skipped = skipped
        self.waker = ChangeWaker(root: root, folders: folders, skipping: skipped)
        self.interval = waker.isEventDriven ? max(interval, 1) : interval
        self.quietPeriod = quietPeriod
        self.onSeen = onSeen
        self.onSettled = onSettled
    }

    /// A watcher that only needs the changed paths of each settled change.
    package convenience init(
        root: URL, folders: [String], skipping skipped: Set<String> = [], interval: Double = 0.15,
        quietPeriod: Double = 0.025, onChange: @escaping @Sendable ([String]) -> Void
    ) {
        self.init(
            root: root, folders: folders, skipping: skipped, interval: interval, quietPeriod: quietPeriod,
            onSettled: { changed, _ in onChange(changed) })
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
            var looks = LookCount()
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
                let look: FolderSnapshot
                let reused = looks.last != nil && woken == .timeout && settling != nil && waker.isEventDriven
                // An event: the look about to be taken will likely see a change, and work started
                // from it need not wait for the look itself (whatever is written from now on
                // sends another event, and so another look). Not while a file is still being
                // written: its close will wake the watcher again.
                let announced = woken != .timeout && waker.isEventDriven && !waker.lastWakeStillWriting
                if announced { onSeen?(looks.number + 1) }
                if reused, let last = looks.last {
                    look = last
                } else {
                    look = snapshot()
                    looks.took(look)
                }
                // A change no event told of (in a watched folder made after the start, which no
                // watch covers yet), seen on an idle look: walk for new watches.
                if woken == .timeout, settling == nil, look != debouncer.settled { waker.watchFolders() }
                if let changed = debouncer.observe(look, at: now) {
                    // The rebuild runs here, on the watcher's thread: changes made meanwhile are
                    // seen by the next look and give one more rebuild, never a pile of them.
                    onSettled(changed, looks.number)
                } else if woken == .timeout, !reused, debouncer.isWaiting, waker.isEventDriven {
                    // A change no event told of, seen on an idle look.
                    onSeen?(looks.number)
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

/// The watcher's looks: how many it took, and the last one.
private struct LookCount {
    private(set) var number = 0
    private(set) var last: FolderSnapshot?

    mutating func took(_ look: FolderSnapshot) {
        number += 1
        last = look
    }
}
