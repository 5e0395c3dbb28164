import AttributionService
import EventLog
import Foundation

/// Stores the service's analytics events in the event log and reads them back for
/// `GET /api/v1/events`.
///
/// ``record(_:)`` returns only when every event is durable (the SQLite store commits before it
/// resumes its callers), so a handler that awaits it before answering never acknowledges an
/// event a crash could lose.
///
/// ```swift
/// let recorder = EventRecorder(store: InMemoryEventStore())
/// try await recorder.record(answer.events)
/// let listing = try await recorder.listing(after: nil, limit: 20)  // {"events":[…],"next":…,"total":…}
/// ```
public struct EventRecorder: Sendable {
    public let store: any EventStore

    public init(store: any EventStore) {
        self.store = store
    }

    public func record(_ events: [AnalyticsEvent]) async throws {
        for event in events {
            let json: Data
            if case .open(let open, let at) = event {
                // Every track/open call writes one: the direct writer is much cheaper.
                json = try TrackOpenJSON.event(open, at: at)
            } else {
                json = try event.fieldsJSON()
            }
            try await store.append(NewEvent(type: event.type, at: event.at, json: json))
        }
    }

    /// `{"events": [{id, type, at, …fields}, …], "next": cursor or null, "total": count}`: a page
    /// of the log, newest first, starting after the cursor `after` (a previous page's `next`).
    /// The cursor is the id of the page's last event, as text; clients pass it back unread.
    public func listing(after: Int64?, limit: Int) async throws -> Data {
        let page = try await store.page(before: after, limit: limit)
        var lines: [String] = []
        for event in page.events {
            lines.append(try Self.render(event))
        }
        let next = page.hasMore ? page.events.last.map { "\"\($0.id)\"" } ?? "null" : "null"
        return Data(
            ("{\"events\":[" + lines.joined(separator: ",") + "],\"next\":\(next),\"total\":\(page.total)}")
                .utf8)
    }

    /// One event as a JSON object: the stored fields, with `id`, `type` and `at` added.
    static func render(_ event: StoredEvent) throws -> String {
        var object = (try JSONSerialization.jsonObject(with: event.json) as? [String: Any]) ?? [:]
        object["id"] = event.id
        object["type"] = event.type
        object["at"] = Self.timestamp(event.at)
        let data = try JSONSerialization.data(
            withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    /// ISO 8601 in UTC with milliseconds, the precision the log keeps: `2025-06-15T15:06:40.000Z`.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(
            Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!))
    }
}
