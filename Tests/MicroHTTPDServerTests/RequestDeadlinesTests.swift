import Foundation
import Testing

@testable import MicroHTTPDServer

/// A clock the test moves, and the sockets ended so far: for a late head, and for a late body
/// with the allowance it had.
final class DeadlineProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var nanoseconds: UInt64 = 1_000
    private var endedSockets: [Int32] = []
    private var endedBodies: [(socket: Int32, allowance: UInt64)] = []

    var now: UInt64 { lock.withLock { nanoseconds } }
    var ended: [Int32] { lock.withLock { endedSockets } }
    var bodies: [Int32] { lock.withLock { endedBodies.map(\.socket) } }
    var allowances: [UInt64] { lock.withLock { endedBodies.map(\.allowance) } }
    func advance(_ by: UInt64) { lock.withLock { nanoseconds += by } }
    func end(_ socket: Int32) { lock.withLock { endedSockets.append(socket) } }
    func endBody(_ socket: Int32, _ allowance: UInt64) {
        lock.withLock { endedBodies.append((socket, allowance)) }
    }

    /// A head limit of `limit`; a body gets `bodyBase` plus 1 per `bytesPerUnit` bytes (the
    /// policy counts in seconds, so the test's "nanoseconds" are its seconds).
    func deadlines(limit: UInt64?, bodyBase: UInt64? = nil) -> RequestDeadlines {
        RequestDeadlines(
            headLimit: limit,
            body: bodyBase.map { RequestDeadlines.BodyPolicy(base: $0, bytesPerSecond: 1_000_000_000) },
            now: { self.now }, endHead: { self.end($0) }, endBody: { self.endBody($0, $1) })
    }
}

/// A request head, and then its body, each have a deadline that trickling does not reset
/// (source: "this book: deadlines for request heads and bodies").
struct RequestDeadlinesTests {
    @Test func aConnectionIsEndedOnceWhenItsHeadIsLate() {
        let probe = DeadlineProbe()
        let deadlines = probe.deadlines(limit: 10)
        deadlines.started(1, socket: 7)
        probe.advance(9)
        #expect(deadlines.endLateConnections() == probe.now + 1)
        #expect(probe.ended == [])
        probe.advance(1)
        #expect(deadlines.endLateConnections() == nil)
        #expect(deadlines.endLateConnections() == nil)
        #expect((probe.ended, deadlines.endedHeads) == ([7], 1))
    }

    /// Each byte per "nanosecond" of the probe: a 10-byte body announced gets base + 10.
    @Test func aBodyHasItsBaseTimePlusTimeForItsAnnouncedSize() {
        let probe = DeadlineProbe()
        let deadlines = probe.deadlines(limit: 10, bodyBase: 30)
        deadlines.started(1, socket: 7)
        deadlines.headArrived(1, announcedBody: 10)
        #expect(deadlines.receivingBody == 1)
        probe.advance(39)
        #expect(deadlines.bodyReceived(1, count: 5))
        #expect(deadlines.endLateConnections() == probe.now + 1)
        probe.advance(1)
        deadlines.endLateConnections()
        #expect((probe.bodies, probe.allowances, probe.ended) == ([7], [40], []))
        #expect(deadlines.endedBodies == 1)
        // What libmicrohttpd still hands over for the ended connection is refused.
        #expect(!deadlines.bodyReceived(1, count: 1))
        #expect(!deadlines.bodyComplete(1))
    }

    /// Chunked: nothing announced, so the time grows with what arrives.
    @Test func aBodyOfUnknownLengthEarnsTimeAsItArrives() {
        let probe = DeadlineProbe()
        let deadlines = probe.deadlines(limit: nil, bodyBase: 30)
        deadlines.started(1, socket: 7)
        #expect(deadlines.awaitingHead == 0, "no head deadline")
        deadlines.headArrived(1, announcedBody: 0)
        probe.advance(29)
        #expect(deadlines.bodyReceived(1, count: 20))
        probe.advance(20)
        deadlines.endLateConnections()
        #expect(probe.bodies == [])
        probe.advance(1)
        deadlines.endLateConnections()
        #expect(probe.bodies == [7])
    }

    @Test func aBodyThatCompletesInTimeStopsItsDeadline() {
        let probe = DeadlineProbe()
        let deadlines = probe.deadlines(limit: 10, bodyBase: 30)
        deadlines.started(1, socket: 7)
        deadlines.headArrived(1, announcedBody: 0)
        probe.advance(29)
        #expect(deadlines.bodyComplete(1))
        probe.advance(1_000)
        #expect(deadlines.endLateConnections() == nil)
        #expect(probe.bodies == [])
        // The next head on the kept-alive connection has its own deadline again.
        deadlines.requestEnded(1)
        probe.advance(10)
        deadlines.endLateConnections()
        #expect(probe.ended == [7])
    }

    @Test func withoutABodyDeadlineABodyMayTakeItsTime() {
        let probe = DeadlineProbe()
        let deadlines = probe.deadlines(limit: 10)
        deadlines.started(1, socket: 7)
        deadlines.headArrived(1, announcedBody: 100)
        #expect(deadlines.receivingBody == 0)
        probe.advance(1_000_000)
        #expect(deadlines.endLateConnections() == nil)
        #expect(deadlines.bodyComplete(1))
    }

    @Test func noDeadlineRunsWhileARequestIsAnsweredAndTheNextHeadGetsAFullOne() {
        let probe = DeadlineProbe()
        let deadlines = probe.deadlines(limit: 10)
        deadlines.started(1, socket: 7)
        probe.advance(5)
        deadlines.headArrived(1, announcedBody: 0)
        #expect(deadlines.bodyComplete(1))
        probe.advance(100)
        #expect(deadlines.endLateConnections() == nil)
        deadlines.requestEnded(1)
        probe.advance(9)
        deadlines.endLateConnections()
        #expect(probe.ended == [])
        probe.advance(1)
        deadlines.endLateConnections()
        #expect(probe.ended == [7])
    }

    @Test func aClosedConnectionIsForgottenAndItsSocketNeverTouched() {
        let probe = DeadlineProbe()
        let deadlines = probe.deadlines(limit: 10)
        deadlines.started(1, socket: 7)
        deadlines.started(2, socket: 8)
        deadlines.closed(1)
        // A late completion report for the closed connection does not bring it back.
        deadlines.requestEnded(1)
        probe.advance(10)
        deadlines.endLateConnections()
        #expect(probe.ended == [8])
    }

    @Test func theTimerThreadEndsALateConnectionWithoutBeingAsked() async {
        let ended = Ended()
        let deadlines = RequestDeadlines(
            headLimit: 50_000_000, body: nil, now: { DispatchTime.now().uptimeNanoseconds },
            endHead: { socket in Task { await ended.add(socket) } })
        let thread = Thread { deadlines.run() }
        thread.start()
        deadlines.started(1, socket: 9)
        #expect(await ended.first() == 9)
        deadlines.stop()
    }
}

/// The sockets the timer ended, and a wait for the first one.
actor Ended {
    private var sockets: [Int32] = []
    private var waiter: CheckedContinuation<Int32, Never>?

    func add(_ socket: Int32) {
        sockets.append(socket)
        waiter?.resume(returning: socket)
        waiter = nil
    }

    func first() async -> Int32 {
        if let socket = sockets.first { return socket }
        return await withCheckedContinuation { waiter = $0 }
    }
}
