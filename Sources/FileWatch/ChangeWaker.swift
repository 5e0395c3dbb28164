import FileStamps
import Foundation

/// Wakes the watcher: when a watched folder changes (inotify, on Linux), when it is stopped, or
/// after a timeout.
final class ChangeWaker: @unchecked Sendable {
    enum Wake: Equatable {
        case timeout
        /// Something changed; `foldersAppeared` when a folder was made or moved in (or events
        /// were lost), so that the folders need watches of their own.
        case change(foldersAppeared: Bool)
        case stop
    }

    let root: URL
    let folders: [String]
    let skipped: Set<String>
    private let lock = NSLock()
    private var stopped = false
    /// Set by ``close()``: the descriptors are gone, and their numbers may name other files.
    private var closed = false
    private let stopSignal = DispatchSemaphore(value: 0)
    #if os(Linux)
        private let inotify: Int32
        /// Written once by ``stop()``, so that a `poll` in progress returns at once.
        private var stopPipe: [Int32] = [-1, -1]
        /// The watch descriptors held. A folder replaced by a new one at the same path (a reset
        /// exercise, a checkout) gets a descriptor of its own, so the path alone cannot say.
        private var watches: Set<Int32> = []
    #endif

    init(root: URL, folders: [String], skipping skipped: Set<String>) {
        self.root = root
        self.folders = folders
        self.skipped = skipped
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
    /// skips). Cheap to repeat: inotify gives a folder already watched the watch it has.
    func watchFolders() {
        #if os(Linux)
            guard isEventDriven else { return }
            let mask = UInt32(
                IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
            var queue = folders
            let rootPath = root.path
            while let folder = queue.popLast(), watches.count < 4096 {
                let path = rootPath + "/" + folder
                guard let entries = FolderEntries.read(path) else { continue }
                let watch = inotify_add_watch(inotify, path, mask)
                if watch >= 0 { watches.insert(watch) }
                for entry in entries where entry.isFolder && !skipped.contains(entry.name) {
                    queue.append(folder + "/" + entry.name)
                }
            }
        #endif
    }

    /// Whether the last ``wait(seconds:)`` that saw a change ended on a file written and not yet
    /// closed (an editor that truncates the file, then writes it): work started then would read
    /// it half-written. Only the watcher's thread reads it.
    private(set) var lastWakeStillWriting = false

    /// Waits up to `seconds` for a change or a stop.
    func wait(seconds: Double) -> Wake {
        if lock.withLock({ stopped }) { return .stop }
        #if os(Linux)
            if isEventDriven {
                let deadline = ContinuousClock.now + .seconds(seconds)
                while true {
                    let left = (deadline - ContinuousClock.now) / .seconds(1)
                    var descriptors = [
                        pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                        pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0),
                    ]
                    // Rounded up: waking a millisecond early would cost one more look.
                    let ready = poll(&descriptors, 2, Int32((max(left, 0) * 1000).rounded(.up)))
                    if descriptors[1].revents != 0 || lock.withLock({ stopped }) { return .stop }
                    guard ready > 0 else { return .timeout }
                    // The events only say "look now" (the snapshot says what changed), and whether
                    // a folder appeared: only then are the folders walked for new watches.
                    var buffer = [UInt8](repeating: 0, count: 16_384)
                    var events: [UInt8] = []
                    while true {
                        let count = read(inotify, &buffer, buffer.count)
                        guard count > 0 else { break }
                        events += buffer[..<count]
                    }
                    let foldersAppeared = Self.foldersAppeared(in: events[...])
                    // An editor's swap or lock file (`.01-a.md.swp`) is in no snapshot: it wakes
                    // no look, nor the early build a look starts. Wait for the time left.
                    guard Self.onlyHiddenFiles(in: events[...]), !foldersAppeared else {
                        lastWakeStillWriting = Self.stillWriting(in: events[...])
                        return .change(foldersAppeared: foldersAppeared)
                    }
                }
            }
        #endif
        return stopSignal.wait(timeout: .now() + seconds) == .success ? .stop : .timeout
    }

    #if os(Linux)
        /// Whether the `inotify_event` records in `bytes` tell of a folder made or moved in, or
        /// of events lost (the queue overflowed).
        static func foldersAppeared(in bytes: ArraySlice<UInt8>) -> Bool {
            var appeared = false
            forEachEvent(in: bytes) { mask, _ in
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { appeared = true }
                if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                    appeared = true
                }
            }
            return appeared
        }

        /// Whether every `inotify_event` record in `bytes` names a hidden file (one a snapshot
        /// skips). A record without a name (events were lost) is not hidden.
        static func onlyHiddenFiles(in bytes: ArraySlice<UInt8>) -> Bool {
            var hidden = true
            forEachEvent(in: bytes) { _, firstByte in
                if firstByte != UInt8(ascii: ".") { hidden = false }
            }
            return hidden
        }

        /// Whether a file's last record in `bytes` is a write (`IN_MODIFY`) that no close, move or
        /// removal followed: the writer may not be done.
        static func stillWriting(in bytes: ArraySlice<UInt8>) -> Bool {
            var writing: [[UInt8]: Bool] = [:]
            forEachRecord(in: bytes) { watch, mask, name in
                let key = withUnsafeBytes(of: watch) { Array($0) } + name
                if mask & UInt32(IN_MODIFY) != 0 { writing[key] = true }
                if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE) != 0 {
                    writing[key] = false
                }
            }
            return writing.values.contains(true)
        }

        /// Calls `body` with each record's mask and the first byte of its name (nil without one).
        private static func forEachEvent(in bytes: ArraySlice<UInt8>, _ body: (UInt32, UInt8?) -> Void) {
            forEachRecord(in: bytes) { _, mask, name in body(mask, name.first) }
        }

        /// Calls `body` with each record's watch, mask and name (its bytes before the padding).
        private static func forEachRecord(
            in bytes: ArraySlice<UInt8>, _ body: (Int32, UInt32, ArraySlice<UInt8>) -> Void
        ) {
            let header = MemoryLayout<inotify_event>.size
            var offset = bytes.startIndex
            while offset + header <= bytes.endIndex {
                let (watch, mask, length) = bytes.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                    let start = offset - bytes.startIndex
                    return (
                        raw.loadUnaligned(fromByteOffset: start, as: Int32.self),
                        raw.loadUnaligned(fromByteOffset: start + 4, as: UInt32.self),
                        Int(raw.loadUnaligned(fromByteOffset: start + 12, as: UInt32.self))
                    )
                }
                let nameStart = offset + header
                let nameEnd = min(nameStart + length, bytes.endIndex)
                let name = nameStart < nameEnd ? bytes[nameStart..<nameEnd] : bytes[nameEnd..<nameEnd]
                body(watch, mask, name.prefix { $0 != 0 })
                offset += header + length
            }
        }
    #endif

    /// Under the lock that ``close()`` takes, so that the byte never goes to a descriptor the
    /// watcher's thread has closed meanwhile (its number may name a client's socket by then).
    func stop() {
        lock.withLock {
            stopped = true
            #if os(Linux)
                if !closed, stopPipe[1] >= 0 {
                    var byte: UInt8 = 1
                    _ = write(stopPipe[1], &byte, 1)
                }
            #endif
        }
        stopSignal.signal()
    }

    /// Releases the inotify descriptor and the pipe (after the watcher's thread is done).
    func close() {
        lock.withLock {
            closed = true
            #if os(Linux)
                for descriptor in [inotify] + stopPipe where descriptor >= 0 { Glibc.close(descriptor) }
            #endif
        }
    }
}
