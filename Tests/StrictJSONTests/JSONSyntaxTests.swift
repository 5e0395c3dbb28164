import Foundation
import Testing

@testable import StrictJSON

/// Where the strict JSON check says a text stops being JSON.
struct JSONSyntaxTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var source: String
        var text: String
        var expected: JSONSyntax.Problem?

        var testDescription: String { id }
    }

    static func problem(_ line: Int, _ column: Int, _ message: String) -> JSONSyntax.Problem {
        JSONSyntax.Problem(line: line, column: column, message: message)
    }

    static let cases: [Case] = [
        Case(
            id: "object", source: "RFC 8259 §4", text: #"{"a": [1, -2.5e+3, true, false, null]}"#,
            expected: nil),
        Case(id: "scalar-document", source: "RFC 8259 §2", text: " 42 ", expected: nil),
        Case(
            id: "escapes", source: "RFC 8259 §7", text: #"["\"\\\/\b\f\n\r\t\u00e9", "é"]"#, expected: nil),
        Case(id: "byte-order-mark", source: "RFC 8259 §8.1", text: "\u{FEFF}[]", expected: nil),
        Case(
            id: "trailing-comma-in-object", source: "RFC 8259 §4", text: "{\n  \"a\": 1,\n}",
            expected: problem(2, 9, "a comma before '}': remove the trailing comma")),
        Case(
            id: "trailing-comma-in-array", source: "RFC 8259 §5", text: "[1, 2, ]",
            expected: problem(1, 6, "a comma before ']': remove the trailing comma")),
        Case(
            id: "single-quotes", source: "RFC 8259 §7", text: "{'a': 1}",
            expected: problem(1, 2, JSONSyntax.Message.singleQuotes)),
        Case(
            id: "unquoted-key", source: "RFC 8259 §4", text: "{a: 1}",
            expected: problem(1, 2, JSONSyntax.Message.expectedKey)),
        Case(
            id: "missing-colon", source: "RFC 8259 §4", text: #"{"a" 1}"#,
            expected: problem(1, 6, JSONSyntax.Message.expectedColon)),
        Case(
            id: "missing-comma", source: "RFC 8259 §5", text: "[1 2]",
            expected: problem(1, 4, JSONSyntax.Message.expectedArrayEnd)),
        Case(
            id: "missing-comma-in-object", source: "RFC 8259 §4", text: "{\"a\": 1 \"b\": 2}",
            expected: problem(1, 9, JSONSyntax.Message.expectedObjectEnd)),
        Case(
            id: "leading-zero", source: "RFC 8259 §6", text: "[01]",
            expected: problem(1, 2, JSONSyntax.Message.invalidNumber)),
        Case(
            id: "bare-fraction", source: "RFC 8259 §6", text: "[1.]",
            expected: problem(1, 2, JSONSyntax.Message.invalidNumber)),
        Case(
            id: "plus-sign", source: "RFC 8259 §6", text: "[+1]",
            expected: problem(1, 2, JSONSyntax.Message.expectedValue)),
        Case(
            id: "tab-in-string", source: "RFC 8259 §7", text: "[\"a\tb\"]",
            expected: problem(1, 4, JSONSyntax.Message.controlCharacter)),
        Case(
            id: "unknown-escape", source: "RFC 8259 §7", text: #"["\x"]"#,
            expected: problem(1, 3, JSONSyntax.Message.invalidEscape)),
        Case(
            id: "short-unicode-escape", source: "RFC 8259 §7", text: #"["\u12"]"#,
            expected: problem(1, 3, JSONSyntax.Message.invalidEscape)),
        Case(
            id: "unterminated-string", source: "RFC 8259 §7", text: "{\"a\": \"open}",
            expected: problem(1, 7, JSONSyntax.Message.unterminatedString)),
        Case(
            id: "truncated", source: "RFC 8259 §2", text: "{\"a\": [1,",
            expected: problem(1, 10, JSONSyntax.Message.endOfFile)),
        Case(
            id: "empty", source: "RFC 8259 §2", text: "",
            expected: problem(1, 1, JSONSyntax.Message.endOfFile)
        ),
        Case(
            id: "misspelt-literal", source: "RFC 8259 §3", text: "[tru]",
            expected: problem(1, 2, JSONSyntax.Message.expectedValue)),
        Case(
            id: "text-after-document", source: "RFC 8259 §2", text: "{} {}",
            expected: problem(1, 4, JSONSyntax.Message.trailingText)),
        Case(
            id: "columns-count-characters",
            source: "this book: a JSON problem is placed by line and character column", text: "[\"é\" 1]",
            expected: problem(1, 6, JSONSyntax.Message.expectedArrayEnd)),
        Case(
            id: "deep-nesting", source: "RFC 8259 §9",
            text: String(repeating: "[", count: 600), expected: problem(1, 513, JSONSyntax.Message.tooDeep)),
    ]

    @Test(arguments: cases)
    func locatesTheFirstProblem(_ testCase: Case) {
        #expect(JSONSyntax.firstProblem(in: Data(testCase.text.utf8)) == testCase.expected)
    }

    @Test func validTextIsValidForFoundationToo() throws {
        for testCase in Self.cases where testCase.expected == nil {
            let data = Data(testCase.text.utf8)
            #expect(throws: Never.self, "\(testCase.id)") {
                try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            }
        }
    }
}

/// Where each value starts, by the path a linter names it with.
struct JSONValuePositionsTests {
    @Test func everyValueHasItsLineAndColumnByPath() {
        let text = """
            {
              "applinks": {
                "details": [ { "appIDs": ["A.b"], "components": [ { "/": "/buy/*" } ] } ]
              },
              "é x": null
            }
            """
        let positions = JSONSyntax.valuePositions(in: Data(text.utf8))
        #expect(
            positions == [
                "$": .init(line: 1, column: 1),
                "applinks": .init(line: 2, column: 15),
                "applinks.details": .init(line: 3, column: 16),
                "applinks.details[0]": .init(line: 3, column: 18),
                "applinks.details[0].appIDs": .init(line: 3, column: 30),
                "applinks.details[0].appIDs[0]": .init(line: 3, column: 31),
                "applinks.details[0].components": .init(line: 3, column: 53),
                "applinks.details[0].components[0]": .init(line: 3, column: 55),
                "applinks.details[0].components[0][\"/\"]": .init(line: 3, column: 62),
                "$[\"é x\"]": .init(line: 5, column: 10),
            ])
    }

    /// Foundation keeps the last of two members with one name, so the position is the last one's.
    @Test func aRepeatedNameIsPlacedAtItsLastValue() {
        #expect(
            JSONSyntax.valuePositions(in: Data(#"{"a": 1, "a": [2]}"#.utf8)) == [
                "$": .init(line: 1, column: 1), "a": .init(line: 1, column: 15),
                "a[0]": .init(line: 1, column: 16),
            ])
    }

    @Test func textThatIsNotJSONHasNoPositions() {
        #expect(JSONSyntax.valuePositions(in: Data("{\"a\": }".utf8)) == nil)
    }
}
