import Foundation

/// A response body that is written over time instead of all at once: the body of a
/// Server-Sent Events stream, for example.
///
/// A responder stays pure: it returns an ``HTTPResponse`` whose ``HTTPResponse/stream`` is set,
/// keeps the stream, and calls ``send(_:)-(Data)`` whenever it has more to say. The server writes
/// each piece as an HTTP/1.1 chunk as soon as it arrives; between pieces the connection is
/// suspended, so an open stream holds no server thread. This is the stream's pure half: it
/// knows no server library, and the engine parks and wakes its connection through an
/// ``HTTPStreamConnection`` it hands to ``read(into:capacity:connection:)``. ``finish()`` ends the body; a stopping
/// server finishes every open stream itself, so that a stop never waits on one.
///
/// ```swift
/// let stream = HTTPStream()
/// let response = HTTPResponse(status: .ok, headers: ["Content-Type": "text/event-stream"], stream: stream)
/// stream.send("event: reload\ndata: {\"generation\":2}\n\n")
/// stream.onClose { print("the client went away, or the stream was finished") }
/// ```
///
/// In-process tests read what was sent with ``takeBuffered()``.
public final class HTTPStream: @unchecked Sendable, Equatable {
    /// Bytes sent but not yet written; beyond this a client that stopped reading is cut off.
    public static let bufferLimit = 1 << 20

    private let lock = NSLock()
    private var buffer: [UInt8] = []
    private var finished = false
    private var closed = false
    /// The connection suspended while it waits for the next piece.
    private var waitingConnection: (any HTTPStreamConnection)?
    private var closeHandlers: [@Sendable () -> Void] = []

    public init() {}

    public static func == (lhs: HTTPStream, rhs: HTTPStream) -> Bool { lhs === rhs }

    /// Queues bytes for the client. Returns false when the stream is already finished or closed
    /// (the bytes are dropped), so a publisher can forget it.
    @discardableResult
    public func send(_ data: Data) -> Bool {
        let accepted: Bool = lock.withLock {
            guard !finished, !closed else { return false }
            guard buffer.count + data.count <= Self.bufferLimit else {
                // A client that reads nothing for a megabyte of events is gone in all but name.
                finished = true
                buffer.removeAll()
                resumeWaiting()
                return false
            }
            buffer.append(contentsOf: data)
            resumeWaiting()
            return true
        }
        return accepted
    }

    /// Queues UTF-8 text for the client.
    @discardableResult
    public func send(_ text: String) -> Bool {
        send(Data(text.utf8))
    }

    /// Ends the body after what was already sent.
    public func finish() {
        lock.withLock {
            finished = true
            resumeWaiting()
        }
    }

    /// True once the stream was finished or its connection ended.
    public var isClosed: Bool {
        lock.withLock { finished || closed }
    }

    /// Runs `handler` once when the connection ends (the client left, or the body was finished
    /// and written), at once if it already has. In process (no server) it never runs.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow: Bool = lock.withLock {
            if closed { return true }
            closeHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// Removes and returns the bytes sent so far and not yet written (for in-process tests).
    public func takeBuffered() -> Data {
        lock.withLock {
            defer { buffer.removeAll() }
            return Data(buffer)
        }
    }

    // MARK: The engine's side

    /// What the engine's content reader gets back.
    package enum ReadResult: Equatable {
        case bytes(Int)
        /// Nothing to write yet: the connection was suspended and is resumed by the next send.
        case suspended
        case end
    }

    /// Copies up to `capacity` buffered bytes into `destination`, or suspends `connection`
    /// until there are some. The engine calls it from its content reader, where suspending is
    /// allowed; a nil connection (none to park) reads as the end of the body.
    package func read(
        into destination: UnsafeMutableRawPointer, capacity: Int, connection: (any HTTPStreamConnection)?
    ) -> ReadResult {
        lock.withLock {
            if !buffer.isEmpty {
                let count = min(capacity, buffer.count)
                buffer.withUnsafeBytes { bytes in
                    destination.copyMemory(from: bytes.baseAddress!, byteCount: count)
                }
                buffer.removeFirst(count)
                return .bytes(count)
            }
            guard !finished, let connection else { return .end }
            // Suspend under the lock: a send that comes right after sees the waiting
            // connection and resumes it, so no piece is left waiting for the next one.
            waitingConnection = connection
            connection.suspend()
            return .suspended
        }
    }

    /// The connection ended: runs the close handlers once.
    package func connectionEnded() {
        let handlers: [@Sendable () -> Void] = lock.withLock {
            guard !closed else { return [] }
            closed = true
            waitingConnection = nil
            buffer.removeAll()
            defer { closeHandlers.removeAll() }
            return closeHandlers
        }
        for handler in handlers { handler() }
    }

    /// Resumes the suspended connection, if any. Called with the lock held.
    private func resumeWaiting() {
        guard let connection = waitingConnection else { return }
        waitingConnection = nil
        connection.resume()
    }
}

/// The connection a streamed body is written to, as the engine that owns it parks and wakes it:
/// suspended while the stream has nothing to write, resumed by the next send or by the finish.
/// ``HTTPStream`` calls both with its lock held, so a resume never overtakes its suspend.
///
/// ```swift
/// final class Parked: HTTPStreamConnection {
///     func suspend() { /* stop asking the stream for bytes */ }
///     func resume() { /* ask again */ }
/// }
/// ```
package protocol HTTPStreamConnection: AnyObject, Sendable {
    func suspend()
    func resume()
}
