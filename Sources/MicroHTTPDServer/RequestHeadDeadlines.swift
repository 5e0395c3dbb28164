import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A deadline for each request head, kept beside libmicrohttpd: it offers an idle timeout,
/// which every byte resets, so a client that sends one header byte every few seconds could hold
/// a connection forever. Here a connection must deliver a whole request head within `limit` of
/// its start, and each later head (on a kept-alive connection) within `limit` of the end of the
/// previous request; while a request is being answered no deadline runs.
///
/// A late connection is ended with `shutdown(2)` on its socket, never `close(2)`: the socket
/// belongs to libmicrohttpd, which then sees the end, closes it and reports the close. That
/// report and every `shutdown` take the same lock, and libmicrohttpd reports a close before it
/// closes the socket, so a socket number that the system has given to a new connection is never
/// shut down by mistake.
///
/// ```swift
/// let deadlines = RequestHeadDeadlines(limit: 10_000_000_000, now: { DispatchTime.now().uptimeNanoseconds })
/// deadlines.started(connection, socket: 12)   // the clock starts
/// deadlines.headArrived(connection)           // stopped: the request is being answered
/// deadlines.requestEnded(connection)          // runs again, for the next head
/// ```
final class RequestHeadDeadlines: @unchecked Sendable {
    private struct Entry {
        var socket: Int32
        /// When the wait for the next head began, in `now`'s nanoseconds; nil while a request
        /// is answered, or once the connection was ended.
        var waitingSince: UInt64?
    }

    /// Nanoseconds a connection may take to deliver a request head.
    let limit: UInt64
    private let now: @Sendable () -> UInt64
    private let end: @Sendable (Int32) -> Void
    private let condition = NSCondition()
    private var entries: [UInt: Entry] = [:]
    private var stopped = false
    /// Connections ended so far for being late.
    private(set) var endedCount = 0

    /// `end` ends a connection given its socket (`shutdown(socket, SHUT_RDWR)` in a server);
    /// tests pass their own, with their own clock.
    init(
        limit: UInt64, now: @escaping @Sendable () -> UInt64,
        end: @escaping @Sendable (Int32) -> Void = { _ = shutdown($0, Int32(SHUT_RDWR)) }
    ) {
        (self.limit, self.now, self.end) = (limit, now, end)
    }

    func started(_ connection: UInt, socket: Int32) {
        update { $0[connection] = Entry(socket: socket, waitingSince: now()) }
    }

    func headArrived(_ connection: UInt) {
        update { $0[connection]?.waitingSince = nil }
    }

    func requestEnded(_ connection: UInt) {
        update { entries in
            guard entries[connection] != nil else { return }
            entries[connection]?.waitingSince = now()
        }
    }

    /// Connections waiting for a request head, whose deadline runs.
    var awaitingHead: Int {
        condition.lock()
        defer { condition.unlock() }
        return entries.values.filter { $0.waitingSince != nil }.count
    }

    /// libmicrohttpd reports the close: from now on the socket number is not this connection's.
    func closed(_ connection: UInt) {
        update { $0[connection] = nil }
    }

    /// Ends every connection past its deadline and returns when the next deadline falls (nil
    /// when no connection is waiting for a head).
    @discardableResult
    func endLateConnections() -> UInt64? {
        condition.lock()
        defer { condition.unlock() }
        return endLateLocked()
    }

    /// The timer: sleeps until the next deadline (or until a connection starts waiting), ends
    /// the late connections, and again, until ``stop()``.
    func run() {
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            guard let next = endLateLocked() else {
                condition.wait()
                continue
            }
            let current = now()
            let wait = next > current ? Double(next - current) / 1e9 : 0
            _ = condition.wait(until: Date().addingTimeInterval(wait))
        }
    }

    func stop() {
        update { _ in stopped = true }
    }

    private func endLateLocked() -> UInt64? {
        let current = now()
        var next: UInt64?
        for (connection, entry) in entries {
            guard let since = entry.waitingSince else { continue }
            let deadline = since &+ limit
            if deadline <= current {
                end(entry.socket)
                entries[connection]?.waitingSince = nil
                endedCount += 1
            } else {
                next = min(next ?? deadline, deadline)
            }
        }
        return next
    }

    /// Changes the table under the lock and wakes the timer, whose next deadline may change.
    private func update(_ change: (inout [UInt: Entry]) -> Void) {
        condition.lock()
        change(&entries)
        condition.signal()
        condition.unlock()
    }
}
