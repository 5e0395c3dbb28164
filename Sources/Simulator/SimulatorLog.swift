import Foundation
import StrictJSON

extension JSONValue {
    /// The longest text body the log keeps; longer ones are cut and marked, so that a big page
    /// cannot make one session expensive to keep or to send.
    public static let maximumLoggedTextLength = 4_096

    /// A body as the simulator's log shows it: parsed when it is a JSON object or array, so the
    /// page can fold it open, and kept as (possibly cut) text otherwise (an HTML page, nothing).
    ///
    /// ```swift
    /// JSONValue(loggedBody: Data(#"{"clickId":"c1"}"#.utf8))  // .object(["clickId": .string("c1")])
    /// ```
    public init(loggedBody body: Data) {
        if let value = JSONValue(document: body) {
            self = value
            return
        }
        let text = String(decoding: body, as: UTF8.self)
        if text.count > Self.maximumLoggedTextLength {
            self = .string(String(text.prefix(Self.maximumLoggedTextLength)) + "… (cut)")
        } else {
            self = .string(text)
        }
    }
}

/// One line of a session's log: a request the simulated phone sent, or the answer it got.
public struct SimulatorLogEntry: Equatable, Sendable, Encodable {
    /// The event that caused it (`tapLink`, `launch`, `paste`, …).
    public var step: String
    /// `request` or `response`.
    public var direction: String
    public var method: String
    public var url: String
    /// The status of a response; nil for a request.
    public var status: Int?
    public var headers: [String: String]
    public var body: JSONValue

    public init(
        step: String, direction: String, method: String, url: String, status: Int? = nil,
        headers: [String: String], body: JSONValue
    ) {
        (self.step, self.direction, self.method, self.url, self.status, self.headers, self.body) = (
            step, direction, method, url, status, headers, body
        )
    }
}

/// A session's log, bounded: past ``limit`` entries the oldest go, and ``dropped`` counts them.
@MainActor
final class SimulatorLog {
    let limit: Int
    private(set) var entries: [SimulatorLogEntry] = []
    private(set) var dropped = 0
    /// The event being played, written into every entry it causes.
    var step = ""

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    func append(_ entry: SimulatorLogEntry) {
        entries.append(entry)
        if entries.count > limit {
            let excess = entries.count - limit
            entries.removeFirst(excess)
            dropped += excess
        }
    }
}
