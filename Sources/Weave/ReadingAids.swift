import Literate

/// Which code blocks a page shows folded, and the one line that stands for a folded block.
///
/// Chapters after the book's first part (the internals, in a book with a summary) fold the
/// blocks a reader looks things up in rather than reads through: every block that tangles into a
/// test target (a file under `Tests/`), and every block longer than ``longBlock`` lines. The
/// first part, and a book without parts, folds nothing.
///
/// ```swift
/// CodeFold.summary(lines: block.lines, label: "AASATests.swift", isTest: true, words: words)
/// // "12 tests, 140 lines"
/// ```
enum CodeFold {
    /// The longest block shown open in a folding chapter.
    static let longBlock = 60

    /// Whether a block with these targets and this many lines is folded in a folding chapter.
    static func folds(targets: [String], lineCount: Int) -> Bool {
        isTest(targets: targets) || lineCount > longBlock
    }

    /// Whether the block lands in a test target.
    static func isTest(targets: [String]) -> Bool {
        targets.contains { $0.hasPrefix("Tests/") }
    }

    /// The folded block's summary: its number of tests when it declares any (`@Test`, or an
    /// XCTest `func test…`), otherwise its label; then its length.
    static func summary(lines: [String], label: String, isTest: Bool, words: SiteWords) -> String {
        let count = ["count": String(lines.count)]
        let length =
            lines.count == 1 ? words.format(.codeFoldLineOne, count) : words.format(.codeFoldLineOther, count)
        let tests = isTest ? testCount(lines) : 0
        let what =
            tests == 0
            ? label
            : tests == 1
                ? words.format(.codeFoldTestOne, ["count": "1"])
                : words.format(.codeFoldTestOther, ["count": String(tests)])
        return words.format(.codeFoldSummary, ["what": what, "length": length])
    }

    /// `html` with every folded block open, for the page that prints the whole book.
    static func openingAll(_ html: [UInt8]) -> [UInt8] {
        HTMLBytes.replacing(closedMarker, with: openMarker, in: html)
    }

    private static let closedMarker = Array("<details class=\"code-fold\">".utf8)
    private static let openMarker = Array("<details class=\"code-fold\" open>".utf8)

    /// The test functions a block declares.
    static func testCount(_ lines: [String]) -> Int {
        lines.reduce(0) { count, line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            return count + (trimmed.hasPrefix("@Test") || trimmed.hasPrefix("func test") ? 1 : 0)
        }
    }
}

/// A chapter's estimated reading time, as chapter 0 of the book states it: the words outside
/// code blocks at ``wordsPerMinute``, plus the lines of the code blocks shown open at
/// ``codeLinesPerMinute``, rounded up to whole minutes, at least one.
enum ReadingTime {
    static let wordsPerMinute = 200
    static let codeLinesPerMinute = 20

    /// The line a chapter page shows under its title.
    static func html(minutes: Int, words: SiteWords) -> String {
        "<p class=\"reading-time\">\(HTML.escape(words.format(.readingMinutes, ["minutes": String(minutes)])))</p>\n"
    }

    /// `body` with the reading time after its first `</h1>` (or first, without one).
    static func inserting(minutes: Int, into body: [UInt8], words: SiteWords) -> [UInt8] {
        let line = Array(html(minutes: minutes, words: words).utf8)
        let heading = Array("</h1>\n".utf8)
        guard let end = HTMLBytes.firstRange(of: heading, in: body)?.upperBound else { return line + body }
        return Array(body[..<end]) + line + Array(body[end...])
    }

    static func minutes(words: Int, openCodeLines: Int) -> Int {
        let perMinute = wordsPerMinute * codeLinesPerMinute
        let weighted = words * codeLinesPerMinute + openCodeLines * wordsPerMinute
        return max(1, (weighted + perMinute - 1) / perMinute)
    }

    /// The words of a Markdown text outside its fenced code blocks: runs of characters between
    /// white space that hold at least one letter or digit (so table rules and list bullets do
    /// not count). Any byte of a multi-byte character counts as a letter. Runs on every chapter
    /// of every build, so it reads bytes.
    static func proseWords(_ markdown: String) -> Int {
        var text = markdown
        return text.withUTF8 { bytes in
            var words = 0
            var fence: (marker: UInt8, length: Int)?
            var lineStart = 0
            while lineStart < bytes.count {
                var lineEnd = lineStart
                while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                var first = lineStart
                while first < lineEnd, bytes[first] == UInt8(ascii: " ") { first += 1 }
                var isFence = false
                if first < lineEnd, bytes[first] == UInt8(ascii: "`") || bytes[first] == UInt8(ascii: "~") {
                    let marker = bytes[first]
                    var length = 0
                    while first + length < lineEnd, bytes[first + length] == marker { length += 1 }
                    if length >= 3 {
                        isFence = true
                        if let open = fence {
                            let rest = bytes[(first + length)..<lineEnd]
                            if marker == open.marker, length >= open.length,
                                rest.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
                            {
                                fence = nil
                            }
                        } else {
                            fence = (marker, length)
                        }
                    }
                }
                if !isFence, fence == nil {
                    var inWord = false
                    var counted = false
                    for index in first..<lineEnd {
                        let byte = bytes[index]
                        if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                            inWord = false
                            continue
                        }
                        if !inWord {
                            inWord = true
                            counted = false
                        }
                        let folded = byte | 0x20
                        let isLetterOrDigit =
                            (folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z"))
                            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte >= 0x80
                        if isLetterOrDigit, !counted {
                            words += 1
                            counted = true
                        }
                    }
                }
                lineStart = lineEnd + 1
            }
            return words
        }
    }
}

/// Byte-level search and replace on rendered HTML (the renderer's output is bytes).
enum HTMLBytes {
    static func firstRange(of needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Range<Int>? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index..<(index + needle.count)
            }
            index += 1
        }
        return nil
    }

    static func replacing(_ needle: [UInt8], with replacement: [UInt8], in haystack: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(haystack.count)
        var copied = 0
        while let range = firstRange(of: needle, in: haystack, from: copied) {
            output += haystack[copied..<range.lowerBound]
            output += replacement
            copied = range.upperBound
        }
        output += haystack[copied...]
        return output
    }
}
