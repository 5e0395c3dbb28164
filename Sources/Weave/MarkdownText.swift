/// Functions for writing Markdown that other passes then read like any chapter: the site's
/// generated pages (glossary, snippet index, API reference) are Markdown, so they get the same
/// anchors, link checks, search entries and rendering as the book.
public enum MarkdownText {
    /// `text` without the line breaks at its start and end (what `trimmingCharacters(in:
    /// .newlines)` removes, without Foundation's cost: generated pages trim every entry).
    static func trimmingNewlines(_ text: String) -> String {
        let start = text.firstIndex { !$0.isNewline } ?? text.endIndex
        let end = text[start...].lastIndex { !$0.isNewline }.map { text.index(after: $0) } ?? start
        return start == text.startIndex && end == text.endIndex ? text : String(text[start..<end])
    }

    /// `text` with every ASCII punctuation character backslash-escaped, so it reads literally
    /// (CommonMark allows the escape before any ASCII punctuation).
    public static func escape(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            switch byte {
            case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E:
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case UInt8(ascii: "\n"):
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A code span holding `text`, with a fence longer than any run of backticks inside it.
    public static func code(_ text: String) -> String {
        var longest = 0
        var run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padding = text.hasPrefix("`") || text.hasSuffix("`") ? " " : ""
        return fence + padding + text + padding + fence
    }

    /// A code span for a table cell: a pipe inside must be escaped even in code.
    static func cellCode(_ text: String) -> String {
        code(text).replacingPipes()
    }

    /// A fence for a code block holding `lines`, longer than any backtick fence inside.
    static func fence(for lines: [String]) -> String {
        var longest = 2
        for line in lines {
            let run = line.drop { $0 == " " }.prefix { $0 == "`" }.count
            longest = max(longest, run)
        }
        return String(repeating: "`", count: longest + 1)
    }

    /// Text for one table cell: line breaks become spaces and pipes are escaped.
    static func cell(_ markdown: String) -> String {
        markdown.split(whereSeparator: \.isNewline).joined(separator: " ").replacingPipes()
    }
}

extension String {
    /// Escapes `|` for a pipe table cell (`\|`), leaving pipes already escaped alone.
    func replacingPipes() -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        var previous: Character?
        for character in self {
            if character == "|", previous != "\\" { result.append("\\") }
            result.append(character)
            previous = character
        }
        return result
    }
}
