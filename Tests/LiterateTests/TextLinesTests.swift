import Literate
import Testing

/// `String.lines` finds lines with a loop over bytes; it must give what the `Character` split
/// gives, whatever the text.
struct TextLinesTests {
    static let texts = [
        "", "\n", "one", "one\ntwo", "one\ntwo\n", "\n\nthree\n\n", "liên kết\nsâu",
        "a\n\u{301}accent after a line feed", "windows\r\nline\r\nends", "a lone \r in a line\nnext",
    ]

    @Test(arguments: texts)
    func linesAreTheCharacterSplit(text: String) {
        #expect(text.lines == text.split(separator: "\n", omittingEmptySubsequences: false))
    }
}
