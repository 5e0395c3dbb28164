import CSQLite
import Foundation

/// Why a SQLite store operation failed.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Int32
    public var message: String

    public var description: String { "SQLite error \(code): \(message)" }
}

/// A durable ``EventStore`` in one SQLite file, written with group commit.
///
/// **Group commit.** Making a commit durable costs an `fsync`, a few milliseconds on real
/// disks. Committing every append on its own would cap the log at a few hundred events a
/// second. Instead one writer thread owns the connection: appends queue up while it commits,
/// and it writes everything queued in one transaction, then wakes all those callers. Under
/// load, one `fsync` covers many events; alone, an append still commits at once.
///
/// **Durability.** The file runs in WAL mode. ``Durability-swift.enum/processCrash`` uses
/// `synchronous=NORMAL`: a commit is written into the WAL file (the operating system holds it)
/// but not synced, so the event survives the process being killed (`kill -9`, a crash)
/// but not the machine losing power. ``Durability-swift.enum/powerLoss`` uses
/// `synchronous=FULL`: every commit syncs the WAL, and survives both.
///
/// The table refuses `UPDATE` and `DELETE` through triggers: the log is append-only.
///
/// ```swift
/// let store = try SQLiteEventStore(path: "events.sqlite", durability: .powerLoss)
/// let event = try await store.append(NewEvent(type: "open", at: .now, json: Data("{}".utf8)))
/// await store.close()
/// ```
public final class SQLiteEventStore: EventStore, @unchecked Sendable {
    public enum Durability: String, Sendable, CaseIterable {
        /// WAL + `synchronous=NORMAL`: survives a killed process, not a power cut.
        case processCrash
        /// WAL + `synchronous=FULL`: survives a power cut too.
        case powerLoss
    }

    public let path: String
    public let durability: Durability
    private let writer: Writer

    /// Opens (creating if needed) the log at `path` and starts its writer thread.
    /// - Parameters:
    ///   - maxBatch: the most appends committed in one transaction.
    ///   - busyTimeoutMilliseconds: how long to wait for another process holding the file.
    public init(
        path: String, durability: Durability = .powerLoss, maxBatch: Int = 512,
        busyTimeoutMilliseconds: Int32 = 5_000
    ) throws {
        self.path = path
        self.durability = durability
        let connection = try Connection(path: path)
        try connection.execute("PRAGMA busy_timeout = \(busyTimeoutMilliseconds)")
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute(
            durability == .powerLoss ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS events (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                type TEXT NOT NULL,
                at_ms INTEGER NOT NULL,
                json BLOB NOT NULL
            );
            CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
                BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
            CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
                BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
            """)
        self.writer = try Writer(connection: connection, maxBatch: max(1, maxBatch))
    }

    deinit {
        writer.shutDown()
    }

    @discardableResult
    public func append(_ event: NewEvent) async throws -> StoredEvent {
        try await withCheckedThrowingContinuation { continuation in
            writer.submit(.append(event, continuation))
        }
    }

    public func page(before: Int64?, limit: Int) async throws -> EventPage {
        try await withCheckedThrowingContinuation { continuation in
            writer.submit(.page(before, limit, continuation))
        }
    }

    /// Commits what is queued, then closes the file. Later calls fail.
    public func close() async {
        await withCheckedContinuation { continuation in
            writer.submit(.close(continuation))
        }
    }

    /// Batches committed so far (each one transaction and, with `.powerLoss`, one sync).
    public var commitCount: Int { writer.commits }
}

/// The writer thread and its queue. Only this thread touches the connection.
private final class Writer: @unchecked Sendable {
    enum Job {
        case append(NewEvent, CheckedContinuation<StoredEvent, any Error>)
        case page(Int64?, Int, CheckedContinuation<EventPage, any Error>)
        case close(CheckedContinuation<Void, Never>)
    }

    private let condition = NSCondition()
    private var queue: [Job] = []
    private var closed = false
    private var committed = 0
    private let connection: Connection
    private let maxBatch: Int
    private let insert: Statement
    private let select: Statement
    private let count: Statement

    init(connection: Connection, maxBatch: Int) throws {
        self.connection = connection
        self.maxBatch = maxBatch
        self.insert = try connection.prepare("INSERT INTO events (type, at_ms, json) VALUES (?, ?, ?)")
        self.select = try connection.prepare(
            "SELECT id, type, at_ms, json FROM events WHERE id < ? ORDER BY id DESC LIMIT ?")
        self.count = try connection.prepare("SELECT COUNT(*) FROM events")
        let thread = Thread { [self] in run() }
        thread.name = "EventLog writer"
        thread.start()
    }

    var commits: Int {
        condition.lock()
        defer { condition.unlock() }
        return committed
    }

    func submit(_ job: Job) {
        condition.lock()
        if closed {
            condition.unlock()
            fail(job, SQLiteError(code: SQLITE_MISUSE, message: "the event store is closed"))
            return
        }
        queue.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Asks the thread to finish without waiting (used when the store is released unclosed).
    func shutDown() {
        condition.lock()
        closed = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty && !closed {
                condition.wait()
            }
            if queue.isEmpty && closed {
                condition.unlock()
                finish()
                return
            }
            // Take every queued append up to the batch size, stopping at the first other job so
            // that reads and close keep their place in line.
            var appends: [(NewEvent, CheckedContinuation<StoredEvent, any Error>)] = []
            var other: Job?
            while !queue.isEmpty && appends.count < maxBatch {
                let job = queue.removeFirst()
                if case .append(let event, let continuation) = job {
                    appends.append((event, continuation))
                } else {
                    other = job
                    break
                }
            }
            condition.unlock()
            if !appends.isEmpty {
                commit(appends)
            }
            switch other {
            case .page(let before, let limit, let continuation):
                continuation.resume(with: Result { try read(before: before, limit: limit) })
            case .close(let continuation):
                condition.lock()
                closed = true
                let rest = queue
                queue.removeAll()
                condition.unlock()
                for job in rest {
                    fail(job, SQLiteError(code: SQLITE_MISUSE, message: "the event store is closed"))
                }
                finish()
                continuation.resume()
                return
            case .append, nil:
                break
            }
        }
    }

    private func commit(_ batch: [(NewEvent, CheckedContinuation<StoredEvent, any Error>)]) {
        var results: [Result<StoredEvent, any Error>] = []
        do {
            try connection.execute("BEGIN IMMEDIATE")
            for (event, _) in batch {
                results.append(Result { try insert(event) })
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            results = batch.map { _ in .failure(error) }
        }
        condition.lock()
        committed += 1
        condition.unlock()
        // Only now, after COMMIT returned, is each event durable: wake the callers.
        for ((_, continuation), result) in zip(batch, results) {
            continuation.resume(with: result)
        }
    }

    private func insert(_ event: NewEvent) throws -> StoredEvent {
        try insert.reset()
        try insert.bind(1, event.type)
        try insert.bind(2, event.at.millisecondsSince1970)
        try insert.bind(3, event.json)
        guard try insert.step() == false else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "INSERT returned rows")
        }
        return event.stored(id: connection.lastInsertedRowID)
    }

    /// One page, read in one transaction so that its events and its total agree.
    private func read(before: Int64?, limit: Int) throws -> EventPage {
        let limit = max(0, limit)
        try connection.execute("BEGIN")
        defer { try? connection.execute("COMMIT") }
        try select.reset()
        try select.bind(1, before ?? Int64.max)
        // One more than asked: whether it exists says if older events remain.
        try select.bind(2, Int64(limit) + 1)
        var events: [StoredEvent] = []
        while try select.step() {
            events.append(
                StoredEvent(
                    id: select.int64(0), type: select.text(1),
                    at: Date(millisecondsSince1970: select.int64(2)), json: select.blob(3)))
        }
        try count.reset()
        let total = try count.step() ? Int(count.int64(0)) : 0
        try count.reset()
        let hasMore = events.count > limit
        return EventPage(events: Array(events.prefix(limit)), hasMore: hasMore, total: total)
    }

    private func finish() {
        insert.finalize()
        select.finalize()
        count.finalize()
        connection.close()
    }

    private func fail(_ job: Job, _ error: any Error) {
        switch job {
        case .append(_, let continuation): continuation.resume(throwing: error)
        case .page(_, _, let continuation): continuation.resume(throwing: error)
        case .close(let continuation): continuation.resume()
        }
    }
}
