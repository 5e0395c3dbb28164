import CSQLite
import Foundation

/// SQLite's "copy this buffer now" destructor marker, which C spells as a cast of -1.
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A thin owner of one `sqlite3` connection. Not thread-safe: one thread uses it at a time.
final class Connection {
    private(set) var handle: OpaquePointer?

    init(path: String) throws {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK else {
            let error = SQLiteError(
                code: status, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "open failed")
            sqlite3_close_v2(handle)
            handle = nil
            throw error
        }
        sqlite3_extended_result_codes(handle, 1)
    }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        guard status == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw SQLiteError(code: status, message: text)
        }
    }

    func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw lastError(status) }
        return Statement(handle: statement, connection: self)
    }

    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    func lastError(_ status: Int32) -> SQLiteError {
        SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)))
    }

    func close() {
        sqlite3_close_v2(handle)
        handle = nil
    }
}

/// A prepared statement, reset and rebound for every use.
final class Statement {
    private var handle: OpaquePointer?
    private unowned let connection: Connection

    init(handle: OpaquePointer, connection: Connection) {
        (self.handle, self.connection) = (handle, connection)
    }

    func reset() throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bind(_ index: Int32, _ text: String) throws {
        try check(sqlite3_bind_text(handle, index, text, -1, transientDestructor))
    }

    func bind(_ index: Int32, _ value: Int64) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    func bind(_ index: Int32, _ data: Data) throws {
        let status = data.withUnsafeBytes { bytes in
            // A zero-length blob still needs a non-null pointer, or SQLite stores NULL.
            sqlite3_bind_blob(
                handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count),
                transientDestructor)
        }
        try check(status)
    }

    /// Runs one step: true when a row is ready, false when done.
    func step() throws -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.lastError(status)
        }
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func text(_ column: Int32) -> String {
        sqlite3_column_text(handle, column).map { String(cString: $0) } ?? ""
    }

    func blob(_ column: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    func finalize() {
        sqlite3_finalize(handle)
        handle = nil
    }

    private func check(_ status: Int32) throws {
        guard status == SQLITE_OK else { throw connection.lastError(status) }
    }
}
