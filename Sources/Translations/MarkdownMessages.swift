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
        var walk = Walk(lines: SourceText(source))
        walk.blocks(MarkdownParser.parse(source).children, quoteDepth: 0)
        return walk.messages
    }

    private struct Walk {
        let source: SourceText
        var messages: [SourceMessage] = []

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
                summaries(in: html, line: node.line)
            default:
                // Code blocks, thematic breaks: nothing to translate.
                break
            }
        }

        private mutating func add(_ text: String, line: Int) {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { return }
            messages.append(SourceMessage(text: trimmed, line: line))
        }

        private mutating func heading(_ node: MarkdownNode, quoteDepth: Int) {
            if node.endLine > node.line {
                // A setext heading: its text lines, then the `===` or `---` underline (cmark may
                // end the heading on the line after it).
                var last = node.line
                while last < node.endLine, !isUnderline(text(ofLine: last + 1, from: 1)) { last += 1 }
                add(lines(node.line...last, column: node.column, quoteDepth: quoteDepth), line: node.line)
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
            add(String(text), line: node.line)
        }

        private mutating func paragraph(_ node: MarkdownNode, quoteDepth: Int) {
            if node.endLine > node.line,
                let table = GFMTable.recognize(
                    line: node.line, column: node.column, endLine: node.endLine, in: source)
            {
                if table.startLine > node.line {
                    add(
                        lines(node.line...(table.startLine - 1), column: node.column, quoteDepth: quoteDepth),
                        line: node.line)
                }
                for cell in table.header { add(cell.text, line: table.startLine) }
                for (index, row) in table.rows.enumerated() {
                    for cell in row { add(cell.text, line: table.startLine + 2 + index) }
                }
                return
            }
            if isImagesOnly(node) {
                var line = node.line
                for child in node.children {
                    switch child.kind {
                    case .image: add(child.plainText, line: line)
                    case .softBreak, .lineBreak: line += 1
                    default: break
                    }
                }
                return
            }
            add(lines(node.line...node.endLine, column: node.column, quoteDepth: quoteDepth), line: node.line)
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

        /// The text of each `<summary>…</summary>` in an HTML block, at its line.
        private mutating func summaries(in html: String, line: Int) {
            var number = line
            for text in html.split(separator: "\n", omittingEmptySubsequences: false) {
                defer { number += 1 }
                var rest = text[...]
                while let open = rest.range(of: "<summary>", options: .caseInsensitive),
                    let close = rest.range(
                        of: "</summary>", options: .caseInsensitive, range: open.upperBound..<rest.endIndex)
                {
                    add(String(rest[open.upperBound..<close.lowerBound]), line: number)
                    rest = rest[close.upperBound...]
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
