import Foundation
import Testing

@testable import LastClickAttribution

/// Stories from chapter 10, "The last click id, and when it expires", told with a test clock.
struct LastClickTests {
    static let day: TimeInterval = 24 * 60 * 60

    /// Read: chapters/10-conversion-tracking.md#the-last-click-id-and-when-it-expires
    @Test func withoutAMatchThereIsNoLastClick() {
        let lastClick = LastClick(storage: MemoryStorage(), clock: TestClock())
        #expect(lastClick.lastClickId == nil, "nothing was remembered, so there is no last click id")
    }

    /// Read: chapters/10-conversion-tracking.md#the-last-click-id-and-when-it-expires
    @Test func aMatchedClickBecomesTheLastClick() {
        let lastClick = LastClick(storage: MemoryStorage(), clock: TestClock())
        lastClick.remember("Qm7pX2rT9wLs4NcV")
        #expect(
            lastClick.lastClickId == "Qm7pX2rT9wLs4NcV", "remember(_:) must make the click id the last one")
    }

    /// Read: chapters/10-conversion-tracking.md#the-last-click-id-and-when-it-expires
    @Test func theLastClickSurvivesARelaunch() {
        let storage = MemoryStorage()
        let clock = TestClock()
        LastClick(storage: storage, clock: clock).remember("Qm7pX2rT9wLs4NcV")
        let nextLaunch = LastClick(storage: storage, clock: clock)
        #expect(
            nextLaunch.lastClickId == "Qm7pX2rT9wLs4NcV",
            "the click id must live in storage, not in the LastClick value: a new launch reads it back")
    }

    /// Read: chapters/10-conversion-tracking.md#the-last-click-id-and-when-it-expires
    @Test func theLastClickLastsThirtyDays() {
        let clock = TestClock()
        let lastClick = LastClick(storage: MemoryStorage(), clock: clock)
        lastClick.remember("Qm7pX2rT9wLs4NcV")
        clock.advance(by: 30 * Self.day - 1)
        #expect(
            lastClick.lastClickId == "Qm7pX2rT9wLs4NcV", "one second before 30 days the click still counts")
        clock.advance(by: 1)
        #expect(
            lastClick.lastClickId == nil,
            "at 30 days the click id has expired: measure age by the injected clock")
    }

    /// Read: chapters/10-conversion-tracking.md#the-last-click-id-and-when-it-expires
    @Test func aNewMatchReplacesTheClickAndStartsANewPeriod() {
        let clock = TestClock()
        let lastClick = LastClick(storage: MemoryStorage(), clock: clock)
        lastClick.remember("first")
        clock.advance(by: 20 * Self.day)
        lastClick.remember("second")
        clock.advance(by: 20 * Self.day)
        #expect(
            lastClick.lastClickId == "second",
            "the newer match replaced the older one and its 30 days start anew")
    }

    /// Read: chapters/10-conversion-tracking.md#the-last-click-id-and-when-it-expires
    @Test func theExpiryIsConfigurable() {
        let clock = TestClock()
        let lastClick = LastClick(storage: MemoryStorage(), clock: clock, expiryDays: 7)
        lastClick.remember("weekly")
        clock.advance(by: 7 * Self.day)
        #expect(lastClick.lastClickId == nil, "with expiryDays 7 the click id expires after a week")
    }

    /// A click id keeps the expiry it was stored with: changing the setting later changes only the
    /// click ids remembered after the change.
    /// Read: chapters/10-conversion-tracking.md#the-last-click-id-and-when-it-expires
    @Test func aStoredClickKeepsTheExpiryItWasStoredWith() {
        let storage = MemoryStorage()
        let clock = TestClock()
        LastClick(storage: storage, clock: clock, expiryDays: 30).remember("monthly")
        clock.advance(by: 8 * Self.day)
        #expect(
            LastClick(storage: storage, clock: clock, expiryDays: 7).lastClickId == "monthly",
            "store the expiry time with the click id: a later, shorter expiryDays must not cut it short")
    }

    /// Read: chapters/10-conversion-tracking.md#direct-anonymous-attributed
    @Test func aCustomerWhoCameThroughALinkIsAttributed() {
        let lastClick = LastClick(storage: MemoryStorage(), clock: TestClock())
        lastClick.remember("Qm7pX2rT9wLs4NcV")
        let lead = lastClick.lead(externalId: "user_42")
        #expect(
            lead == .attributed(clickId: "Qm7pX2rT9wLs4NcV", externalId: "user_42"),
            "a live click and a customer make an attributed lead")
        #expect(lead?.customerId == "user_42", "filed under the customer's own id")
    }

    /// Read: chapters/10-conversion-tracking.md#direct-anonymous-attributed
    @Test func aVisitorWithoutAnAccountIsAnonymous() {
        let lastClick = LastClick(storage: MemoryStorage(), clock: TestClock())
        lastClick.remember("Qm7pX2rT9wLs4NcV")
        let lead = lastClick.lead(externalId: nil)
        #expect(
            lead == .anonymous(clickId: "Qm7pX2rT9wLs4NcV"), "a live click without a customer is anonymous")
        #expect(lead?.customerId == "anon_Qm7pX2rT9wLs4NcV", "filed under anon_<click id>")
    }

    /// Read: chapters/10-conversion-tracking.md#direct-anonymous-attributed
    @Test func anExpiredClickFallsBackToADirectLead() {
        let clock = TestClock()
        let lastClick = LastClick(storage: MemoryStorage(), clock: clock)
        lastClick.remember("old")
        clock.advance(by: 90 * Self.day)
        let lead = lastClick.lead(externalId: "user_42")
        #expect(lead == .direct(externalId: "user_42"), "past the window the lead is direct: no guessing")
        #expect(lead?.clickId == "", "a direct lead sends click_id \"\"")
    }

    /// Read: chapters/10-conversion-tracking.md#direct-anonymous-attributed
    @Test func nobodyAndNoClickIsNoLead() {
        let lastClick = LastClick(storage: MemoryStorage(), clock: TestClock())
        #expect(
            lastClick.lead(externalId: nil) == nil,
            "without a click and without a customer there is nothing to send")
    }
}
