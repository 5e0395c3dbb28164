import Foundation

/// Any JSON value (RFC 8259, section 3), for hand-written code that reads or shows JSON without a
/// schema of its own: a transcript's expected output, an OpenAPI document, a logged body.
///
/// Decoding goes through Foundation's `JSONDecoder`, which keeps the JSON types apart: `true` is
/// never a number and `1` never a boolean. Numbers are `Double`s, exact up to 2^53, which is as far
/// as RFC 8259 (section 6) promises that numbers travel between implementations.
///
/// ```swift
/// let value = try JSONValue(data: Data(#"{"clickId":"c1","ttl":30}"#.utf8))
/// value["clickId"]?.string      // "c1"
/// value.pretty()                // "{\n  \"clickId\": \"c1\",\n  \"ttl\": 30\n}"
/// ```
public indirect enum JSONValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Reads one JSON text; throws `DecodingError` when it is not JSON.
    public init(data: Data) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Reads `data` only when it is a JSON object or array: a lone number, word or string is
    /// more likely text that happens to parse than a JSON document.
    public init?(document data: Data) {
        let first = data.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
            let value = try? JSONValue(data: data)
        else { return nil }
        self = value
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // The first attempt that succeeds names the type, since the decoder converts none.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            // A whole number is written as one (`1`, not `1.0`), as a reader would write it.
            if value == value.rounded() && abs(value) < 1e15 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let members): try container.encode(members)
        }
    }
}

extension JSONValue {
    /// The member named `key` of an object; nil for a missing member or a value of another type.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The items of an array; empty for any other value.
    public var items: [JSONValue] {
        if case .array(let values) = self { return values }
        return []
    }

    /// The members of an object sorted by key; empty for any other value.
    public var sortedMembers: [(key: String, value: JSONValue)] {
        if case .object(let members) = self { return members.sorted { $0.key < $1.key } }
        return []
    }

    /// A number as a reader writes it: `30`, not `30.0`, for a whole number within 10^15.
    public static func numberText(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    /// Two-space indented, keys sorted: the form in which two values are easiest to compare by eye.
    public func pretty(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return Self.numberText(value)
        case .string(let value): return Self.quoted(value)
        case .array(let items):
            guard !items.isEmpty else { return "[]" }
            return "[\n" + items.map { inner + $0.pretty(indent: inner) }.joined(separator: ",\n")
                + "\n\(indent)]"
        case .object:
            let members = sortedMembers
            guard !members.isEmpty else { return "{}" }
            let lines = members.map { inner + Self.quoted($0.key) + ": " + $0.value.pretty(indent: inner) }
            return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped (RFC 8259,
    /// section 7); everything else, including non-ASCII text, as it is.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
