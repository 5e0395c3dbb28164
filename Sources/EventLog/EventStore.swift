import Foundation

/// An event as the store keeps it. The store assigns `id` (increasing, never reused) and keeps
/// `at` to the millisecond; `json` is the caller's payload, stored byte for byte. Only a store
/// makes one: callers hand it a ``NewEvent``.
///
/// ```swift
/// let stored = try await store.append(NewEvent(type: "open", at: .now, json: Data(#"{"clickId":"…"}"#.utf8)))
/// stored.id  // 1, 2, 3, …
/// ```
public struct StoredEvent: Equatable, Hashable, Sendable {
    public var id: Int64
    public var type: String
    public var at: Date
    public var json: Data
}

/// An event about to be appended; the store gives it its id.
public struct NewEvent: Equatable, Hashable, Sendable {
    public var type: String
    public var at: Date
    public var json: Data

    public init(type: String, at: Date, json: Data) {
        (self.type, self.at, self.json) = (type, at, json)
    }
}

/// One page of the log, newest first, as ``EventStore/page(before:limit:)`` reads it.
public struct EventPage: Equatable, Sendable {
    public var events: [StoredEvent]
    /// Whether events older than the page's last one remain.
    public var hasMore: Bool
    /// How many events the log holds in all.
    public var total: Int

    public init(events: [StoredEvent], hasMore: Bool, total: Int) {
        (self.events, self.hasMore, self.total) = (events, hasMore, total)
    }
}

/// An append-only log of events: the server records one event per successful API call and
/// reads them back, a page at a time, for the dashboard and for tests.
///
/// `append` returns only once the event is stored for good (for the SQLite store: committed
/// to disk), so that a reply that says "recorded" never lies.
///
/// ```swift
/// let store: any EventStore = InMemoryEventStore()
/// try await store.append(NewEvent(type: "open", at: .now, json: Data("{}".utf8)))
/// let latest = try await store.recent(limit: 10)  // newest first
/// let older = try await store.page(before: latest.last?.id, limit: 10)
/// ```
public protocol EventStore: Sendable {
    @discardableResult
    func append(_ event: NewEvent) async throws -> StoredEvent

    /// Up to `limit` events older than the one with id `before` (from the newest when nil),
    /// newest first. Events appended meanwhile never shift a page: they are newer than its start.
    func page(before: Int64?, limit: Int) async throws -> EventPage
}

extension EventStore {
    /// Up to `limit` events, newest first.
    public func recent(limit: Int) async throws -> [StoredEvent] {
        try await page(before: nil, limit: limit).events
    }
}

extension NewEvent {
    /// The event with `at` cut to whole milliseconds, the precision every store keeps, so an
    /// appended event compares equal to the same event read back.
    func stored(id: Int64) -> StoredEvent {
        StoredEvent(id: id, type: type, at: Date(millisecondsSince1970: at.millisecondsSince1970), json: json)
    }
}

extension Date {
    var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded(.down))
    }

    init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}

/// An ``EventStore`` in memory, for unit tests and for a server run that needs no history.
public actor InMemoryEventStore: EventStore {
    private var events: [StoredEvent] = []

    public init() {}

    @discardableResult
    public func append(_ event: NewEvent) -> StoredEvent {
        let stored = event.stored(id: Int64(events.count + 1))
        events.append(stored)
        return stored
    }

    /// Up to `limit` events, newest first (this store cannot fail).
    public func recent(limit: Int) -> [StoredEvent] {
        page(before: nil, limit: limit).events
    }

    public func page(before: Int64?, limit: Int) -> EventPage {
        // Ids are 1, 2, 3, …: the events older than `before` are the first `before - 1`.
        let end = before.map { Int(clamping: max(0, min(Int64(events.count), $0 - 1))) } ?? events.count
        let start = max(0, end - max(0, limit))
        return EventPage(
            events: Array(events[start..<end].reversed()), hasMore: start > 0, total: events.count)
    }
}
