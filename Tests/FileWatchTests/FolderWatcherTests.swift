import FileStamps
import Foundation
import TestSupport
import Testing

@testable import FileWatch

private func snapshot(_ files: [String: (Double, Int)]) -> FolderSnapshot {
    FolderSnapshot(
        files: files.mapValues { modified, size in
            FileStamp(
                size: Int64(size), seconds: Int(modified),
                nanoseconds: Int((modified - modified.rounded(.down)) * 1e9))
        })
}

/// The live site rebuilds once a change to the watched files has settled
/// (source: "this book: the live site rebuilds once a change to the watched files has settled"); an
/// exercise's watch re-checks.
@Suite("Watching folders")
struct FolderWatcherTests {
    static let folders = ["chapters", "exercises", "site"]
    static let skipped: Set<String> = [".build", "Work"]

    struct DebounceCase: Sendable, CustomTestStringConvertible {
        var id: String
        var source: String
        /// Snapshots (by name) and the time each is seen.
        var steps: [(snapshot: String, time: Double)]
        /// What each step answers.
        var expected: [[String]?]
        var testDescription: String { id }
    }

    static let snapshots = [
        "initial": snapshot(["chapters/01-a.md": (1, 10)]),
        "edited": snapshot(["chapters/01-a.md": (2, 12)]),
        "edited-again": snapshot(["chapters/01-a.md": (3, 14)]),
        "added": snapshot(["chapters/01-a.md": (1, 10), "site/home.md": (5, 3)]),
    ]

    static let debounceCases: [DebounceCase] = [
        .init(
            id: "nothing-changed",
            source: "this book: the live site rebuilds once a change to the watched files has settled",
            steps: [("initial", 0.15), ("initial", 0.30)], expected: [nil, nil]),
        .init(
            id: "change-then-quiet",
            source: "this book: the live site rebuilds once a change to the watched files has settled",
            steps: [("edited", 0.15), ("edited", 0.18)], expected: [nil, ["chapters/01-a.md"]]),
        .init(
            id: "change-too-soon",
            source: "this book: the live site rebuilds once a change to the watched files has settled",
            steps: [("edited", 0.15), ("edited", 0.16), ("edited", 0.19)],
            expected: [nil, nil, ["chapters/01-a.md"]]),
        .init(
            id: "second-write-restarts-the-wait",
            source: "this book: the live site rebuilds once a change to the watched files has settled",
            steps: [
                ("edited", 0.15), ("edited-again", 0.18), ("edited-again", 0.20), ("edited-again", 0.21),
            ],
            expected: [nil, nil, nil, ["chapters/01-a.md"]]),
        .init(
            id: "change-undone",
            source: "this book: the live site rebuilds once a change to the watched files has settled",
            steps: [("edited", 0.15), ("initial", 0.18), ("initial", 0.30)], expected: [nil, nil, nil]),
        .init(
            id: "file-added",
            source: "this book: the live site rebuilds once a change to the watched files has settled",
            steps: [("added", 0.15), ("added", 0.30), ("added", 0.45)],
            expected: [nil, ["site/home.md"], nil]),
    ]

    @Test(arguments: debounceCases)
    func debouncerRebuildsOnceAChangeHasSettled(_ debounceCase: DebounceCase) throws {
        var debouncer = ChangeDebouncer(initial: try #require(Self.snapshots["initial"]), quietPeriod: 0.03)
        var answers: [[String]?] = []
        for step in debounceCase.steps {
            answers.append(debouncer.observe(try #require(Self.snapshots[step.snapshot]), at: step.time))
        }
        #expect(answers == debounceCase.expected)
    }

    /// The watcher sleeps only for what is left of the quiet period, so a save settles
    /// `quietPeriod` after it was seen, not after the last look.
    @Test func theQuietPeriodLeftIsCountedFromWhenTheChangeWasSeen() throws {
        var debouncer = ChangeDebouncer(initial: try #require(Self.snapshots["initial"]), quietPeriod: 0.03)
        #expect(debouncer.remainingQuiet(at: 0.10) == nil)
        #expect(debouncer.observe(try #require(Self.snapshots["edited"]), at: 0.15) == nil)
        #expect(abs(try #require(debouncer.remainingQuiet(at: 0.16)) - 0.02) < 1e-9)
        #expect(debouncer.observe(try #require(Self.snapshots["edited"]), at: 0.18) == ["chapters/01-a.md"])
        #expect(debouncer.remainingQuiet(at: 0.19) == nil)
    }

    #if os(Linux)
        /// An `inotify_event` record: its header (watch, mask, cookie, name length) and a name
        /// padded to `length` bytes.
        static func event(mask: Int32, name: String = "", length: Int = 0) -> [UInt8] {
            var bytes: [UInt8] = []
            for field in [UInt32(1), UInt32(bitPattern: mask), 0, UInt32(length)] {
                withUnsafeBytes(of: field.littleEndian) { bytes += $0 }
            }
            let padded = Array(name.utf8) + [UInt8](repeating: 0, count: max(0, length - name.utf8.count))
            return bytes + padded
        }

        /// Only a folder made or moved in, or lost events, send the watcher walking for new
        /// watches; a file's save does not.
        @Test func onlyAFolderThatAppearsAsksForNewWatches() {
            let save =
                Self.event(mask: IN_MODIFY, name: "01-a.md", length: 16)
                + Self.event(mask: IN_CLOSE_WRITE, name: "01-a.md", length: 16)
            #expect(!ChangeWaker.foldersAppeared(in: save[...]))
            #expect(
                ChangeWaker.foldersAppeared(
                    in: (save + Self.event(mask: IN_CREATE | IN_ISDIR, name: "part", length: 16))[...]))
            #expect(
                ChangeWaker.foldersAppeared(
                    in: Self.event(mask: IN_MOVED_TO | IN_ISDIR, name: "x", length: 16)[...]))
            #expect(ChangeWaker.foldersAppeared(in: Self.event(mask: IN_Q_OVERFLOW)[...]))
            #expect(
                !ChangeWaker.foldersAppeared(
                    in: Self.event(mask: IN_DELETE | IN_ISDIR, name: "gone", length: 16)[...]))
            #expect(
                !ChangeWaker.foldersAppeared(in: Self.event(mask: IN_CREATE, name: "new.md", length: 16)[...])
            )
        }

        /// An editor that saves in place truncates the file, then writes it: until the close, a
        /// build started from the look would read it half-written, so none starts early.
        @Test func aFileWrittenAndNotYetClosedIsStillBeingWritten() {
            let truncated = Self.event(mask: IN_MODIFY, name: "01-a.md", length: 16)
            let closed = Self.event(mask: IN_CLOSE_WRITE, name: "01-a.md", length: 16)
            let other = Self.event(mask: IN_MODIFY, name: "02-b.md", length: 16)
            #expect(ChangeWaker.stillWriting(in: truncated[...]))
            #expect(!ChangeWaker.stillWriting(in: (truncated + truncated + closed)[...]))
            #expect(ChangeWaker.stillWriting(in: (truncated + closed + other)[...]))
            #expect(
                !ChangeWaker.stillWriting(in: Self.event(mask: IN_MOVED_TO, name: "01-a.md", length: 16)[...])
            )
        }

        /// An editor's swap or lock file is hidden, as a snapshot skips it: events about such
        /// files alone wake no look.
        @Test func eventsAboutHiddenFilesAloneAreNoChange() {
            let swap =
                Self.event(mask: IN_CREATE, name: ".01-a.md.swp", length: 16)
                + Self.event(mask: IN_MODIFY, name: ".01-a.md.swp", length: 16)
            #expect(ChangeWaker.onlyHiddenFiles(in: swap[...]))
            #expect(
                !ChangeWaker.onlyHiddenFiles(
                    in: (swap + Self.event(mask: IN_MODIFY, name: "01-a.md", length: 16))[...]))
            // Lost events name nothing: look.
            #expect(!ChangeWaker.onlyHiddenFiles(in: (swap + Self.event(mask: IN_Q_OVERFLOW))[...]))
            #expect(
                !ChangeWaker.onlyHiddenFiles(in: Self.event(mask: IN_CREATE, name: "4913", length: 16)[...]))
        }
    #endif

    @Test func snapshotSeesTheWatchedFoldersAndSkipsWorkCopies() throws {
        let book = try TemporaryFolder()
        try book.write("chapters/01-greeting.md", "# Greeting\n")
        try book.write("site/home.md", "# Home\n")
        try book.write("exercises/01-say-hello/Work/Sources/x.swift", "let x = 1\n")
        try book.write("Sources/Other/y.swift", "let y = 1\n")
        let before = FolderSnapshot.take(root: book.url, folders: Self.folders, skipping: Self.skipped)
        #expect(before.files.keys.sorted() == ["chapters/01-greeting.md", "site/home.md"])
        try book.write("chapters/01-greeting.md", "# Greeting, edited\n")
        try book.write("exercises/01-say-hello/Work/Sources/x.swift", "let x = 2\n")
        #expect(
            FolderSnapshot.take(root: book.url, folders: Self.folders, skipping: Self.skipped).changedPaths(
                since: before) == ["chapters/01-greeting.md"])
    }

    @Test func watcherCallsBackAfterAnEdit() async throws {
        let book = try TemporaryFolder()
        try book.write("chapters/02-farewell.md", "# Farewell\n")
        let seen = Mailbox<[String]>()
        let watcher = FolderWatcher(
            root: book.url, folders: Self.folders, skipping: Self.skipped, interval: 0.02, quietPeriod: 0.01
        ) { seen.put($0) }
        let started = Mailbox<Bool>()
        watcher.start { started.put(true) }
        defer { watcher.stop() }
        #expect(await started.take() == true)
        try book.write("chapters/02-farewell.md", "# Farewell, edited\n")
        try book.write("exercises/01-say-hello/Work/x.swift", "let x = 2\n")
        #expect(await seen.take() == ["chapters/02-farewell.md"])
    }

    #if os(Linux)
        /// With inotify, a quiet period without an event takes no second look: the change settles
        /// on the look that saw it, so work started from that look read what settled. A write
        /// during the quiet period sends an event, and the change settles on a newer look.
        /// (source: "this book: a save's English build starts during its quiet period and is published only if nothing was written since")
        @Test func aChangeSettlesOnTheLookThatSawItUnlessAnEventCame() async throws {
            let book = try TemporaryFolder()
            try book.write("chapters/01-a.md", "# A\n")
            let seen = Mailbox<Int>()
            let settled = Mailbox<SettledLook>()
            // A long quiet period, so that the test's second write surely falls inside it.
            let watcher = FolderWatcher(
                root: book.url, folders: ["chapters"], interval: 3600, quietPeriod: 1,
                onSeen: { seen.put($0) }, onSettled: { settled.put(SettledLook(paths: $0, look: $1)) })
            let started = Mailbox<Bool>()
            watcher.start { started.put(true) }
            defer { watcher.stop() }
            #expect(watcher.isEventDriven)
            #expect(await started.take() == true)

            // One event a save: a file moved in from outside the watched folder, as editors save.
            func moveIn(_ path: String, _ text: String) throws {
                try book.write("draft.md", text)
                // rename(2), which replaces a file there: FileManager's move refuses to.
                let moved = rename(
                    book.url.appendingPathComponent("draft.md").path,
                    book.url.appendingPathComponent(path).path)
                #expect(moved == 0)
            }
            try moveIn("chapters/02-b.md", "# B\n")
            let look = try #require(await seen.take())
            #expect(await settled.take() == SettledLook(paths: ["chapters/02-b.md"], look: look))

            try moveIn("chapters/03-c.md", "# C\n")
            let first = try #require(await seen.take())
            try moveIn("chapters/03-c.md", "# C, saved again\n")
            let second = try #require(await seen.take())
            #expect(second > first)
            #expect(await settled.take() == SettledLook(paths: ["chapters/03-c.md"], look: second))
        }

        /// With inotify the polling period is only a safety net, here an hour long: a save in a folder
        /// that was deleted and made again at the same path must still wake the watcher at once.
        @Test func aFolderMadeAgainIsWatchedAgain() async throws {
            let book = try TemporaryFolder()
            try book.write("chapters/part/01-a.md", "# A\n")
            let seen = Mailbox<[String]>()
            let watcher = FolderWatcher(
                root: book.url, folders: ["chapters"], interval: 3600, quietPeriod: 0.01
            ) { seen.put($0) }
            let started = Mailbox<Bool>()
            watcher.start { started.put(true) }
            defer { watcher.stop() }
            #expect(watcher.isEventDriven)
            #expect(await started.take() == true)
            try FileManager.default.removeItem(at: book.url.appendingPathComponent("chapters/part"))
            #expect(await seen.take() == ["chapters/part/01-a.md"])
            try FileManager.default.createDirectory(
                at: book.url.appendingPathComponent("chapters/part"), withIntermediateDirectories: true)
            try book.write("chapters/part/02-b.md", "# B\n")
            #expect(await seen.take() == ["chapters/part/02-b.md"])
            try book.write("chapters/part/02-b.md", "# B, edited\n")
            #expect(await seen.take() == ["chapters/part/02-b.md"])
        }
    #endif
}

/// A settled change as the watcher reports it.
private struct SettledLook: Equatable, Sendable {
    var paths: [String]
    var look: Int
}
