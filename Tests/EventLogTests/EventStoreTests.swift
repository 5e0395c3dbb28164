import Foundation
import ProcessRunner
import TestSupport
import Testing

@testable import EventLog

private func temporaryDatabase() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString).sqlite").path
}

private func removeDatabase(_ path: String) {
    for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
    }
}

private let fixedDate = Date(timeIntervalSince1970: 1_790_000_000.123_9)

@Suite("Event store")
struct EventStoreTests {
    @Test func inMemoryStoreReturnsNewestFirst() async throws {
        let store = InMemoryEventStore()
        let first = await store.append(NewEvent(type: "open", at: fixedDate, json: Data(#"{"n":1}"#.utf8)))
        let second = await store.append(NewEvent(type: "lead", at: fixedDate, json: Data(#"{"n":2}"#.utf8)))
        #expect(
            first
                == StoredEvent(
                    id: 1, type: "open", at: Date(timeIntervalSince1970: 1_790_000_000.123),
                    json: Data(#"{"n":1}"#.utf8)))
        #expect(try await store.recent(limit: 10) == [second, first])
        #expect(try await store.recent(limit: 1) == [second])
    }

    @Test(arguments: SQLiteEventStore.Durability.allCases)
    func sqliteStoreRoundTripsWholeEvents(_ durability: SQLiteEventStore.Durability) async throws {
        let path = temporaryDatabase()
        defer { removeDatabase(path) }
        let store = try SQLiteEventStore(path: path, durability: durability)
        let first = try await store.append(
            NewEvent(type: "open", at: fixedDate, json: Data(#"{"clickId":"a"}"#.utf8)))
        let empty = try await store.append(NewEvent(type: "empty", at: fixedDate, json: Data()))
        let third = try await store.append(NewEvent(type: "sale", at: fixedDate, json: Data([0x00, 0xFF])))
        #expect(
            first
                == StoredEvent(
                    id: 1, type: "open", at: Date(timeIntervalSince1970: 1_790_000_000.123),
                    json: Data(#"{"clickId":"a"}"#.utf8)))
        #expect(try await store.recent(limit: 10) == [third, empty, first])
        #expect(try await store.recent(limit: 2) == [third, empty])
        await store.close()
    }

    /// Both stores page the same way: newest first, `before` a previous page's last id, and a
    /// page that ends the log says so.
    @Test(arguments: ["memory", "sqlite"])
    func pagesWalkTheWholeLogOnceNewestFirst(_ kind: String) async throws {
        let path = temporaryDatabase()
        defer { removeDatabase(path) }
        let store: any EventStore = kind == "memory" ? InMemoryEventStore() : try SQLiteEventStore(path: path)
        for index in 1...5 {
            try await store.append(NewEvent(type: "open", at: fixedDate, json: Data("{\"n\":\(index)}".utf8)))
        }
        var pages: [[Int64]] = []
        var before: Int64?
        for _ in 0..<10 {
            let page = try await store.page(before: before, limit: 2)
            #expect(page.total == 5)
            pages.append(page.events.map(\.id))
            guard page.hasMore else { break }
            before = page.events.last?.id
        }
        #expect(pages == [[5, 4], [3, 2], [1]])
        #expect(try await store.page(before: 1, limit: 2) == EventPage(events: [], hasMore: false, total: 5))
        #expect(try await store.page(before: 99, limit: 1).events.map(\.id) == [5])
        if let sqlite = store as? SQLiteEventStore { await sqlite.close() }
    }

    @Test func eventsSurviveClosingAndReopening() async throws {
        let path = temporaryDatabase()
        defer { removeDatabase(path) }
        let store = try SQLiteEventStore(path: path)
        let appended = try await store.append(NewEvent(type: "open", at: fixedDate, json: Data("{}".utf8)))
        await store.close()
        let reopened = try SQLiteEventStore(path: path)
        #expect(try await reopened.recent(limit: 5) == [appended])
        let next = try await reopened.append(NewEvent(type: "open", at: fixedDate, json: Data("{}".utf8)))
        #expect(next.id == appended.id + 1)
        await reopened.close()
    }

    @Test func closedStoreRefusesAppends() async throws {
        let path = temporaryDatabase()
        defer { removeDatabase(path) }
        let store = try SQLiteEventStore(path: path)
        await store.close()
        await #expect(throws: SQLiteError(code: 21, message: "the event store is closed")) {
            try await store.append(NewEvent(type: "open", at: fixedDate, json: Data("{}".utf8)))
        }
    }

    @Test func logIsAppendOnly() async throws {
        let path = temporaryDatabase()
        defer { removeDatabase(path) }
        let store = try SQLiteEventStore(path: path)
        try await store.append(NewEvent(type: "open", at: fixedDate, json: Data("{}".utf8)))
        await store.close()
        let connection = try Connection(path: path)
        defer { connection.close() }
        #expect(throws: SQLiteError.self) { try connection.execute("UPDATE events SET type = 'x'") }
        #expect(throws: SQLiteError.self) { try connection.execute("DELETE FROM events") }
    }

    @Test func concurrentAppendsAreAllStoredOnce() async throws {
        let path = temporaryDatabase()
        defer { removeDatabase(path) }
        let store = try SQLiteEventStore(path: path, durability: .powerLoss)
        let ids = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for task in 0..<16 {
                group.addTask {
                    var ids: [Int64] = []
                    for index in 0..<125 {
                        let json = Data(#"{"task":\#(task),"index":\#(index)}"#.utf8)
                        ids.append(
                            try await store.append(NewEvent(type: "open", at: fixedDate, json: json)).id)
                    }
                    return ids
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(ids.count == 2000)
        #expect(Set(ids) == Set(1...2000))
        let stored = try await store.recent(limit: 5000)
        #expect(stored.map(\.id) == Array((1...2000).reversed()))
        #expect(store.commitCount <= 2000)
        await store.close()
    }
}

/// Runs the probe executable, kills it with SIGKILL after it acknowledged some appends, and
/// checks that every acknowledged event is in the file. Bounded: at most 300 acknowledgements
/// are waited for, and a watchdog kills the probe after 20 seconds whatever happens.
@Suite("Event store durability")
struct EventStoreCrashTests {
    static var probeURL: URL? {
        let probe = CommandRunner.productsDirectory.appendingPathComponent("EventLogProbe")
        return FileManager.default.isExecutableFile(atPath: probe.path) ? probe : nil
    }

    @Test(arguments: SQLiteEventStore.Durability.allCases)
    func everyAcknowledgedAppendSurvivesKill9(_ durability: SQLiteEventStore.Durability) async throws {
        let probe = try #require(Self.probeURL, "EventLogProbe must be built beside the tests")
        let path = temporaryDatabase()
        defer { removeDatabase(path) }

        let (acknowledged, ending) = try await offPool {
            () throws -> ([Int64], ChildProcess.Termination?) in
            let child = try ChildProcess(
                probe.path, ["append", path, durability.rawValue, "8", "100000"], output: .pipe,
                errors: .discarded)
            let watchdog = DispatchWorkItem { child.kill() }
            DispatchQueue(label: "watchdog").asyncAfter(deadline: .now() + 20, execute: watchdog)

            var buffer = Data()
            var acknowledged: [Int64] = []
            let reader = child.output ?? FileHandle.nullDevice
            func takeCompleteLines() {
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    if line.hasPrefix("ack "), let id = Int64(line.dropFirst(4)) {
                        acknowledged.append(id)
                    }
                }
            }
            while acknowledged.count < 300 {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                takeCompleteLines()
            }
            child.send(SIGKILL)
            let ending = child.wait(timeout: 30)
            watchdog.cancel()
            // Lines written before the kill are acknowledgements too.
            buffer.append(reader.readDataToEndOfFile())
            takeCompleteLines()
            return (acknowledged, ending)
        }

        #expect(ending == .signalled(SIGKILL))
        #expect(acknowledged.count >= 300)
        let reopened = try SQLiteEventStore(path: path, durability: durability)
        let stored = Set(try await reopened.recent(limit: 1_000_000).map(\.id))
        await reopened.close()
        let lost = acknowledged.filter { !stored.contains($0) }
        #expect(lost.isEmpty, "acknowledged but missing after kill -9: \(lost.prefix(10))")
    }
}
