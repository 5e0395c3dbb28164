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

    /// The SDK's two keys: the click id, and the moment it expires in seconds since 1970.
    static let clickIdKey = "ai.li2.lastClickId"
    static let expiresAtKey = "ai.li2.lastClickIdExpiresAt"

    init(storage: MemoryStorage, clock: any AttributionClock, expiryDays: Int = 30) {
        self.storage = storage
        self.clock = clock
        self.expiryDays = expiryDays
    }

    /// Keeps `clickId` as the last click id, from now: a new match replaces the old one and
    /// starts a new period.
    func remember(_ clickId: String) {
        // The expiry, not the save time: a later change of expiryDays leaves this id alone.
        let expiresAt = clock.now.timeIntervalSince1970 + Double(expiryDays) * 24 * 60 * 60
        storage.setString(clickId, Self.clickIdKey)
        storage.setString(String(expiresAt), Self.expiresAtKey)
    }

    /// The last click id, or nil when there is none or it has expired (`expiryDays` after it was
    /// remembered).
    var lastClickId: String? {
        guard let clickId = storage.string(Self.clickIdKey),
            let text = storage.string(Self.expiresAtKey), let expiresAt = Double(text),
            // Attribution is a claim that the link caused the purchase; past the window, it is a guess.
            clock.now.timeIntervalSince1970 < expiresAt
        else { return nil }
        return clickId
    }

    /// The form of a lead for a customer (`externalId`, nil when there is no account yet).
    /// Nil when there is neither a live click nor a customer: nothing to attribute, nobody to file.
    func lead(externalId: String?) -> LeadForm? {
        switch (lastClickId, externalId) {
        case (let clickId?, let externalId?): return .attributed(clickId: clickId, externalId: externalId)
        case (let clickId?, nil): return .anonymous(clickId: clickId)
        case (nil, let externalId?): return .direct(externalId: externalId)
        case (nil, nil): return nil
        }
    }
}
