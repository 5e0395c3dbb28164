import Foundation

/// The SDK's idea of "now". The app passes the system clock; the tests pass a `TestClock` and move
/// it by a month instead of waiting one.
protocol AttributionClock: AnyObject {
    var now: Date { get }
}

/// A clock that only moves when a test says so.
final class TestClock: AttributionClock {
    private(set) var now: Date

    init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) { self.now = now }

    func advance(by seconds: TimeInterval) { now += seconds }
}

/// Key-value storage that survives launches: `UserDefaults` in the app, memory in the tests.
final class MemoryStorage {
    private(set) var values: [String: String] = [:]

    func string(_ key: String) -> String? { values[key] }

    func setString(_ value: String?, _ key: String) { values[key] = value }
}

/// The three forms a lead takes (chapter 10, "Direct, anonymous, attributed").
enum LeadForm: Equatable, Sendable {
    /// No link behind it: `click_id` is "" and the customer is the app's own id.
    case direct(externalId: String)
    /// Someone who came through a link but has no account yet.
    case anonymous(clickId: String)
    /// A known customer who came through a link.
    case attributed(clickId: String, externalId: String)

    /// The `click_id` sent to the service.
    var clickId: String {
        switch self {
        case .direct: return ""
        case .anonymous(let clickId), .attributed(let clickId, _): return clickId
        }
    }

    /// The customer the service files the lead under: an anonymous lead becomes `anon_<click id>`.
    var customerId: String {
        switch self {
        case .direct(let externalId), .attributed(_, let externalId): return externalId
        case .anonymous(let clickId): return "anon_" + clickId
        }
    }
}

/// The click id of the last matched link, kept for `expiryDays` (30 by default) by the injected
/// clock, and the lead form it leads to.
///
/// ```swift
/// let lastClick = LastClick(storage: storage, clock: clock)
/// lastClick.remember("Qm7pX2rT9wLs4NcV")
/// lastClick.lead(externalId: "user_42")   // .attributed(clickId: "Qm7pX2rT9wLs4NcV", externalId: "user_42")
/// ```
struct LastClick {
    let storage: MemoryStorage
    let clock: any AttributionClock
    let expiryDays: Int

    init(storage: MemoryStorage, clock: any AttributionClock, expiryDays: Int = 30) {
        self.storage = storage
        self.clock = clock
        self.expiryDays = expiryDays
    }

    /// Keeps `clickId` as the last click id, from now: a new match replaces the old one and
    /// starts a new period.
    func remember(_ clickId: String) {
        // TODO: Store the click id *and* the moment it expires (`expiryDays` from now), so that a
        //       later launch (a new LastClick on the same storage) can tell whether it still counts.
    }

    /// The last click id, or nil when there is none or it has expired (`expiryDays` after it was
    /// remembered).
    var lastClickId: String? {
        // TODO: Read back what remember(_:) stored; nil when it is missing, unreadable, or expired.
        return nil
    }

    /// The form of a lead for a customer (`externalId`, nil when there is no account yet).
    /// Nil when there is neither a live click nor a customer: nothing to attribute, nobody to file.
    func lead(externalId: String?) -> LeadForm? {
        // TODO: a live click and a customer: attributed; a live click only: anonymous;
        //       a customer only: direct; neither: nil.
        return nil
    }
}
