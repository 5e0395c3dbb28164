import Foundation
import StrictJSON
import Testing

/// The JSON types (source: "RFC 8259 §3") and the printed form
/// (source: "this book: printed JSON has sorted keys, two-space indents and whole numbers as integers").
struct JSONValueTests {
    @Test func readsEveryTypeKeepingBooleansAndNumbersApart() throws {
        let value = try JSONValue(
            data: Data(#"{"a":[true,1,1.5,"x",null],"b":{"c":false},"d":0}"#.utf8))
        #expect(
            value
                == .object([
                    "a": .array([.bool(true), .number(1), .number(1.5), .string("x"), .null]),
                    "b": .object(["c": .bool(false)]), "d": .number(0),
                ]))
    }

    @Test func aDocumentIsAnObjectOrAnArray() {
        #expect(JSONValue(document: Data("  \n[1]".utf8)) == .array([.number(1)]))
        #expect(JSONValue(document: Data(#"{"k":"v"}"#.utf8)) == .object(["k": .string("v")]))
        // A lone value parses, but text that happens to be one is not taken for a document.
        #expect(JSONValue(document: Data("42".utf8)) == nil)
        #expect(JSONValue(document: Data(#""quoted""#.utf8)) == nil)
        #expect(JSONValue(document: Data("{not json".utf8)) == nil)
        #expect(JSONValue(document: Data()) == nil)
    }

    @Test func encodingGivesBackTheSameValue() throws {
        let value = JSONValue.object([
            "list": .array([.null, .bool(false), .number(-2.25), .string("é\n")]), "empty": .object([:]),
        ])
        #expect(try JSONValue(data: JSONEncoder().encode(value)) == value)
        #expect(String(decoding: try JSONEncoder().encode(JSONValue.null), as: UTF8.self) == "null")
    }

    @Test func prettyPrintsSortedKeysAndWholeNumbers() {
        let value = JSONValue.object([
            "b": .array([.number(30), .number(0.5), .string("tab\there \"q\"")]), "a": .object([:]),
            "c": .array([]), "d": .null,
        ])
        #expect(
            value.pretty() == """
                {
                  "a": {},
                  "b": [
                    30,
                    0.5,
                    "tab\\there \\"q\\""
                  ],
                  "c": [],
                  "d": null
                }
                """)
        #expect(JSONValue.numberText(1e15) == "1000000000000000.0")
        #expect(JSONValue.numberText(1e16) == "1e+16")
        #expect(JSONValue.numberText(-7) == "-7")
        #expect(JSONValue.quoted("\u{1}") == #""\u0001""#)
    }

    @Test func accessorsAnswerNilOrEmptyForOtherTypes() {
        let value = JSONValue.object(["s": .string("x"), "n": .number(2), "t": .bool(true)])
        #expect(value["s"]?.string == "x")
        #expect(value["n"]?.number == 2)
        #expect(value["t"]?.bool == true)
        #expect(value["missing"] == nil)
        #expect(value["s"]?["deeper"] == nil)
        #expect(value.items == [])
        #expect(value.sortedMembers.map(\.key) == ["n", "s", "t"])
        #expect(JSONValue.array([.null]).sortedMembers.isEmpty)
    }
}
