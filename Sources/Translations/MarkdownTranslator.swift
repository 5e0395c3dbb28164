import Foundation
import Literate
import Weave

/// Puts the translations of a Markdown file's messages in their places, line for line.
///
/// Each message is found as ``MarkdownMessages`` extracts it; a translated one replaces the
/// source's words on the same lines: a paragraph of five lines stays five lines (its words are
/// wrapped again to fill them), a table row is written again with its cells translated. Code
/// blocks, the lines between messages and the markers of lists, quotes and headings are never
/// touched, so every code block keeps its line, its text and what proves it.
public enum MarkdownTranslator {
    /// `source` with each message that `lookup` translates replaced; the others stay in the
    /// source's language and are listed in the result's fallbacks.
    public static func translate(_ source: String, lookup: (String) -> String?) -> TranslatedMarkdown {
        var lines = source.lines.map(String.init)
        var result = TranslatedMarkdown(markdown: source)
        var rows: [Int: (row: [String], column: Int, isFirst: Bool)] = [:]
        for placed in MarkdownMessages.placed(source) {
            result.messages += 1
            let message = placed.message
            let translation = lookup(message.text).flatMap { $0.isEmpty ? nil : $0 }
            var done = false
            if let translation {
                switch placed.placement {
                case .lines(let range, let column, let depth):
                    done = replaceLines(
                        range, column: column, quoteDepth: depth, with: translation, in: &lines)
                case .atx(let line):
                    done = replaceATX(line: line, text: message.text, with: translation, in: &lines)
                case .cell(let line, let index, let row, let column, let isFirst):
                    var entry = rows[line] ?? (row, column, isFirst)
                    entry.row[index] = words(translation).joined(separator: " ")
                    rows[line] = entry
                    done = true
                case .alt(let line):
                    done = replace(
                        "![" + message.text + "]", with: "![" + oneLine(translation) + "]", line: line,
                        in: &lines)
                case .html(let line, let before, let after):
                    done = replaceHTML(
                        message.text, before: before, after: after, with: translation, from: line, in: &lines)
                }
            }
            if done {
                result.translated += 1
                continue
            }
            switch placed.placement {
            case .lines(let range, _, _): result.fallbackLines.insert(range.lowerBound)
            case .atx(let line): result.fallbackLines.insert(line)
            case .cell(let line, let index, _, _, _): result.fallbackCells[line, default: []].insert(index)
            case .alt, .html: break
            }
        }
        for (line, entry) in rows where line - 1 < lines.count {
            let prefix = containerPrefix(lines[line - 1], column: entry.column, isFirst: entry.isFirst)
            let cells = entry.row.map { $0.replacingOccurrences(of: "|", with: "\\|") }
            lines[line - 1] = prefix + "| " + cells.joined(separator: " | ") + " |"
        }
        result.markdown = lines.joined(separator: "\n")
        return result
    }

    /// The words of a translation, split at any white space (a translator's line breaks are
    /// soft breaks, white space in HTML).
    static func words(_ text: String) -> [Substring] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
    }

    private static func oneLine(_ text: String) -> String { words(text).joined(separator: " ") }

    /// Replaces a paragraph's text on `range`, keeping each line's container prefix. False when
    /// the translation cannot fill the lines without changing the Markdown's structure (fewer
    /// places to break than lines): the message then stays in the source's language.
    private static func replaceLines(
        _ range: ClosedRange<Int>, column: Int, quoteDepth: Int, with translation: String,
        in lines: inout [String]
    ) -> Bool {
        guard range.upperBound <= lines.count else { return false }
        // Trailing lines of white space belong to no message.
        var last = range.upperBound
        while last > range.lowerBound, lines[last - 1].allSatisfy(\.isWhitespace) { last -= 1 }
        let count = last - range.lowerBound + 1
        guard let wrapped = wrap(words(translation), into: count) else { return false }
        for (offset, number) in (range.lowerBound...last).enumerated() {
            let line = lines[number - 1]
            let prefix: String
            if offset == 0 {
                prefix = String(decoding: line.utf8.prefix(max(0, column - 1)), as: UTF8.self)
            } else {
                prefix = quotePrefix(line, depth: quoteDepth)
            }
            lines[number - 1] = prefix + wrapped[offset]
        }
        return true
    }

    /// A continuation line's indentation and its `depth` block quote markers.
    private static func quotePrefix(_ line: String, depth: Int) -> String {
        var rest = Substring(line)
        var prefix = ""
        func takeBlanks() {
            let blanks = rest.prefix { $0 == " " || $0 == "\t" }
            prefix += blanks
            rest = rest.dropFirst(blanks.count)
        }
        takeBlanks()
        for _ in 0..<depth where rest.first == ">" {
            prefix += ">"
            rest = rest.dropFirst()
            takeBlanks()
        }
        return prefix
    }

    /// What ``GFMTable`` strips from a row before reading its cells.
    private static func containerPrefix(_ line: String, column: Int, isFirst: Bool) -> String {
        if isFirst { return String(decoding: line.utf8.prefix(max(0, column - 1)), as: UTF8.self) }
        let taken = line.utf8.prefix(max(0, column - 1)).prefix {
            $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: ">")
        }
        return String(decoding: taken, as: UTF8.self)
    }

    /// `words` in exactly `count` lines of about the same length, never starting a line with
    /// what would begin another block (a list marker, a heading, a quote, a table row, HTML, a
    /// fence or a setext underline); nil when there are not enough places to break.
    static func wrap(_ words: [Substring], into count: Int) -> [String]? {
        guard count > 1 else { return words.isEmpty ? nil : [words.joined(separator: " ")] }
        let inside = insideSpans(words)
        let breakable = words.indices.dropFirst().filter { !inside[$0] && mayStartLine(words[$0]) }
        guard breakable.count >= count - 1 else { return nil }
        let total = words.reduce(0) { $0 + $1.count + 1 }
        // Break before the breakable word nearest to each k/count of the text.
        var lengthBefore: [Int] = []
        var running = 0
        for word in words {
            lengthBefore.append(running)
            running += word.count + 1
        }
        var breaks: [Int] = []
        var candidates = breakable[...]
        for k in 1..<count {
            let target = total * k / count
            let remainingNeeded = count - 1 - k
            // Leave enough candidates for the breaks still to come.
            let usable = candidates.dropLast(remainingNeeded)
            guard
                let best = usable.min(by: { abs(lengthBefore[$0] - target) < abs(lengthBefore[$1] - target) })
            else { return nil }
            breaks.append(best)
            candidates = candidates.drop { $0 <= best }
        }
        var lines: [String] = []
        var start = 0
        for end in breaks + [words.count] {
            lines.append(words[start..<end].joined(separator: " "))
            start = end
        }
        return lines
    }

    /// For each word, whether it continues a link (`[text](target)`), a code span, an HTML tag
    /// or an HTML `<code>` or `<kbd>` element begun by an earlier word: a line break there
    /// would split what a reader, or a tool reading the Markdown line by line, takes as one piece.
    static func insideSpans(_ words: [Substring]) -> [Bool] {
        // A loop over bytes: a paragraph is cut into words for every message of every chapter.
        var result: [Bool] = []
        var brackets = 0
        var parentheses = 0
        var inCode = false
        var inTag = false
        var htmlCode = 0
        for word in words {
            result.append(brackets > 0 || parentheses > 0 || inCode || inTag || htmlCode > 0)
            for opening in Self.openingCodeTags { htmlCode += occurrences(of: opening, in: word) }
            for closing in Self.closingCodeTags { htmlCode -= occurrences(of: closing, in: word) }
            htmlCode = max(0, htmlCode)
            if let open = word.lastIndex(of: "<") {
                inTag = !word[open...].contains(">")
            } else if inTag, word.contains(">") {
                inTag = false
            }
            var previous: Character = " "
            for character in word {
                if character == "`" {
                    inCode.toggle()
                } else if !inCode {
                    switch character {
                    case "[": brackets += 1
                    case "]": brackets = max(0, brackets - 1)
                    case "(" where previous == "]" || parentheses > 0: parentheses += 1
                    case ")" where parentheses > 0: parentheses -= 1
                    default: break
                    }
                }
                previous = character
            }
        }
        return result
    }

    private static let openingCodeTags = [Array("<code".utf8), Array("<kbd".utf8)]
    private static let closingCodeTags = [Array("</code>".utf8), Array("</kbd>".utf8)]

    /// How many times `needle` (lowercase ASCII) stands in `word`, whatever the case of its
    /// letters there; occurrences do not overlap.
    static func occurrences(of needle: [UInt8], in word: Substring) -> Int {
        let bytes = word.utf8
        var count = 0
        var index = bytes.startIndex
        while let start = bytes[index...].firstIndex(of: needle[0]) {
            var end = start
            var matched = 0
            while matched < needle.count, end < bytes.endIndex {
                let byte = bytes[end]
                let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
                guard lowered == needle[matched] else { break }
                matched += 1
                end = bytes.index(after: end)
            }
            if matched == needle.count {
                count += 1
                index = end
            } else {
                index = bytes.index(after: start)
            }
        }
        return count
    }

    /// Whether a line may start with `word` inside a paragraph without starting another block.
    private static func mayStartLine(_ word: Substring) -> Bool {
        guard let first = word.first else { return false }
        if "#>|<=-+*_`~".contains(first) { return false }
        if first.isNumber {
            let digits = word.prefix(while: \.isNumber)
            let after = word.dropFirst(digits.count).first
            if after == "." || after == ")" { return false }
        }
        return true
    }

    /// An ATX heading's text replaced on its line (after the `#` marks).
    private static func replaceATX(
        line: Int, text: String, with translation: String, in lines: inout [String]
    )
        -> Bool
    {
        guard line <= lines.count else { return false }
        let current = lines[line - 1]
        guard let hashes = current.firstIndex(of: "#"),
            let range = current.range(of: text, range: hashes..<current.endIndex)
        else { return false }
        lines[line - 1] = current.replacingCharacters(in: range, with: oneLine(translation))
        return true
    }

    /// Replaces a text of an HTML block, which may run over several lines, keeping its number of
    /// lines; in an attribute, a quote is written `&quot;` so that it does not end the value.
    private static func replaceHTML(
        _ text: String, before: String, after: String, with translation: String, from line: Int,
        in lines: inout [String]
    ) -> Bool {
        guard line <= lines.count else { return false }
        let count = text.lines.count
        guard var wrapped = wrap(words(translation), into: count)?.joined(separator: "\n") else {
            return false
        }
        if after == "\"" { wrapped = wrapped.replacingOccurrences(of: "\"", with: "&quot;") }
        var rest = lines[(line - 1)...].joined(separator: "\n")
        guard let range = rest.range(of: before + text + after) else { return false }
        rest.replaceSubrange(range, with: before + wrapped + after)
        lines.replaceSubrange(
            (line - 1)...,
            with: rest.lines.map(String.init))
        return true
    }

    private static func replace(_ old: String, with new: String, line: Int, in lines: inout [String]) -> Bool
    {
        guard line <= lines.count, let range = lines[line - 1].range(of: old) else { return false }
        lines[line - 1].replaceSubrange(range, with: new)
        return true
    }
}
