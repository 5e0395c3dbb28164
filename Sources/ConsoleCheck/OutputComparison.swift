import Foundation
import Literate
import StrictJSON

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
        if let expectedJSON = JSONValue(document: Data(expectedText.utf8)),
            let actualJSON = JSONValue(document: Data(actual.utf8))
        {
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

extension JSONValue {
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
}
