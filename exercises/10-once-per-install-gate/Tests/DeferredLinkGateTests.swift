import Testing

@testable import OncePerInstallGate

/// Each test is one launch (or several) told as a story with a test clock: no test sleeps.
struct DeferredLinkGateTests {
    /// Read: chapters/05-deferred-deep-links.md#the-grace-window
    @Test func theFirstLaunchWaitsOutTheGraceWindowThenLooksUp() {
        let clock = TestClock()
        let storage = GateStorage()
        var gate = DeferredLinkGate(storage: storage, clock: clock)
        gate.lookupRequested()
        #expect(
            gate.poll() == .wait(until: .milliseconds(250)),
            "right after the request the grace window runs for 250 ms, measured by the injected clock")
        clock.advance(by: .milliseconds(249))
        #expect(gate.poll() == .wait(until: .milliseconds(250)), "at 249 ms the window is still open")
        clock.advance(by: .milliseconds(1))
        #expect(gate.poll() == .lookUp, "at 250 ms the window is over and no link came: look up")
    }

    /// Read: chapters/05-deferred-deep-links.md#exactly-once-per-install
    @Test func theGateIsConsumedBeforeTheLookupIsHandedOut() {
        let clock = TestClock()
        let storage = GateStorage()
        var gate = DeferredLinkGate(storage: storage, clock: clock)
        gate.lookupRequested()
        clock.advance(by: .seconds(1))
        #expect(gate.poll() == .lookUp, "after the window, the first poll looks up")
        #expect(
            storage.writes == [true],
            "the gate must be persisted as consumed, once, before poll() answers .lookUp")
    }

    /// Read: chapters/05-deferred-deep-links.md#exactly-once-per-install
    @Test func aLaunchLooksUpOnlyOnce() {
        let clock = TestClock()
        let storage = GateStorage()
        var gate = DeferredLinkGate(storage: storage, clock: clock)
        gate.lookupRequested()
        clock.advance(by: .seconds(1))
        _ = gate.poll()
        #expect(gate.poll() == .skip(.alreadyLookedUp), "a second poll must not hand out a second lookup")
        #expect(storage.writes == [true], "and must not write the gate again")
    }

    /// Read: chapters/05-deferred-deep-links.md#exactly-once-per-install
    @Test func aLaterLaunchNeverLooksUp() {
        let storage = GateStorage()
        let firstClock = TestClock()
        var first = DeferredLinkGate(storage: storage, clock: firstClock)
        first.lookupRequested()
        firstClock.advance(by: .seconds(1))
        #expect(first.poll() == .lookUp, "the first launch looks up")
        let clock = TestClock()
        var second = DeferredLinkGate(storage: storage, clock: clock)
        second.lookupRequested()
        clock.advance(by: .seconds(1))
        #expect(
            second.poll() == .skip(.usedByAnEarlierLaunch),
            "the gate is persisted: the next launch (same storage) must never look up again")
    }

    /// Read: chapters/05-deferred-deep-links.md#exactly-once-per-install
    @Test func aReinstallIsANewInstall() {
        let clock = TestClock()
        var gate = DeferredLinkGate(storage: GateStorage(), clock: clock)
        gate.lookupRequested()
        clock.advance(by: .seconds(1))
        #expect(gate.poll() == .lookUp, "fresh storage (a reinstall) means a fresh gate")
    }

    /// Read: chapters/05-deferred-deep-links.md#the-grace-window
    /// Read: chapters/05-deferred-deep-links.md#exactly-once-per-install
    @Test func aLinkDuringTheWindowCancelsTheLookupAndConsumesTheGate() {
        let clock = TestClock()
        let storage = GateStorage()
        var gate = DeferredLinkGate(storage: storage, clock: clock)
        gate.lookupRequested()
        clock.advance(by: .milliseconds(100))
        gate.linkArrived()
        clock.advance(by: .seconds(1))
        #expect(
            gate.poll() == .skip(.linkArrived), "a Universal Link in the window cancels the deferred lookup")
        #expect(storage.isConsumed, "a Universal Link also consumes the gate: nothing deferred, now or later")
    }

    /// Read: chapters/05-deferred-deep-links.md#the-rules-as-a-state-machine
    @Test func aLinkBeforeTheRequestCancelsTheLookupToo() {
        let clock = TestClock()
        var gate = DeferredLinkGate(storage: GateStorage(), clock: clock)
        gate.linkArrived()
        gate.lookupRequested()
        clock.advance(by: .seconds(1))
        #expect(gate.poll() == .skip(.linkArrived), "a link that came first wins, whatever the timer says")
    }

    /// Read: chapters/05-deferred-deep-links.md#the-rules-as-a-state-machine
    @Test func aLinkAfterTheLookupWritesNothing() {
        let clock = TestClock()
        let storage = GateStorage()
        var gate = DeferredLinkGate(storage: storage, clock: clock)
        gate.lookupRequested()
        clock.advance(by: .seconds(1))
        _ = gate.poll()
        gate.linkArrived()
        #expect(
            storage.writes == [true], "the gate is consumed already: a later link must not write it again")
    }

    /// Read: chapters/05-deferred-deep-links.md#the-rules-as-a-state-machine
    @Test func askingAgainDoesNotRestartTheWindow() {
        let clock = TestClock()
        var gate = DeferredLinkGate(storage: GateStorage(), clock: clock)
        gate.lookupRequested()
        clock.advance(by: .milliseconds(200))
        gate.lookupRequested()
        clock.advance(by: .milliseconds(50))
        #expect(gate.poll() == .lookUp, "the window started with the first request, so it is over at 250 ms")
    }

    /// Read: chapters/05-deferred-deep-links.md#the-grace-window
    @Test func askingLateStillWaitsTheWholeWindow() {
        let clock = TestClock()
        var gate = DeferredLinkGate(storage: GateStorage(), clock: clock)
        clock.advance(by: .seconds(5))
        gate.lookupRequested()
        #expect(
            gate.poll() == .wait(until: .milliseconds(5250)),
            "after a 5 s onboarding the window still runs 250 ms from the request")
    }

    /// Read: chapters/05-deferred-deep-links.md#the-rules-as-a-state-machine
    @Test func nothingHappensUntilTheAppAsks() {
        let clock = TestClock()
        let storage = GateStorage()
        var gate = DeferredLinkGate(storage: storage, clock: clock)
        clock.advance(by: .seconds(10))
        #expect(gate.poll() == .idle, "without lookupRequested() the gate stays idle")
        #expect(storage.writes == [], "and touches no storage")
    }

    /// Read: chapters/05-deferred-deep-links.md#the-grace-window
    @Test func aLongerGraceWindowIsHonoured() {
        let clock = TestClock()
        var gate = DeferredLinkGate(storage: GateStorage(), clock: clock, grace: .seconds(1))
        gate.lookupRequested()
        clock.advance(by: .milliseconds(999))
        #expect(gate.poll() == .wait(until: .seconds(1)), "the window length comes from the grace parameter")
    }
}
