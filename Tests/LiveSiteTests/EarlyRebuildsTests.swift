import Dispatch
import Foundation
import TestSupport
import Testing

@testable import LiveSite

/// A save's English build starts during its quiet period and is handed over only when the change
/// settles on the look it started from.
/// (source: "this book: a save's English build starts during its quiet period and is published only if nothing was written since")
@Suite("Building early, during the quiet period")
struct EarlyRebuildsTests {
    /// Numbers the builds in the order they start; the first may be held until the test lets it go.
    final class Builds: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        let started = Mailbox<Int>()
        let release = DispatchSemaphore(value: 0)
        var holdsFirst = false

        var made: Int { lock.withLock { count } }

        func build() -> Int {
            let number = lock.withLock {
                count += 1
                return count
            }
            started.put(number)
            if number == 1, holdsFirst { release.wait() }
            return number
        }
    }

    @Test func aBuildFromTheSettledLookIsHandedOver() async {
        let builds = Builds()
        let early = EarlyRebuilds { builds.build() }
        defer { early.close(waiting: 5) }
        early.seen(look: 3)
        #expect(await offPool { early.settled(look: 3) } == 1)
        #expect(builds.made == 1)
        // Handed over once: the next settle of the same look builds again.
        #expect(await offPool { early.settled(look: 3) } == nil)
    }

    @Test func aNewerLookDropsTheBuildInProgress() async {
        let builds = Builds()
        builds.holdsFirst = true
        let early = EarlyRebuilds { builds.build() }
        defer { early.close(waiting: 5) }
        early.seen(look: 3)
        #expect(await builds.started.take() == 1)
        // Look 4 comes while look 3's build runs: that one is of no use any more.
        early.seen(look: 4)
        builds.release.signal()
        #expect(await offPool { early.settled(look: 4) } == 2)
        #expect(builds.made == 2)
    }

    @Test func aChangeThatSettlesOnAnotherLookGetsNothing() async {
        let builds = Builds()
        let early = EarlyRebuilds { builds.build() }
        defer { early.close(waiting: 5) }
        early.seen(look: 5)
        // Look 6 saw a write after look 5's build started (a look no event announced).
        #expect(await offPool { early.settled(look: 6) } == nil)
        #expect(await offPool { early.settled(look: 5) } == nil)
    }

    /// Early builds and the work handed over run on one thread, whose allocations the
    /// allocator keeps together; once closed, handed work runs where it is handed.
    @Test func everyBuildRunsOnTheOneBuildThread() async {
        let threads = Mailbox<UInt>()
        let early = EarlyRebuilds { threads.put(UInt(pthread_self())) }
        let (caller, performed) = await offPool {
            (UInt(pthread_self()), early.perform { UInt(pthread_self()) })
        }
        #expect(performed != caller)
        early.seen(look: 1)
        #expect(await threads.take() == performed)
        #expect(await offPool { early.settled(look: 1) } != nil)
        #expect(await offPool { early.perform { UInt(pthread_self()) } } == performed)
        early.close(waiting: 5)
        let (closedCaller, closedRun) = await offPool {
            (UInt(pthread_self()), early.perform { UInt(pthread_self()) })
        }
        #expect(closedRun == closedCaller)
    }

    @Test func nothingSeenIsNothingBuilt() async {
        let builds = Builds()
        let early = EarlyRebuilds { builds.build() }
        defer { early.close(waiting: 5) }
        #expect(await offPool { early.settled(look: 1) } == nil)
        #expect(builds.made == 0)
    }
}
