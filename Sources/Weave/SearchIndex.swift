import Literate

/// One searchable section of the site: a heading and the prose under it, up to the next
/// heading of level 1 to 3.
public struct SearchSection: Sendable, Equatable {
    /// The page's title, shown beside the result.
    public var page: String
    public var title: String
    /// Relative to the site root: `chapters/03-universal-links.html#the-association-file`.
    public var url: String
    /// The section's prose as plain text; code blocks are left out (their chunk names are in).
    public var text: String
    /// The lines of the section's code blocks, for the names in them: the index keeps their
    /// words, never the code itself.
    public var code: String

    public init(page: String, title: String, url: String, text: String, code: String = "") {
        (self.page, self.title, self.url, self.text, self.code) = (page, title, url, text, code)
    }
}

/// The pass that cuts a page into search sections.
struct SectionCollector: MarkdownWalker {
    private(set) var sections: [SearchSection] = []
    private let pageTitle: String
    private let pageURL: String
    private let headingIDs: [String]
    private var headingIndex = 0
    private var headingID: String?
    private var inHeading = false
    /// Text is gathered as bytes with runs of white space collapsed on the way in: the
    /// collector reads every word of the book.
    private var headingText: [UInt8] = []
    private var text: [UInt8] = []
    private var code: [UInt8] = []

    init(pageTitle: String, pageURL: String, headingIDs: [String]) {
        self.pageTitle = pageTitle
        self.pageURL = pageURL
        self.headingIDs = headingIDs
        sections.append(SearchSection(page: pageTitle, title: pageTitle, url: pageURL, text: ""))
    }

    /// The sections of a page, without empty ones.
    static func collect(_ document: MarkdownNode, pageTitle: String, pageURL: String, headingIDs: [String])
        -> [SearchSection]
    {
        var collector = SectionCollector(pageTitle: pageTitle, pageURL: pageURL, headingIDs: headingIDs)
        document.traverse(&collector)
        return collector.finish()
    }

    /// The sections, once the walk is over, without empty ones.
    mutating func finish() -> [SearchSection] {
        flush()
        return sections.filter {
            !$0.text.isEmpty || !$0.code.isEmpty || $0.url.utf8.contains(UInt8(ascii: "#"))
        }
    }

    private mutating func flush() {
        sections[sections.count - 1].text = Self.string(text)
        text.removeAll(keepingCapacity: true)
        if !code.isEmpty {
            code.removeLast()
            sections[sections.count - 1].code = String(decoding: code, as: UTF8.self)
            code.removeAll(keepingCapacity: true)
        }
    }

    private static func string(_ bytes: [UInt8]) -> String {
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// Appends `value`. cmark's text nodes hold no line breaks (those are nodes of their own),
    /// so text goes in whole; only the separators the walk adds are kept from doubling.
    private static func append(_ value: String, to buffer: inout [UInt8]) {
        if value == " " {
            if let last = buffer.last, last != UInt8(ascii: " ") { buffer.append(UInt8(ascii: " ")) }
            return
        }
        var value = value
        value.withUTF8 { buffer.append(contentsOf: $0) }
    }

    private mutating func add(_ value: String) {
        if inHeading { Self.append(value, to: &headingText) } else { Self.append(value, to: &text) }
    }

    mutating func visit(_ node: MarkdownNode, entering: Bool) {
        switch node.kind {
        case .heading(let level):
            if entering {
                headingID = headingIndex < headingIDs.count ? headingIDs[headingIndex] : nil
                headingIndex += 1
                inHeading = level <= 3
                headingText.removeAll(keepingCapacity: true)
            } else if inHeading, let id = headingID {
                inHeading = false
                flush()
                let title = Self.string(headingText)
                if level == 1, sections.count == 1, sections[0].text.isEmpty {
                    sections[0].title = title
                } else {
                    sections.append(
                        SearchSection(page: pageTitle, title: title, url: pageURL + "#" + id, text: ""))
                }
            } else {
                add(" ")
            }
        case .text(let value), .code(let value):
            if entering { add(value) }
        case .softBreak, .lineBreak:
            if entering { add(" ") }
        case .codeBlock(let fence):
            guard entering else { return }
            for var line in fence.lines {
                line.withUTF8 { code.append(contentsOf: $0) }
                code.append(UInt8(ascii: "\n"))
            }
            guard fence.info.utf8.contains(UInt8(ascii: "#")),
                case .success(let attributes) = BlockAttributes.parse(fence.info),
                let name = attributes.chunkName
            else { return }
            add(" ")
            add("⟨\(name)⟩")
            add(" ")
        case .paragraph, .item, .blockQuote:
            if !entering { add(" ") }
        default:
            break
        }
    }
}

/// The offline search index: every section of every page, and every word of them with the
/// sections it is found in, as JSON the site's script reads.
///
/// It is written twice: `search-index.json` for tools and servers, and `search-index.js`
/// (the same data assigned to `window.WORKBOOK_SEARCH`) because browsers refuse `fetch` on
/// pages opened from files, while a `<script>` loads either way.
///
/// `terms` are the words of `SearchTerms`, sorted as JavaScript compares strings; the list at
/// the same place in `postings` gives, for each section that holds the word, in book order, how
/// far its number is from the previous one's (from 0 for the first), and its weight
/// (`SearchWeight`). The page only stems what the reader types and looks it up. Above, the
/// second section also has `route` in a code block.
///
/// ```json
/// {"version":2,"sections":[
/// {"page":"Routing","title":"Routing","url":"chapters/02-routing.html","text":"Links become routes."},
/// {"page":"Routing","title":"Patterns","url":"chapters/02-routing.html#patterns","text":"A link."}
/// ],
/// "terms":["a","becom","link","pattern","rout"],
/// "postings":[[1,8],[0,8],[0,8,1,8],[1,80],[0,88,1,2]]}
/// ```
public enum SearchIndex {
    public static func json(_ sections: [SearchSection]) -> [UInt8] {
        json(parts: [part(sections)])
    }

    /// One page's part of the index, made while the page is rendered so that pages are indexed
    /// in parallel: its sections as JSON objects separated by commas, and the words of each
    /// section counted as they are written. Reading words into terms (lowercasing, stemming,
    /// parts) waits for the whole book, so that each distinct word is read once.
    struct Part: Sendable, Equatable {
        var entries: [UInt8]
        /// The page's words, each once, as written.
        var words: ByteInterner
        /// For each section, the words it holds in fours: the word's place in `words`, whether
        /// the heading has it (0 or 1), how often the prose does, how often code does.
        var counts: [[Int32]]
        /// What the page's weights are divided by (``SearchWeight/divisor(practice:)``).
        var divisor = 1

        /// The part of a page that is not indexed.
        static let empty = Part(entries: [], words: ByteInterner(), counts: [])
    }

    /// A page's part of the index; `practice` for an exercise's page.
    static func part(
        _ sections: [SearchSection], practice: Bool = false, synonyms: SearchSynonyms = SearchSynonyms()
    )
        -> Part
    {
        var counter = SearchTerms.Counter()
        let counts = sections.map { counter.count($0, synonyms: synonyms) }
        return Part(
            entries: entries(sections), words: counter.words, counts: counts,
            divisor: SearchWeight.divisor(practice: practice))
    }

    /// The sections as JSON objects separated by commas.
    static func entries(_ sections: [SearchSection]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(sections.reduce(0) { $0 + $1.text.utf8.count + $1.title.utf8.count + 96 })
        for (index, section) in sections.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output += Array("\n{\"page\":".utf8)
            JSONText.append(section.page, to: &output)
            output += Array(",\"title\":".utf8)
            JSONText.append(section.title, to: &output)
            output += Array(",\"url\":".utf8)
            JSONText.append(section.url, to: &output)
            output += Array(",\"text\":".utf8)
            JSONText.append(section.text, to: &output)
            output.append(UInt8(ascii: "}"))
        }
        return output
    }

    /// The index from the pages' parts, in page order.
    static func json(parts: [Part], language: SearchLanguage = .english) -> [UInt8] {
        let postings = SearchPostings(parts, language: language)
        var output = Array("{\"version\":2,\"sections\":[".utf8)
        let sectionBytes = parts.reduce(64) { $0 + $1.entries.count + 1 }
        output.reserveCapacity(sectionBytes + postings.terms.count * 16 + postings.pairCount * 8)
        var first = true
        for part in parts where !part.entries.isEmpty {
            if !first { output.append(UInt8(ascii: ",")) }
            output += part.entries
            first = false
        }
        output += Array("\n],\n\"terms\":[".utf8)
        for (index, term) in postings.terms.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONText.append(term, to: &output)
        }
        output += Array("],\n\"postings\":[".utf8)
        for index in postings.terms.indices {
            let list = postings.list(index)
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(UInt8(ascii: "["))
            var previous = 0
            for pair in stride(from: list.startIndex, to: list.endIndex, by: 2) {
                if pair > list.startIndex { output.append(UInt8(ascii: ",")) }
                JSONText.append(list[pair] - previous, to: &output)
                output.append(UInt8(ascii: ","))
                JSONText.append(list[pair + 1], to: &output)
                previous = list[pair]
            }
            output.append(UInt8(ascii: "]"))
        }
        output += Array("]}\n".utf8)
        return output
    }

    /// The same index as a script that needs no `fetch`.
    public static func script(json: [UInt8]) -> [UInt8] {
        Array(script(pieces: json).joined())
    }

    /// The script as pieces around the JSON, which is not copied.
    static func script(pieces json: [UInt8]) -> [ArraySlice<UInt8>] {
        [
            Array("window.WORKBOOK_SEARCH = ".utf8)[...], json[..<max(0, json.count - 1)],
            Array(";\n".utf8)[...],
        ]
    }
}

/// JSON string literals written straight into a byte buffer.
enum JSONText {
    private static let hex = Array("0123456789abcdef".utf8)

    /// A non-negative integer in decimal.
    static func append(_ number: Int, to output: inout [UInt8]) {
        // Most numbers of the index (gaps between sections, weights) have one or two digits.
        if number < 10 {
            output.append(UInt8(ascii: "0") + UInt8(number))
            return
        }
        if number < 100 {
            output.append(UInt8(ascii: "0") + UInt8(number / 10))
            output.append(UInt8(ascii: "0") + UInt8(number % 10))
            return
        }
        // The digits from the last, into a buffer as long as the longest Int's.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = number
            var start = digits.count
            while rest > 0 || start == digits.count {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    static func append(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                    continue
                }
                if start < index {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                }
                start = index + 1
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
                case UInt8(ascii: "\n"): output.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\t"): output.append(UInt8(ascii: "t"))
                case UInt8(ascii: "\r"): output.append(UInt8(ascii: "r"))
                default:
                    output.append(contentsOf: [
                        UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                    ])
                }
            }
            if start < bytes.count {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
