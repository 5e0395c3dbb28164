/// The time since the app launched, as the gate sees it. The app passes the system's clock; the
/// tests pass a `TestClock` and move it by hand instead of sleeping.
protocol LaunchClock: AnyObject {
    var now: Duration { get }
}

/// A clock that only moves when a test says so.
final class TestClock: LaunchClock {
    private(set) var now: Duration = .zero

    func advance(by duration: Duration) { now += duration }
}

/// Where the gate's one persisted bit lives: `UserDefaults` in the app, memory in the tests. It
/// survives launches (a new gate with the same storage is the next launch) and dies with the app,
/// so a reinstall is a new install. `writes` records every write, so a test can see the order.
final class GateStorage {
    var isConsumed: Bool {
        didSet { writes.append(isConsumed) }
    }
    private(set) var writes: [Bool] = []

    init(isConsumed: Bool = false) { self.isConsumed = isConsumed }
}

/// Decides, on every launch, whether this install may look up its deferred link, and when
/// (chapter 05, "Exactly once per install" and "The grace window").
///
/// ```swift
/// var gate = DeferredLinkGate(storage: storage, clock: clock)
/// gate.lookupRequested()   // the first screen is up
/// gate.poll()              // .wait(until: .milliseconds(250))
/// // ... 250 ms later, and no Universal Link arrived:
/// gate.poll()              // .lookUp, and the gate is already consumed
/// ```
struct DeferredLinkGate {
    enum Decision: Equatable {
        /// Nobody asked for the lookup yet.
        case idle
        /// The grace window runs until this time since launch: ask again then.
        case wait(until: Duration)
        /// Look up the deferred link now. The gate is consumed already.
        case lookUp
        /// No lookup in this launch, and why.
        case skip(Reason)
    }

    enum Reason: Equatable {
        /// The gate was consumed by an earlier launch (or a Universal Link then).
        case usedByAnEarlierLaunch
        /// A Universal Link arrived in this launch: there is nothing deferred to look for.
        case linkArrived
        /// This launch already looked up.
        case alreadyLookedUp
    }

    let storage: GateStorage
    let clock: any LaunchClock
    let grace: Duration
    private var windowStart: Duration?
    private var sawLink = false
    private var lookedUp = false

    init(storage: GateStorage, clock: any LaunchClock, grace: Duration = .milliseconds(250)) {
        self.storage = storage
        self.clock = clock
        self.grace = grace
    }

    /// The app's first screen is up and it wants the deferred link. Asking again, or late, is
    /// harmless: the window starts once, at the first request, by the clock.
    mutating func lookupRequested() {
        if windowStart == nil { windowStart = clock.now }
    }

    /// A Universal Link arrived. It cancels this launch's lookup and consumes the gate, if the gate
    /// is still open: someone who came through a link has nothing deferred to look for.
    mutating func linkArrived() {
        sawLink = true
        if !storage.isConsumed { storage.isConsumed = true }
    }

    /// What the app should do now. Checked in this order: already looked up, a link arrived, the
    /// gate was used before, nothing asked, still in the window, else look up, consuming the gate
    /// *before* answering `.lookUp`: a crash between the two loses a lookup instead of counting
    /// it twice.
    mutating func poll() -> Decision {
        if lookedUp { return .skip(.alreadyLookedUp) }
        if sawLink { return .skip(.linkArrived) }
        if storage.isConsumed { return .skip(.usedByAnEarlierLaunch) }
        guard let start = windowStart else { return .idle }
        let end = start + grace
        if clock.now < end { return .wait(until: end) }
        storage.isConsumed = true
        lookedUp = true
        return .lookUp
    }
}
