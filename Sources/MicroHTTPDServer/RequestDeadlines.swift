import Foundation
import HTTPCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Deadlines for the two parts of a request a client sends at its own pace, kept beside
/// libmicrohttpd: it offers an idle timeout, which every byte resets, so a client that sends one
/// byte every few seconds could hold a connection forever.
///
/// - The **head** must arrive within `headLimit` of the connection's start, and each later head
///   (on a kept-alive connection) within `headLimit` of the end of the previous request.
/// - The **body** must arrive within ``BodyPolicy/allowance(for:)`` of the head's end: a base
///   plus a second for every `bytesPerSecond` of the larger of the announced length and what has
///   arrived, so a large body on a slow link has the time it needs and a trickle does not.
///
/// While a request is being answered no deadline runs. A late head is ended with `shutdown(2)`;
/// a late body first gets `408 request_timeout` in the project's JSON error (when `endBody`
/// writes it: not over TLS, whose records only libmicrohttpd can write).
///
/// A connection is ended with `shutdown(2)` on its socket, never `close(2)`: the socket belongs
/// to libmicrohttpd, which then sees the end, closes it and reports the close. That report, the
/// body's progress and every `shutdown` take the same lock, and libmicrohttpd reports a close
/// before it closes the socket, so a socket number that the system has given to a new
/// connection is never shut down by mistake, and a body that completes at the deadline is either
/// answered or cut, never both.
///
/// ```swift
/// let deadlines = RequestDeadlines(headLimit: 10_000_000_000, body: .standard, now: uptime)
/// deadlines.started(connection, socket: 12)                 // the head's clock starts
/// deadlines.headArrived(connection, announcedBody: 65_536)  // the body's clock starts
/// deadlines.bodyComplete(connection)                        // stopped: the request is answered
/// deadlines.requestEnded(connection)                        // the next head's clock starts
/// ```
final class RequestDeadlines: @unchecked Sendable {
    /// How long a body may take.
    struct BodyPolicy: Equatable, Sendable {
        /// Nanoseconds every body gets.
        var base: UInt64
        /// The slowest average rate past the base, in bytes per second.
        var bytesPerSecond: UInt64

        /// 30 s, plus 1 s per 16 KiB.
        static let standard = BodyPolicy(base: 30_000_000_000, bytesPerSecond: 16 << 10)

        /// Nanoseconds a body of `bytes` may take.
        func allowance(for bytes: Int) -> UInt64 {
            let perByte = 1_000_000_000 / max(1, bytesPerSecond)
            return base &+ UInt64(max(0, bytes)) &* perByte
        }
    }

    private enum Phase {
        /// Waiting for a head since then, in `now`'s nanoseconds.
        case head(since: UInt64)
        /// Receiving a body since then; `announced` is its `Content-Length` (0 for chunked).
        case body(since: UInt64, announced: Int, received: Int)
        /// Being answered, or a head deadline that is off: nothing runs.
        case idle
        /// Ended for being late: whatever libmicrohttpd still reports is refused.
        case ended
    }

    private struct Entry {
        var socket: Int32
        var phase: Phase

        var isEnded: Bool {
            if case .ended = phase { return true }
            return false
        }
    }

    /// Nanoseconds a connection may take to deliver a request head; nil: no deadline.
    let headLimit: UInt64?
    /// How long a body may take; nil: no deadline.
    let body: BodyPolicy?
    private let now: @Sendable () -> UInt64
    private let endHead: @Sendable (Int32) -> Void
    private let endBody: @Sendable (Int32, UInt64) -> Void
    private let condition = NSCondition()
    private var entries: [UInt: Entry] = [:]
    private var stopped = false
    /// Connections ended so far for a late head, and for a late body.
    private(set) var endedHeads = 0
    private(set) var endedBodies = 0

    /// `endHead` ends a connection given its socket, `endBody` also gets the allowance the body
    /// had (``sendTimeout(socket:allowance:)`` in a plain-HTTP server); tests pass their own,
    /// with their own clock.
    init(
        headLimit: UInt64?, body: BodyPolicy?, now: @escaping @Sendable () -> UInt64,
        endHead: @escaping @Sendable (Int32) -> Void = {
            RequestDeadlines.endConnection(socket: $0, allowance: 0)
        },
        endBody: @escaping @Sendable (Int32, UInt64) -> Void = RequestDeadlines.endConnection
    ) {
        (self.headLimit, self.body, self.now, self.endHead, self.endBody) = (
            headLimit, body, now, endHead, endBody
        )
    }

    /// Ends a connection without a word: libmicrohttpd sees the end and closes the socket.
    @Sendable static func endConnection(socket: Int32, allowance: UInt64) {
        _ = shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Writes the 408 on a plain-HTTP socket, then ends the connection. Nothing else writes to
    /// the socket while a body is being received, so the response goes out whole.
    @Sendable static func sendTimeout(socket: Int32, allowance: UInt64) {
        let response = HTTPError.requestTimeout(seconds: Double(allowance) / 1e9).response
        var head = "HTTP/1.1 408 Request Timeout\r\n"
        for field in response.headers { head += "\(field.name): \(field.value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\n\r\n"
        let bytes = Array(head.utf8) + Array(response.body)
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL | MSG_DONTWAIT)
        #else
            let flags = Int32(MSG_DONTWAIT)
        #endif
        _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, flags) }
        _ = shutdown(socket, Int32(SHUT_RDWR))
    }

    func started(_ connection: UInt, socket: Int32) {
        update {
            $0[connection] = Entry(socket: socket, phase: headLimit == nil ? .idle : .head(since: now()))
        }
    }

    /// The head is complete; a body of `announcedBody` bytes (0: none or chunked) may follow.
    func headArrived(_ connection: UInt, announcedBody: Int) {
        update { entries in
            guard let entry = entries[connection], !entry.isEnded else { return }
            entries[connection]?.phase =
                body == nil ? .idle : .body(since: now(), announced: announcedBody, received: 0)
        }
    }

    /// `count` more body bytes arrived. False when the connection was already ended.
    func bodyReceived(_ connection: UInt, count: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let entry = entries[connection] else { return true }
        if case .body(let since, let announced, let received) = entry.phase {
            entries[connection]?.phase = .body(since: since, announced: announced, received: received + count)
        }
        return !entry.isEnded
    }

    /// The body is complete (or there was none): the request is answered now. False when the
    /// connection was already ended for being late.
    func bodyComplete(_ connection: UInt) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let entry = entries[connection] else { return true }
        guard !entry.isEnded else { return false }
        entries[connection]?.phase = .idle
        return true
    }

    func requestEnded(_ connection: UInt) {
        update { entries in
            guard let entry = entries[connection], !entry.isEnded else { return }
            entries[connection]?.phase = headLimit == nil ? .idle : .head(since: now())
        }
    }

    /// Connections waiting for a request head, whose deadline runs.
    var awaitingHead: Int {
        condition.lock()
        defer { condition.unlock() }
        return entries.values.filter { if case .head = $0.phase { true } else { false } }.count
    }

    /// Connections receiving a body, whose deadline runs.
    var receivingBody: Int {
        condition.lock()
        defer { condition.unlock() }
        return entries.values.filter { if case .body = $0.phase { true } else { false } }.count
    }

    /// libmicrohttpd reports the close: from now on the socket number is not this connection's.
    func closed(_ connection: UInt) {
        update { $0[connection] = nil }
    }

    /// Ends every connection past its deadline and returns when the next deadline falls (nil
    /// when no deadline runs).
    @discardableResult
    func endLateConnections() -> UInt64? {
        condition.lock()
        defer { condition.unlock() }
        return endLateLocked()
    }

    /// The timer: sleeps until the next deadline (or until something changes), ends the late
    /// connections, and again, until ``stop()``.
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
            let deadline: UInt64
            let allowance: UInt64
            switch entry.phase {
            case .head(let since):
                allowance = headLimit ?? 0
                deadline = since &+ allowance
            case .body(let since, let announced, let received):
                allowance = (body ?? .standard).allowance(for: max(announced, received))
                deadline = since &+ allowance
            case .idle, .ended:
                continue
            }
            guard deadline <= current else {
                next = min(next ?? deadline, deadline)
                continue
            }
            if case .head = entry.phase {
                endHead(entry.socket)
                endedHeads += 1
            } else {
                endBody(entry.socket, allowance)
                endedBodies += 1
            }
            entries[connection]?.phase = .ended
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
