import Foundation
import Testing

@testable import MicroHTTPDServer

/// A clock the test moves, and the sockets ended so far.
final class DeadlineProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var nanoseconds: UInt64 = 1_000
    private var endedSockets: [Int32] = []

    var now: UInt64 { lock.withLock { nanoseconds } }
    var ended: [Int32] { lock.withLock { endedSockets } }
    func advance(_ by: UInt64) { lock.withLock { nanoseconds += by } }
    func end(_ socket: Int32) { lock.withLock { endedSockets.append(socket) } }

    func deadlines(limit: UInt64) -> RequestHeadDeadlines {
        RequestHeadDeadlines(limit: limit, now: { self.now }, end: { self.end($0) })
    }
}

/// A request head has a deadline that trickling does not reset
/// (source: "this book: chapter 12, What binding beyond localhost exposes").
struct RequestHeadDeadlinesTests {
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
        #expect((probe.ended, deadlines.endedCount) == ([7], 1))
    }

    @Test func noDeadlineRunsWhileARequestIsAnsweredAndTheNextHeadGetsAFullOne() {
        let probe = DeadlineProbe()
        let deadlines = probe.deadlines(limit: 10)
        deadlines.started(1, socket: 7)
        probe.advance(5)
        deadlines.headArrived(1)
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
        let deadlines = RequestHeadDeadlines(
            limit: 50_000_000, now: { DispatchTime.now().uptimeNanoseconds },
            end: { socket in Task { await ended.add(socket) } })
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
