import Foundation
import Literate
import Testing

/// `String.lines` finds lines with a loop over bytes; it must give what the `Character` split
/// gives, whatever the text.
struct TextLinesTests {
    static let texts = [
        "", "\n", "one", "one\ntwo", "one\ntwo\n", "\n\nthree\n\n", "liên kết\nsâu",
        "a\n\u{301}accent after a line feed", "windows\r\nline\r\nends", "a lone \r in a line\nnext",
        "ends with a line feed\n\n", "🇻🇳\n\n\nliên\n",
    ]

    @Test(arguments: texts)
    func linesAreTheCharacterSplit(text: String) {
        #expect(text.lines == text.split(separator: "\n", omittingEmptySubsequences: false))
    }
}

/// The byte search and the trim that stand in for Foundation's on the build's hot paths.
struct TextSearchTests {
    /// `containsBytes` is a search of the text's UTF-8 bytes: it is compared with the search
    /// spelled out over an array of bytes, on texts and needles cut from them at every byte.
    @Test(arguments: ["", "(Apple: a)", "liên kết sâu (this book)", "e\u{301} and é", "🇻🇳 ((x"])
    func containsBytesIsAByteSearch(text: String) {
        let bytes = Array(text.utf8)
        func reference(_ needle: [UInt8]) -> Bool {
            needle.isEmpty
                || (needle.count <= bytes.count
                    && (0...(bytes.count - needle.count)).contains {
                        bytes[$0..<($0 + needle.count)].elementsEqual(needle)
                    })
        }
        for start in 0...bytes.count {
            for end in start...min(bytes.count, start + 6) {
                let needle = Array(bytes[start..<end])
                guard let string = String(validating: needle, as: UTF8.self) else { continue }
                #expect(text.containsBytes(string) == reference(needle), "\(string) in \(text)")
            }
        }
        #expect(!text.containsBytes("(RFC "))
        #expect(text.containsBytes(text))
        // A substring searches its own bytes only.
        let inner = ("[" + text + "]").dropFirst().dropLast()
        #expect(inner.containsBytes(text))
        #expect(!inner.containsBytes("["))
    }

    /// The trim gives what Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` gives,
    /// with every kind of white space and line end at either end, and none inside the text.
    @Test func trimmingWhitespaceAndNewlinesIsFoundations() {
        let ends = [
            "", " ", "\t", "\n", "\r\n", "\u{A0}", "\u{2028}", "\u{85}", "\u{3000}", "\u{301}", " \u{301}",
            "x",
        ]
        let middles = ["", "a", "liên kết", "a \n b", "\u{A0}", "e\u{301}", "🇻🇳"]
        for before in ends {
            for middle in middles {
                for after in ends {
                    let text = before + middle + after
                    #expect(
                        text.trimmingWhitespaceAndNewlines
                            == text.trimmingCharacters(in: .whitespacesAndNewlines),
                        "\(Array(text.unicodeScalars))")
                    let sub = ("[" + text + "]").dropFirst().dropLast()
                    #expect(
                        sub.trimmingWhitespaceAndNewlines
                            == sub.trimmingCharacters(in: .whitespacesAndNewlines))
                }
            }
        }
    }
}
