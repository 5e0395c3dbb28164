import Testing

@testable import ParkLinksUntilReady

/// Each test plays one story from chapter 02, "Links that arrive too early", and checks what is
/// delivered at every step.
struct LinkInboxTests {
    /// Read: chapters/02-routing.md#links-that-arrive-too-early
    @Test func aLinkOnAColdStartWaitsForNavigation() {
        var inbox = LinkInbox<String>()
        let delivered = inbox.receive("myapp://product/42")
        #expect(
            delivered == [],
            "before markReady() a link must be parked, not delivered: nothing can show it yet")
        #expect(
            inbox.parked == ["myapp://product/42"], "the parked link must be kept until navigation is ready")
        #expect(!inbox.isReady, "a new inbox is not ready")
    }

    /// Read: chapters/02-routing.md#links-that-arrive-too-early
    @Test func navigationBecomingReadyReleasesParkedLinksOldestFirst() {
        var inbox = LinkInbox<String>()
        inbox.receive("first")
        inbox.receive("second")
        let released = inbox.markReady()
        #expect(released == ["first", "second"], "markReady() must return every parked link, oldest first")
        #expect(inbox.parked == [], "released links must leave the inbox")
        #expect(inbox.isReady, "after markReady() the inbox is ready")
    }

    /// Read: chapters/02-routing.md#links-that-arrive-too-early
    @Test func parkedLinksAreDeliveredOnlyOnce() {
        var inbox = LinkInbox<String>()
        inbox.receive("first")
        _ = inbox.markReady()
        #expect(inbox.markReady() == [], "a second markReady() must deliver nothing: no link twice")
    }

    /// Read: chapters/02-routing.md#links-that-arrive-too-early
    /// Read: chapters/02-routing.md#cold-start-and-warm-start
    @Test func aLinkOnAWarmStartPassesStraightThrough() {
        var inbox = LinkInbox<String>()
        _ = inbox.markReady()
        #expect(inbox.receive("next") == ["next"], "once ready, a link is delivered at once")
        #expect(inbox.parked == [], "a delivered link is not parked as well")
    }

    /// Read: chapters/02-routing.md#links-that-arrive-too-early
    @Test func logoutMakesLaterLinksWaitAgain() {
        var inbox = LinkInbox<String>()
        _ = inbox.markReady()
        inbox.reset()
        #expect(!inbox.isReady, "reset() must make the inbox not ready")
        #expect(inbox.receive("after-logout") == [], "after reset() links wait again")
        #expect(inbox.markReady() == ["after-logout"], "and are released by the next markReady()")
    }

    /// Read: chapters/02-routing.md#links-that-arrive-too-early
    @Test func resetDropsParkedLinksAndReturnsThem() {
        var inbox = LinkInbox<String>()
        inbox.receive("a")
        inbox.receive("b")
        #expect(inbox.reset() == ["a", "b"], "reset() returns what it dropped, so the app can log it")
        #expect(inbox.markReady() == [], "dropped links must not come back later")
    }

    /// Read: chapters/02-routing.md#cold-start-and-warm-start
    /// Read: chapters/02-routing.md#links-that-arrive-too-early
    @Test func aWholeLaunchDeliversEveryLinkOnceInOrder() {
        var inbox = LinkInbox<Int>()
        var opened: [Int] = []
        opened += inbox.receive(1)
        opened += inbox.receive(2)
        opened += inbox.markReady()
        opened += inbox.receive(3)
        opened += inbox.markReady()
        #expect(
            opened == [1, 2, 3], "a cold start with two links, then a warm one: each opens once, in order")
    }
}
