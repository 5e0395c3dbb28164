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
        /// Text in an HTML block on `line`, found as `before + text + after`: an element's
        /// whole content (`>Load the demo</button>`, `<summary>` included) or an attribute a
        /// reader sees (`aria-label="…"`, `title`, `placeholder`, `alt`).
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

    /// The texts of one line of HTML (see `htmlTexts(in:line:)`), in order, each with what
    /// surrounds it on the line.
    static func htmlTexts(onLine line: String) -> [(text: String, before: String, after: String)] {
        var found: [(position: String.Index, text: String, before: String, after: String)] = []
        let element = /<([a-zA-Z][a-zA-Z0-9]*)(?:\s[^<>]*)?>([^<>]+)<\/\1>/
        for match in line.matches(of: element) {
            let tag = match.output.1.lowercased()
            guard !["code", "kbd", "pre", "samp", "script", "style", "var"].contains(tag) else { continue }
            let text = String(match.output.2)
            guard hasWords(text), text.trimmingCharacters(in: .whitespaces) == text else { continue }
            found.append((match.output.2.startIndex, text, ">", "</\(match.output.1)>"))
        }
        let attribute = /\b(aria-label|title|placeholder|alt)="([^"<>]*)"/
        for match in line.matches(of: attribute) where hasWords(String(match.output.2)) {
            found.append((match.output.2.startIndex, String(match.output.2), "\(match.output.1)=\"", "\""))
        }
        return found.sorted { $0.position < $1.position }.map { ($0.text, $0.before, $0.after) }
    }

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
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
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

        /// The texts a reader sees in an HTML block, each at its line: the whole content of an
        /// element written on one line without tags inside (`<button>Load the demo</button>`,
        /// a hint's `<summary>`), except code, and the attributes that are read aloud or shown
        /// (`aria-label`, `title`, `placeholder`, `alt`). A paragraph of HTML spread over lines,
        /// or holding other tags, stays as written.
        private mutating func htmlTexts(in html: String, line: Int) {
            var number = line
            for text in html.split(separator: "\n", omittingEmptySubsequences: false) {
                defer { number += 1 }
                let lineText = String(text)
                for found in MarkdownMessages.htmlTexts(onLine: lineText) {
                    add(
                        found.text, line: number,
                        at: .html(line: number, before: found.before, after: found.after))
                }
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
