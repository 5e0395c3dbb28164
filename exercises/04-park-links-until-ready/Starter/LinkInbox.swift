/// Holds links that arrive before the app can navigate, and releases them once, in order
/// (chapter 02, "Links that arrive too early").
///
/// Every method returns the links to deliver *now*, so the app has one code path:
///
/// ```swift
/// var inbox = LinkInbox<URL>()
/// inbox.receive(coldStartURL)                  // []: parked, nothing can show it yet
/// for url in inbox.markReady() { open(url) }   // [coldStartURL]
/// for url in inbox.receive(nextURL) { open(url) }   // [nextURL]: straight through
/// ```
struct LinkInbox<Link: Sendable>: Sendable {
    /// Whether navigation exists and links may pass straight through.
    private(set) var isReady = false
    /// The links waiting for navigation, oldest first.
    private(set) var parked: [Link] = []

    init() {}

    /// Accepts a link: returns `[link]` when navigation is ready, otherwise parks it and
    /// returns `[]`.
    @discardableResult
    mutating func receive(_ link: Link) -> [Link] {
        // TODO: Park the link unless navigation is ready. Right now every link is delivered at
        //       once, which loses the links of a cold start.
        return [link]
    }

    /// Navigation is ready: returns the parked links, oldest first, exactly once.
    mutating func markReady() -> [Link] {
        // TODO: Become ready, hand out what was parked, and forget it, so that a second call
        //       delivers nothing twice.
        return []
    }

    /// Navigation went away (logout, the scene was torn down): later links wait again.
    /// Returns the parked links it dropped, so the caller can log them.
    @discardableResult
    mutating func reset() -> [Link] {
        // TODO: Stop being ready, and drop (and return) whatever was parked.
        return []
    }
}
