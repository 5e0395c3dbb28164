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
        self.page = page
        self.title = title
        self.url = url
        self.text = text
        self.code = code
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
    struct Part: Sendable {
        var entries: [UInt8]
        /// The page's words, each once, as written.
        var words: ByteInterner
        /// For each section, the words it holds in fours: the word's place in `words`, whether
        /// the heading has it (0 or 1), how often the prose does, how often code does.
        var counts: [[Int32]]
        /// What the page's weights are divided by: 2 for a page that practises what another
        /// explains (an exercise), so that the chapter comes first; 1 for the rest.
        var divisor = 1

        /// The part of a page that is not indexed.
        static let empty = Part(entries: [], words: ByteInterner(), counts: [])
    }

    /// A page's part of the index; `practice` for an exercise's page.
    static func part(_ sections: [SearchSection], practice: Bool = false) -> Part {
        var counter = SearchTerms.Counter()
        let counts = sections.map { counter.count($0) }
        return Part(
            entries: entries(sections), words: counter.words, counts: counts, divisor: practice ? 2 : 1)
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
    static func json(parts: [Part]) -> [UInt8] {
        let postings = SearchPostings(parts)
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
        for (index, list) in postings.lists.enumerated() {
            output += Array(index > 0 ? ",[".utf8 : "[".utf8)
            var previous = 0
            for pair in stride(from: 0, to: list.count, by: 2) {
                if pair > 0 { output.append(UInt8(ascii: ",")) }
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
        if number >= 10 { append(number / 10, to: &output) }
        output.append(UInt8(ascii: "0") + UInt8(number % 10))
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

/// Where a word occurs in one section, and the weight that gives it. Prose explains and code
/// shows, so the prose decides: a word of the heading adds 80; a section whose prose has the word
/// weighs 8 for each of up to four occurrences; only where the prose is silent does code count
/// (2 for each of up to three), and only where both are does a longer name that holds the word
/// (1). So `pattern` finds the sections that speak of patterns before those that merely use
/// `pathAdvancedPattern`, and a name the prose explains ranks above the code that uses it; among
/// equals, the section that comes first in the book comes first. An exercise's page weighs half
/// (``SearchIndex/Part/divisor``): it practises what a chapter explains, so the chapter leads.
struct SearchWeight: Sendable, Equatable {
    var inTitle = false
    var inProse = 0
    var inCode = 0
    var asPart = false

    var value: Int {
        let body = inProse > 0 ? min(inProse, 4) * 8 : inCode > 0 ? min(inCode, 3) * 2 : asPart ? 1 : 0
        return (inTitle ? 80 : 0) + body
    }
}

extension SearchTerms {
    /// Counts the words of one page's sections, section by section, as they are written.
    struct Counter {
        private struct Count: Equatable {
            var inTitle = false
            var inProse: Int32 = 0
            var inCode: Int32 = 0
        }

        /// The page's words, each once, in the order they were first read.
        private(set) var words = ByteInterner()
        /// For each word, its count in the section being read; the words that have one.
        private var counts: [Count] = []
        private var touched: [Int32] = []

        /// The words of `section` in fours, as `SearchIndex.Part.counts` has them.
        mutating func count(_ section: SearchSection) -> [Int32] {
            count(section.title) { $0.inTitle = true }
            count(section.text) { $0.inProse += 1 }
            count(section.code) { $0.inCode += 1 }
            var fours: [Int32] = []
            fours.reserveCapacity(touched.count * 4)
            for word in touched {
                let count = counts[Int(word)]
                fours.append(word)
                fours.append(count.inTitle ? 1 : 0)
                fours.append(count.inProse)
                fours.append(count.inCode)
                counts[Int(word)] = Count()
            }
            touched.removeAll(keepingCapacity: true)
            return fours
        }

        private mutating func count(_ text: String, _ counting: (inout Count) -> Void) {
            SearchTerms.forEachWord(in: text) { bytes in
                let (id, isNew) = words.intern(bytes)
                if isNew { counts.append(Count()) }
                if counts[id] == Count() { touched.append(Int32(id)) }
                counting(&counts[id])
            }
        }
    }
}

/// The index's words, each with the sections that hold it, and the lookup the page makes in them.
///
/// `search(_:)` is the ranking `site/assets/site.js` runs in the browser, step for step, so the
/// tests can pin result orders: every word typed must be found in a section (its stem, weight
/// doubled), the last word also as the start of longer words or, when nothing starts with it, as
/// a word of four letters or more that it begins with, up to three letters shorter (`matchin`
/// finds `match` while it is typed); sections rank by the sum of their best weight for each
/// word, then in book order.
struct SearchPostings {
    /// Sorted by UTF-16 code units, as JavaScript compares strings.
    private(set) var terms: [String] = []
    /// For each term: section number and weight, by section.
    private(set) var lists: [[Int]] = []
    private(set) var pairCount = 0

    /// Postings of the pages' sections, numbered in order. Each distinct word of the book is
    /// read into its term and parts here, once; the counts of the words of a section that share
    /// a term add up.
    init(_ parts: [SearchIndex.Part]) {
        var reader = TermReader()
        var number = 0
        for part in parts {
            let words = (0..<part.words.count).map { id in
                part.words.bytes(of: id).withUnsafeBufferPointer { reader.read($0) }
            }
            for counts in part.counts {
                for four in stride(from: 0, to: counts.count, by: 4) {
                    let word = words[Int(counts[four])]
                    reader.add(
                        word, inTitle: counts[four + 1] != 0, inProse: Int(counts[four + 2]),
                        inCode: Int(counts[four + 3]))
                }
                pairCount += reader.close(section: number, divisor: part.divisor)
                number += 1
            }
        }
        let keys = reader.terms.map { Array($0.utf16) }
        let order = reader.terms.indices.sorted { keys[$0].lexicographicallyPrecedes(keys[$1]) }
        terms = order.map { reader.terms[$0] }
        lists = order.map { reader.lists[$0] }
    }

    /// The book's terms as they are found, each word read once, and their postings so far.
    private struct TermReader {
        private(set) var terms: [String] = []
        private(set) var lists: [[Int]] = []
        private var termIDs: [String: Int] = [:]
        /// Every word read so far, and the term and parts it was read into.
        private var known = ByteInterner()
        private var readInto: [(term: Int, parts: Range<Int>)] = []
        private var parts: [Int] = []
        private var weights: [SearchWeight] = []
        private var touched: [Int] = []

        mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) -> (term: Int, parts: Range<Int>) {
            let (id, isNew) = known.intern(bytes)
            guard isNew else { return readInto[id] }
            let word = SearchTerms.word(bytes)
            let start = parts.count
            for part in word.parts { parts.append(self.id(read: part)) }
            readInto.append((term: self.id(read: word.term), parts: start..<parts.count))
            return readInto[id]
        }

        private mutating func id(read term: String) -> Int {
            if let id = termIDs[term] { return id }
            termIDs[term] = terms.count
            terms.append(term)
            lists.append([])
            weights.append(SearchWeight())
            return terms.count - 1
        }

        mutating func add(_ word: (term: Int, parts: Range<Int>), inTitle: Bool, inProse: Int, inCode: Int) {
            touch(word.term)
            weights[word.term].inTitle = weights[word.term].inTitle || inTitle
            weights[word.term].inProse += inProse
            weights[word.term].inCode += inCode
            for index in word.parts {
                touch(parts[index])
                weights[parts[index]].asPart = true
            }
        }

        private mutating func touch(_ term: Int) {
            if weights[term] == SearchWeight() { touched.append(term) }
        }

        /// Adds the weights of the section's terms, divided by `divisor` (at least 1 each), to
        /// their postings; how many there were.
        mutating func close(section number: Int, divisor: Int) -> Int {
            for term in touched {
                lists[term].append(number)
                lists[term].append(max(1, weights[term].value / divisor))
                weights[term] = SearchWeight()
            }
            defer { touched.removeAll(keepingCapacity: true) }
            return touched.count
        }
    }

    /// The weight of every term of section `number`, by term (for tests).
    func weights(ofSection number: Int) -> [String: Int] {
        var found: [String: Int] = [:]
        for (term, list) in zip(terms, lists) {
            for pair in stride(from: 0, to: list.count, by: 2) where list[pair] == number {
                found[term] = list[pair + 1]
            }
        }
        return found
    }

    /// The numbers of the sections that answer `query`, best first, at most `limit`.
    func search(_ query: String, limit: Int = 12) -> [Int] {
        let words = SearchTerms.queryWords(query)
        guard !words.isEmpty else { return [] }
        var scores: [Int: Int]?
        for (position, word) in words.enumerated() {
            let stem = SearchTerms.stem(word)
            var wordScores: [Int: Int] = [:]
            func add(_ index: Int, factor: Int) {
                let list = lists[index]
                for pair in stride(from: 0, to: list.count, by: 2) {
                    wordScores[list[pair]] = max(wordScores[list[pair]] ?? 0, list[pair + 1] * factor)
                }
            }
            let exact = find(stem)
            if let exact { add(exact, factor: 2) }
            if position == words.count - 1 {
                let longer = withPrefix(word).filter { terms[$0] != stem }
                for index in longer { add(index, factor: 1) }
                if exact == nil, longer.isEmpty,
                    word.utf8.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") })
                {
                    let letters = Array(word.utf8)
                    for length in stride(from: letters.count - 1, through: max(4, letters.count - 3), by: -1)
                    {
                        let start = String(decoding: letters[..<length], as: UTF8.self)
                        if start != stem, let index = find(start) { add(index, factor: 1) }
                    }
                }
            }
            if let previous = scores {
                var both: [Int: Int] = [:]
                for (section, score) in previous {
                    if let more = wordScores[section] { both[section] = score + more }
                }
                scores = both
            } else {
                scores = wordScores
            }
        }
        return (scores ?? [:]).sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(limit).map(\.key)
    }

    private func lowerBound(_ term: String) -> Int {
        var low = 0
        var high = terms.count
        while low < high {
            let middle = (low + high) / 2
            if terms[middle].utf16.lexicographicallyPrecedes(term.utf16) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    private func find(_ term: String) -> Int? {
        let index = lowerBound(term)
        return index < terms.count && terms[index] == term ? index : nil
    }

    /// The terms that start with `prefix`, at most 200, in order.
    private func withPrefix(_ prefix: String) -> [Int] {
        var found: [Int] = []
        var index = lowerBound(prefix)
        while index < terms.count, terms[index].utf16.starts(with: prefix.utf16), found.count < 200 {
            found.append(index)
            index += 1
        }
        return found
    }
}
