import Foundation
import Literate
import Weave

/// One translatable text of a Markdown file and the 1-based line where it starts.
public struct SourceMessage: Equatable, Sendable {
    /// The element's Markdown source: inline code spans, links and emphasis stay as written.
    public var text: String
    public var line: Int

    public init(text: String, line: Int) {
        (self.text, self.line) = (text, line)
    }
}

/// Splits a Markdown file into its messages, the units a translator translates, read through
/// the same cmark parser the site is woven with.
///
/// Each heading, paragraph (at the top level, in a list item or in a block quote), table cell and
/// image alt text is one message, and so is the text of each `<summary>` element of an HTML
/// block (the hints' titles). Code blocks never are: what is tangled or checked cannot be
/// changed by a translation. A paragraph that holds nothing but images gives their alt texts;
/// an image among words stays inside its paragraph, as inline code spans do.
public enum MarkdownMessages {
    /// The messages of `source`, in document order.
    public static func extract(_ source: String) -> [SourceMessage] {
        placed(source).map(\.message)
    }

    /// Where in its file's lines a message sits, for ``MarkdownTranslator`` to put its
    /// translation in the same place.
    enum Placement: Equatable {
        /// Paragraph text (or a setext heading's text) on these lines, the first from `column`,
        /// the others after their indentation and `quoteDepth` block quote markers.
        case lines(ClosedRange<Int>, column: Int, quoteDepth: Int)
        /// An ATX heading's text on its line.
        case atx(line: Int)
        /// Cell `index` of the table row on `line`, in a paragraph that starts at `column`
        /// (`isFirst` when the row is the paragraph's first line, cut at `column`; the others lose
        /// up to `column - 1` spaces or `>` markers, as ``GFMTable`` reads them).
        /// `row` holds every cell of the row as the table reads it, so that the row can be
        /// written again with some of them translated.
        case cell(line: Int, index: Int, row: [String], column: Int, isFirst: Bool)
        /// An image's alt text (`![text]`) on `line`.
        case alt(line: Int)
        /// Text in an HTML block from `line` on (over as many lines as it has), found as
        /// `before + text + after`: an element's content (`<button …>Load the demo</button>`, a
        /// `<summary>`, a `<p>` with a `<code>` inside) or an attribute a reader sees
        /// (`aria-label="…"`, `title`, `placeholder`, `alt`).
        case html(line: Int, before: String, after: String)
    }

    struct Placed: Equatable {
        var message: SourceMessage
        var placement: Placement
    }

    /// The messages of `source` with their places, in document order.
    static func placed(_ source: String) -> [Placed] {
        var walk = Walk(lines: SourceText(source))
        walk.blocks(MarkdownParser.parse(source).children, quoteDepth: 0)
        return walk.messages
    }

    /// The texts a reader sees in a block of HTML, in order, each with what surrounds it and
    /// the line (from 0) where it starts: the content of an element holding text and inline
    /// tags only (`<button>Load the demo</button>`, a `<p>` over several lines with a `<code>`
    /// in it, a hint's `<summary>`), and the attributes that are shown or read aloud.
    static func htmlTexts(inBlock html: String) -> [(text: String, line: Int, before: String, after: String)]
    {
        var found: [(position: Int, text: String, line: Int, before: String, after: String)] = []
        let text = html as NSString
        func lineOf(_ location: Int) -> Int {
            text.substring(to: location).reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        }
        for match in elementPattern.matches(in: html, range: NSRange(location: 0, length: text.length)) {
            let inner = text.substring(with: match.range(at: 3))
            let trimmed = inner.trimmingCharacters(in: .whitespacesAndNewlines)
            let words = trimmed.replacingOccurrences(of: "<[^<>]*>", with: " ", options: .regularExpression)
            guard !trimmed.isEmpty, hasWords(words) else { continue }
            let leading = inner.prefix { $0.isWhitespace }
            let trailing = String(inner.reversed().prefix { $0.isWhitespace }.reversed())
            let opening = text.substring(
                with: NSRange(
                    location: match.range.location, length: match.range(at: 3).location - match.range.location
                ))
            let closing = "</" + text.substring(with: match.range(at: 1)) + ">"
            let start = match.range(at: 3).location + (leading as Substring).utf16.count
            found.append((start, trimmed, lineOf(start), opening + leading, trailing + closing))
        }
        for match in attributePattern.matches(in: html, range: NSRange(location: 0, length: text.length)) {
            let value = text.substring(with: match.range(at: 2))
            guard hasWords(value) else { continue }
            let name = text.substring(with: match.range(at: 1))
            let start = match.range(at: 2).location
            found.append((start, value, lineOf(start), name + "=\"", "\""))
        }
        return found.sorted { $0.position < $1.position }.map { ($0.text, $0.line, $0.before, $0.after) }
    }

    /// An element of text: its tag, its attributes, and content of text and inline tags only.
    private static let elementPattern = try! NSRegularExpression(
        pattern:
            #"<(p|li|label|td|th|dt|dd|h[1-6]|figcaption|legend|summary|option|button|a|span|strong|em|div)\b([^<>]*)>((?:[^<]|<(?:/?(?:a|code|kbd|em|strong|span|b|i|abbr|small)\b[^<>]*|br\s*/?|input\b[^<>]*)>)*?)</\1>"#,
        options: [.caseInsensitive])
    private static let attributePattern = try! NSRegularExpression(
        pattern: #"\b(aria-label|title|placeholder|alt)="([^"<>]*)""#)

    /// Whether a text has something to translate: a letter outside its inline code spans. A
    /// table cell that is only `li2_cid`, `200` or `—` reads the same in every language, so it is
    /// no message and the translated page shows it as it is.
    public static func hasWords(_ text: String) -> Bool {
        var rest = Substring(text)
        while let letter = rest.firstIndex(where: { $0 == "`" || $0.isLetter }) {
            guard rest[letter] == "`" else { return true }
            let run = rest[letter...].prefix { $0 == "`" }
            let after = rest[run.endIndex...]
            guard let close = after.range(of: String(run)) else { return after.contains(where: \.isLetter) }
            rest = after[close.upperBound...]
        }
        return false
    }

    private struct Walk {
        let source: SourceText
        var messages: [Placed] = []

        init(lines: SourceText) { self.source = lines }

        mutating func blocks(_ nodes: [MarkdownNode], quoteDepth: Int) {
            for node in nodes { block(node, quoteDepth: quoteDepth) }
        }

        mutating func block(_ node: MarkdownNode, quoteDepth: Int) {
            switch node.kind {
            case .blockQuote:
                blocks(node.children, quoteDepth: quoteDepth + 1)
            case .list, .item, .document:
                blocks(node.children, quoteDepth: quoteDepth)
            case .heading:
                heading(node, quoteDepth: quoteDepth)
            case .paragraph:
                paragraph(node, quoteDepth: quoteDepth)
            case .htmlBlock(let html):
                htmlTexts(in: html, line: node.line)
            default:
                // Code blocks, thematic breaks: nothing to translate.
                break
            }
        }

        private mutating func add(_ text: String, line: Int, at placement: Placement) {
            let trimmed = text.trimmingWhitespaceAndNewlines
            guard MarkdownMessages.hasWords(trimmed) else { return }
            messages.append(Placed(message: SourceMessage(text: trimmed, line: line), placement: placement))
        }

        private mutating func heading(_ node: MarkdownNode, quoteDepth: Int) {
            if node.endLine > node.line {
                // A setext heading: its text lines, then the `===` or `---` underline (cmark may
                // end the heading on the line after it).
                var last = node.line
                while last < node.endLine, !isUnderline(text(ofLine: last + 1, from: 1)) { last += 1 }
                add(
                    lines(node.line...last, column: node.column, quoteDepth: quoteDepth), line: node.line,
                    at: .lines(node.line...last, column: node.column, quoteDepth: quoteDepth))
                return
            }
            var text = Substring(text(ofLine: node.line, from: node.column))
            text = text.drop { $0 == " " }.drop { $0 == "#" }
            text = Substring(text.trimmingCharacters(in: .whitespaces))
            // An optional closing sequence: spaces, then only `#`s.
            let closing = text.reversed().prefix { $0 == "#" }.count
            if closing == text.count {
                text = ""
            } else if closing > 0 {
                let before = text.dropLast(closing)
                if before.last == " " || before.last == "\t" { text = before }
            }
            add(String(text), line: node.line, at: .atx(line: node.line))
        }

        private mutating func paragraph(_ node: MarkdownNode, quoteDepth: Int) {
            if node.endLine > node.line,
                let table = GFMTable.recognize(
                    line: node.line, column: node.column, endLine: node.endLine, in: source)
            {
                if table.startLine > node.line {
                    let range = node.line...(table.startLine - 1)
                    add(
                        lines(range, column: node.column, quoteDepth: quoteDepth), line: node.line,
                        at: .lines(range, column: node.column, quoteDepth: quoteDepth))
                }
                let column = node.column
                let header = table.header.map(\.text)
                for (index, cell) in header.enumerated() {
                    add(
                        cell, line: table.startLine,
                        at: .cell(
                            line: table.startLine, index: index, row: header, column: column,
                            isFirst: table.startLine == node.line))
                }
                for (number, row) in table.rows.enumerated() {
                    let line = table.startLine + 2 + number
                    let cells = row.map(\.text)
                    for (index, cell) in cells.enumerated() {
                        add(
                            cell, line: line,
                            at: .cell(line: line, index: index, row: cells, column: column, isFirst: false))
                    }
                }
                return
            }
            if isImagesOnly(node) {
                var line = node.line
                for child in node.children {
                    switch child.kind {
                    case .image: add(child.plainText, line: line, at: .alt(line: line))
                    case .softBreak, .lineBreak: line += 1
                    default: break
                    }
                }
                return
            }
            add(
                lines(node.line...node.endLine, column: node.column, quoteDepth: quoteDepth), line: node.line,
                at: .lines(node.line...node.endLine, column: node.column, quoteDepth: quoteDepth))
        }

        /// A setext heading's underline: `=`s or `-`s, after any block quote markers.
        private func isUnderline(_ line: String) -> Bool {
            let marks = line.filter { $0 != " " && $0 != "\t" && $0 != ">" }
            return !marks.isEmpty && (marks.allSatisfy { $0 == "=" } || marks.allSatisfy { $0 == "-" })
        }

        /// A paragraph of images and the white space between them.
        private func isImagesOnly(_ node: MarkdownNode) -> Bool {
            var images = 0
            for child in node.children {
                switch child.kind {
                case .image: images += 1
                case .softBreak, .lineBreak: continue
                case .text(let text) where text.allSatisfy(\.isWhitespace): continue
                default: return false
                }
            }
            return images > 0
        }

        /// The texts a reader sees in an HTML block (``MarkdownMessages/htmlTexts(inBlock:)``),
        /// each at the line where it starts.
        private mutating func htmlTexts(in html: String, line: Int) {
            for found in MarkdownMessages.htmlTexts(inBlock: html) {
                let number = line + found.line
                add(
                    found.text, line: number,
                    at: .html(line: number, before: found.before, after: found.after))
            }
        }

        /// Source lines `range` of a paragraph-like block as one text: the first from `column`,
        /// the others without their indentation and the `>` markers of enclosing block quotes
        /// (both insignificant in a paragraph's continuation lines).
        private func lines(_ range: ClosedRange<Int>, column: Int, quoteDepth: Int) -> String {
            var result: [Substring] = []
            for number in range {
                if number == range.lowerBound {
                    result.append(Substring(text(ofLine: number, from: column)))
                    continue
                }
                var line = Substring(text(ofLine: number, from: 1))
                line = line.drop { $0 == " " || $0 == "\t" }
                for _ in 0..<quoteDepth where line.first == ">" {
                    line = line.dropFirst().drop { $0 == " " || $0 == "\t" }
                }
                result.append(line)
            }
            while let last = result.last, last.allSatisfy(\.isWhitespace) { result.removeLast() }
            return result.joined(separator: "\n")
        }

        /// Line `number` from the 1-based byte `column` on.
        private func text(ofLine number: Int, from column: Int) -> String {
            let bytes = source.line(number)
            return String(decoding: bytes.dropFirst(max(0, column - 1)), as: UTF8.self)
        }
    }
}
