import Foundation

/// A JSON value as the simulator's log shows a body: parsed when the body is JSON, so the page
/// can fold it open, and kept as text otherwise (an HTML page, an empty body).
///
/// ```swift
/// SimulatorJSON(parsing: Data(#"{"clickId":"c1"}"#.utf8))  // .object(["clickId": .string("c1")])
/// ```
public enum SimulatorJSON: Equatable, Sendable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([SimulatorJSON])
    case object([String: SimulatorJSON])

    /// The longest text body the log keeps; longer ones are cut and marked, so that a big page
    /// cannot make one session expensive to keep or to send.
    public static let maximumTextLength = 4_096

    /// The body as JSON when it parses as a JSON object or array, as (possibly cut) text otherwise.
    public init(parsing body: Data) {
        if let first = body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
            let value = try? JSONDecoder().decode(SimulatorJSON.self, from: body)
        {
            self = value
            return
        }
        let text = String(decoding: body, as: UTF8.self)
        if text.count > Self.maximumTextLength {
            self = .string(String(text.prefix(Self.maximumTextLength)) + "… (cut)")
        } else {
            self = .string(text)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // JSONDecoder is strict about types: `true` is no number and `1` no boolean, so the
        // first attempt that succeeds names the JSON type.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([SimulatorJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: SimulatorJSON].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 1e15 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
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
    public var body: SimulatorJSON

    public init(
        step: String, direction: String, method: String, url: String, status: Int? = nil,
        headers: [String: String], body: SimulatorJSON
    ) {
        self.step = step
        self.direction = direction
        self.method = method
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
    }

    enum CodingKeys: String, CodingKey {
        case step, direction, method, url, status, headers, body
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(step, forKey: .step)
        try container.encode(direction, forKey: .direction)
        try container.encode(method, forKey: .method)
        try container.encode(url, forKey: .url)
        if let status { try container.encode(status, forKey: .status) }
        try container.encode(headers, forKey: .headers)
        try container.encode(body, forKey: .body)
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
