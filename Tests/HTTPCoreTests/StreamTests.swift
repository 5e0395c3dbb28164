import Foundation
import HTTPCore
import Testing

/// An engine's connection as the stream sees it: it only counts suspends and resumes.
private final class CountingConnection: HTTPStreamConnection, @unchecked Sendable {
    private let lock = NSLock()
    private var counts = (suspended: 0, resumed: 0)

    var suspended: Int { lock.withLock { counts.suspended } }
    var resumed: Int { lock.withLock { counts.resumed } }
    func suspend() { lock.withLock { counts.suspended += 1 } }
    func resume() { lock.withLock { counts.resumed += 1 } }
}

/// The pure half of streaming, without an engine: what the content reader gets, and when the
/// connection is parked and woken. MicroHTTPDServerTests run the same over loopback.
/// The engine is a thin adapter around this core
/// (source: "this book: the HTTP core holds the server's rules, and the engine is a thin adapter").
@Suite("Streams without an engine")
struct StreamTests {
    private func read(_ stream: HTTPStream, _ connection: CountingConnection, capacity: Int = 64) -> (
        HTTPStream.ReadResult, String
    ) {
        var buffer = [UInt8](repeating: 0, count: capacity)
        let result = buffer.withUnsafeMutableBytes { bytes in
            stream.read(into: bytes.baseAddress!, capacity: capacity, connection: connection)
        }
        guard case .bytes(let count) = result else { return (result, "") }
        return (result, String(decoding: buffer.prefix(count), as: UTF8.self))
    }

    @Test func anEmptyStreamParksItsConnectionAndTheNextSendWakesIt() {
        let stream = HTTPStream()
        let connection = CountingConnection()
        #expect(read(stream, connection).0 == .suspended)
        #expect((connection.suspended, connection.resumed) == (1, 0))
        stream.send("data: 1\n\n")
        #expect((connection.suspended, connection.resumed) == (1, 1))
        #expect(read(stream, connection).1 == "data: 1\n\n")
        // Woken once: a second send finds no parked connection.
        stream.send("data: 2\n\n")
        #expect(connection.resumed == 1)
    }

    @Test func aReadTakesAtMostItsCapacityAndKeepsTheRest() {
        let stream = HTTPStream()
        let connection = CountingConnection()
        stream.send("abcdef")
        #expect(read(stream, connection, capacity: 4).1 == "abcd")
        #expect(read(stream, connection, capacity: 4).1 == "ef")
    }

    @Test func aFinishedStreamEndsAfterWhatWasSent() {
        let stream = HTTPStream()
        let connection = CountingConnection()
        _ = read(stream, connection)
        stream.send("last")
        stream.finish()
        #expect(stream.send("dropped") == false)
        #expect(read(stream, connection).1 == "last")
        #expect(read(stream, connection).0 == .end)
        #expect(stream.isClosed)
    }

    @Test func theCloseHandlersRunOnceWhenTheConnectionEnds() {
        let stream = HTTPStream()
        let runs = Counter()
        stream.onClose { runs.increment() }
        stream.connectionEnded()
        stream.connectionEnded()
        #expect(runs.value == 1)
        stream.onClose { runs.increment() }
        #expect(runs.value == 2)
    }

    @Test func aClientThatReadsNothingForTheBufferLimitIsCutOff() {
        let stream = HTTPStream()
        #expect(stream.send(Data(count: HTTPStream.bufferLimit)))
        #expect(stream.send("one byte more") == false)
        #expect(stream.isClosed)
        #expect(stream.takeBuffered().isEmpty)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
