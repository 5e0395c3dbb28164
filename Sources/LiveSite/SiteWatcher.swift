import Foundation

/// A file's modification time and size: what polling compares.
package struct FileStamp: Equatable, Sendable {
    var modified: Double
    var size: Int
}

/// The files under a few folders of the book, each with its stamp, keyed by path relative to
/// the book (`chapters/08-the-track-open-protocol.md`).
package struct FolderSnapshot: Equatable, Sendable {
    var files: [String: FileStamp] = [:]

    /// The folders `workbook serve` watches: what the site is woven from.
    static let watchedFolders = ["chapters", "exercises", "site"]

    /// Folders never looked into: an exercise's `Work/` copy and build products change often and
    /// are not part of the site. A folder past `limit` files stops the walk, so that a huge
    /// tree dropped into the book cannot make every poll slow.
    static let skippedFolders: Set<String> = [".build", "Work", ".git", "node_modules"]
    static let limit = 20_000

    /// Reads the stamps of every file under `folders` (missing folders are empty).
    static func take(root: URL, folders: [String] = watchedFolders) -> FolderSnapshot {
        var snapshot = FolderSnapshot()
        var queue = folders
        while let folder = queue.popLast(), snapshot.files.count < limit {
            let url = root.appendingPathComponent(folder)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { continue }
            for name in names where !name.hasPrefix(".") {
                let path = folder + "/" + name
                var info = stat()
                guard stat(root.appendingPathComponent(path).path, &info) == 0 else { continue }
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    if !skippedFolders.contains(name) { queue.append(path) }
                } else {
                    let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
                    snapshot.files[path] = FileStamp(modified: modified, size: Int(info.st_size))
                }
            }
        }
        return snapshot
    }

    /// The paths added, removed or changed since `earlier`, sorted.
    func changedPaths(since earlier: FolderSnapshot) -> [String] {
        var changed = Set<String>()
        for (path, stamp) in files where earlier.files[path] != stamp { changed.insert(path) }
        for path in earlier.files.keys where files[path] == nil { changed.insert(path) }
        return changed.sorted()
    }
}

/// Decides when a change is worth a rebuild, from snapshots and the times they were taken.
///
/// An editor's save can take several writes (a temporary file, a rename, a second write of the
/// metadata); rebuilding on the first would weave a half-saved chapter. So a new snapshot
/// becomes a rebuild only once it has stayed the same for `quietPeriod`. Pure: tests feed it
/// snapshots and times.
///
/// ```swift
/// var debouncer = ChangeDebouncer(initial: snapshot, quietPeriod: 0.03)
/// debouncer.observe(edited, at: 1.00)   // nil: just seen
/// debouncer.observe(edited, at: 1.04)   // ["chapters/08-the-track-open-protocol.md"]: rebuild
/// ```
package struct ChangeDebouncer: Sendable {
    var quietPeriod: Double
    /// What the last rebuild saw.
    private(set) var settled: FolderSnapshot
    private var candidate: FolderSnapshot?
    private var candidateSince = 0.0

    init(initial: FolderSnapshot, quietPeriod: Double) {
        self.settled = initial
        self.quietPeriod = quietPeriod
    }

    /// True while a change waits out its quiet period (the watcher then looks again sooner).
    var isWaiting: Bool { candidate != nil }

    /// Feeds one snapshot; returns the changed paths when a rebuild should start now.
    mutating func observe(_ snapshot: FolderSnapshot, at time: Double) -> [String]? {
        if snapshot == settled {
            candidate = nil
            return nil
        }
        guard snapshot == candidate else {
            candidate = snapshot
            candidateSince = time
            return nil
        }
        guard time - candidateSince >= quietPeriod else { return nil }
        let changed = snapshot.changedPaths(since: settled)
        settled = snapshot
        candidate = nil
        return changed
    }
}

/// Watches the book's folders on a thread of its own and calls `onChange` after each settled
/// change.
///
/// What changed is always decided by comparing snapshots (modification times and sizes), which
/// works everywhere and cannot miss an edit. *When* to look is the question: polling every
/// 150 ms would leave a save waiting 75 ms on average before anything happens, a third of the
/// 200 ms a save may take to reach the browser. So on Linux the watcher sleeps on inotify
/// (through Glibc: no package needed) and looks the moment a file in a watched folder is
/// written, moved or removed; it still looks once a second in case the kernel dropped events
/// (its queue can overflow). Elsewhere it polls every `interval`. After a change it looks again
/// after the short `quietPeriod` instead, and rebuilds once two looks agree.
package final class SiteWatcher: @unchecked Sendable {
    let root: URL
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
    init(
        root: URL, interval: Double = 0.15, quietPeriod: Double = 0.025,
        onChange: @escaping @Sendable ([String]) -> Void
    ) {
        self.root = root
        self.waker = ChangeWaker(root: root, folders: FolderSnapshot.watchedFolders)
        self.interval = waker.isEventDriven ? max(interval, 1) : interval
        self.quietPeriod = quietPeriod
        self.onChange = onChange
    }

    /// Starts the watcher's thread: it takes the first snapshot (changes from then on count),
    /// runs `first` (the initial build, so that it never overlaps a rebuild), then watches.
    func start(first: @escaping @Sendable () -> Void = {}) {
        let thread = Thread { [self] in
            waker.watchFolders()
            var debouncer = ChangeDebouncer(
                initial: FolderSnapshot.take(root: root), quietPeriod: quietPeriod)
            first()
            let clock = ContinuousClock()
            let origin = clock.now
            while true {
                let wait = debouncer.isWaiting ? quietPeriod : interval
                if waker.wait(seconds: wait) == .stop { break }
                let elapsed = (clock.now - origin).components
                let now = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
                let snapshot = FolderSnapshot.take(root: root)
                if let changed = debouncer.observe(snapshot, at: now) {
                    // New folders (a new exercise) need watches of their own.
                    waker.watchFolders()
                    // The rebuild runs here, on the watcher's thread: changes made meanwhile are
                    // seen by the next look and give one more rebuild, never a pile of them.
                    onChange(changed)
                }
            }
            waker.close()
            finished.signal()
        }
        thread.name = "workbook-site-watcher"
        lock.lock()
        self.thread = thread
        lock.unlock()
        thread.start()
    }

    /// Stops watching and waits (up to `timeout` seconds) for a rebuild in progress to end.
    func stop(timeout: Double = 10) {
        lock.lock()
        let running = thread != nil && !stopped
        stopped = true
        lock.unlock()
        guard running else { return }
        waker.stop()
        _ = finished.wait(timeout: .now() + timeout)
    }
}

/// Wakes the watcher: when a watched folder changes (inotify, on Linux), when it is stopped, or
/// after a timeout.
package final class ChangeWaker: @unchecked Sendable {
    enum Wake: Equatable {
        case timeout
        case change
        case stop
    }

    let root: URL
    let folders: [String]
    private let lock = NSLock()
    private var stopped = false
    private let stopSignal = DispatchSemaphore(value: 0)
    #if os(Linux)
        private let inotify: Int32
        /// Written once by ``stop()``, so that a `poll` in progress returns at once.
        private var stopPipe: [Int32] = [-1, -1]
        private var watched: Set<String> = []
    #endif

    init(root: URL, folders: [String]) {
        self.root = root
        self.folders = folders
        #if os(Linux)
            inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            if inotify >= 0 { _ = pipe(&stopPipe) }
        #endif
    }

    /// True when changes wake the watcher at once; false when it must poll.
    var isEventDriven: Bool {
        #if os(Linux)
            return inotify >= 0 && stopPipe[0] >= 0
        #else
            return false
        #endif
    }

    /// Adds a watch on every folder under the watched ones (skipping the same folders a snapshot
    /// skips). Cheap to repeat: a folder already watched keeps its watch.
    func watchFolders() {
        #if os(Linux)
            guard isEventDriven else { return }
            let mask = UInt32(
                IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
            var queue = folders
            while let folder = queue.popLast(), watched.count < 4096 {
                let path = root.appendingPathComponent(folder).path
                var info = stat()
                guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
                if !watched.contains(path), inotify_add_watch(inotify, path, mask) >= 0 {
                    watched.insert(path)
                }
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                for name in names where !name.hasPrefix(".") && !FolderSnapshot.skippedFolders.contains(name)
                {
                    queue.append(folder + "/" + name)
                }
            }
        #endif
    }

    /// Waits up to `seconds` for a change or a stop.
    func wait(seconds: Double) -> Wake {
        if lock.withLock({ stopped }) { return .stop }
        #if os(Linux)
            if isEventDriven {
                var descriptors = [
                    pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0),
                ]
                let ready = poll(&descriptors, 2, Int32(seconds * 1000))
                if descriptors[1].revents != 0 || lock.withLock({ stopped }) { return .stop }
                guard ready > 0 else { return .timeout }
                // The events only say "look now"; the snapshot says what changed.
                var buffer = [UInt8](repeating: 0, count: 16_384)
                while read(inotify, &buffer, buffer.count) > 0 {}
                return .change
            }
        #endif
        return stopSignal.wait(timeout: .now() + seconds) == .success ? .stop : .timeout
    }

    func stop() {
        lock.withLock { stopped = true }
        stopSignal.signal()
        #if os(Linux)
            if stopPipe[1] >= 0 {
                var byte: UInt8 = 1
                _ = write(stopPipe[1], &byte, 1)
            }
        #endif
    }

    /// Releases the inotify descriptor and the pipe (after the watcher's thread is done).
    func close() {
        #if os(Linux)
            for descriptor in [inotify] + stopPipe where descriptor >= 0 { Glibc.close(descriptor) }
        #endif
    }
}
