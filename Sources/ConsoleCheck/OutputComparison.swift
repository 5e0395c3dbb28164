import Foundation
import Literate

/// Compares what a command printed with what its transcript shows, whole.
///
/// When both sides are a JSON object or array, they are compared as values: key order and
/// white space do not matter, so a transcript may show compact output or pretty-printed output
/// (`| python3 -m json.tool`) alike. Anything else is compared line by line, exactly. In both
/// cases a `<placeholder>` in the expected text matches one token of its shape.
///
/// ```swift
/// let comparison = OutputComparison(expected: ["{\"id\": \"<clickId>\"}"], actual: "{\"id\":\"Ab3dEf6hIj9kLm2n\"}\n")
/// comparison.matches  // true
/// ```
package struct OutputComparison {
    let expectedText: String
    let actualText: String
    /// Whether both sides were read as JSON values.
    let comparedAsJSON: Bool
    let matches: Bool
    /// The actual output with every part that matched shown as the expected text, so that a diff
    /// names only what differs (a matched placeholder is not a difference).
    let alignedActual: String
    /// The expected text in the form the diff shows (pretty-printed JSON when compared as JSON).
    let shownExpected: String

    init(expected: [String], actual output: String) {
        expectedText = expected.joined(separator: "\n")
        // A terminal shows CRLF as a line break; the last line break is the end of the output.
        var actual = output.replacingOccurrences(of: "\r\n", with: "\n")
        if actual.hasSuffix("\n") { actual.removeLast() }
        actualText = actual
        if let expectedJSON = JSONValue(parsing: expectedText), let actualJSON = JSONValue(parsing: actual) {
            comparedAsJSON = true
            let aligned = actualJSON.aligned(to: expectedJSON)
            matches = aligned == expectedJSON
            shownExpected = expectedJSON.pretty()
            alignedActual = aligned.pretty()
        } else {
            comparedAsJSON = false
            let actualLines =
                actual.isEmpty
                ? []
                : actual.split(separator: "\n", omittingEmptySubsequences: false)
                    .map(String.init)
            let expectedLines = expected
            var aligned: [String] = []
            for (index, line) in actualLines.enumerated() {
                if index < expectedLines.count, OutputPattern(line: expectedLines[index]).matches(line) {
                    aligned.append(expectedLines[index])
                } else {
                    aligned.append(line)
                }
            }
            matches = aligned == expectedLines
            shownExpected = expectedLines.joined(separator: "\n")
            alignedActual = aligned.joined(separator: "\n")
        }
    }

    /// A unified diff from the transcript to the output.
    func diff(expectedName: String, actualName: String) -> String {
        UnifiedDiff.diff(
            old: shownExpected + "\n", new: alignedActual + "\n", oldName: expectedName, newName: actualName)
    }
}

/// A JSON value, read with Foundation's decoder so that `true` and `1` stay different.
indirect enum JSONValue: Equatable, Decodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Reads `text` when it is a JSON object or array (a lone number or word is compared as text).
    init?(parsing text: String) {
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\t" }
        guard trimmed.first == "{" || trimmed.first == "[",
            let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        else { return nil }
        self = value
    }

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys {
                members[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
            }
            self = .object(members)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// This (actual) value with every string that matches the expected one's pattern replaced by
    /// the expected string, member by member and item by item.
    func aligned(to expected: JSONValue) -> JSONValue {
        switch (self, expected) {
        case (.string(let actual), .string(let pattern)):
            return OutputPattern(line: pattern).matches(actual) ? expected : self
        case (.array(let actual), .array(let items)):
            return .array(
                actual.enumerated().map { index, value in
                    index < items.count ? value.aligned(to: items[index]) : value
                })
        case (.object(let actual), .object(let members)):
            return .object(
                actual.reduce(into: [:]) { result, member in
                    result[member.key] =
                        members[member.key].map { member.value.aligned(to: $0) } ?? member.value
                })
        default:
            return self
        }
    }

    /// Two-space indented, keys sorted: the form a diff of two values is easiest to read in.
    func pretty(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .number(let value): return String(value)
        case .string(let value): return Self.quoted(value)
        case .array(let items):
            guard !items.isEmpty else { return "[]" }
            return "[\n" + items.map { inner + $0.pretty(indent: inner) }.joined(separator: ",\n")
                + "\n\(indent)]"
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            let lines = members.keys.sorted().map { key in
                inner + Self.quoted(key) + ": " + members[key]!.pretty(indent: inner)
            }
            return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
        }
    }

    private static func quoted(_ text: String) -> String {
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
