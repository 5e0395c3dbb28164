import Foundation

/// Where a word occurs in one section, and the weight that gives it. Prose explains and code
/// shows, so the prose decides: a word of the heading adds 80; a section whose prose has the word
/// weighs 8 for each of up to four occurrences; only where the prose is silent does code count
/// (2 for each of up to three), and only where both are does a longer name that holds the word
/// (1). So `pattern` finds the sections that speak of patterns before those that merely use
/// `pathAdvancedPattern`, and a name the prose explains ranks above the code that uses it; among
/// equals, the section that comes first in the book comes first. An exercise's page weighs half
/// (``divisor(practice:)``): it practises what a chapter explains, so the chapter leads.
///
/// Every weight of the index is declared here, and so is the query's side of the ranking
/// (``SearchPostings/search(_:limit:)``, which `site/assets/site.js` runs step for step).
struct SearchWeight: Sendable, Equatable {
    var inTitle = false
    var inProse = 0
    var inCode = 0
    var asPart = false

    /// A word of the heading.
    static let title = 80
    /// Each occurrence in the prose, up to ``proseCounted``.
    static let prose = 8
    static let proseCounted = 4
    /// Each occurrence in code, up to ``codeCounted``, where the prose is silent.
    static let code = 2
    static let codeCounted = 3
    /// A longer name that holds the word, where neither prose nor code has it.
    static let part = 1
    /// What an exercise's page divides its weights by.
    static let practiceDivisor = 2

    var value: Int {
        let body =
            inProse > 0
            ? min(inProse, Self.proseCounted) * Self.prose
            : inCode > 0 ? min(inCode, Self.codeCounted) * Self.code : asPart ? Self.part : 0
        return (inTitle ? Self.title : 0) + body
    }

    /// What a page's weights are divided by: ``practiceDivisor`` for a page that practises what
    /// another explains (an exercise), so that the chapter comes first; 1 for the rest.
    static func divisor(practice: Bool) -> Int {
        practice ? practiceDivisor : 1
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

        /// The words of `section` in fours, as `SearchIndex.Part.counts` has them; the synonyms
        /// of what its heading and prose say count as prose.
        mutating func count(_ section: SearchSection, synonyms: SearchSynonyms = SearchSynonyms()) -> [Int32]
        {
            count(section.title) { $0.inTitle = true }
            count(section.text) { $0.inProse += 1 }
            count(section.code) { $0.inCode += 1 }
            if !synonyms.isEmpty {
                count(synonyms.additions(section.title + " " + section.text)) { $0.inProse += 1 }
            }
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
    /// Every term's postings, one after the other in the order of `terms`: section number and
    /// weight, by section. Term `i`'s are `pairs[starts[i]..<starts[i + 1]]`.
    private(set) var pairs: [Int] = []
    private(set) var starts: [Int] = [0]
    var pairCount: Int { pairs.count / 2 }
    /// How words are read (stemmed in English, marks folded in Vietnamese).
    let language: SearchLanguage

    /// Postings of the pages' sections, numbered in order. Each distinct word of the book is
    /// read into its term and parts once (``TermTable``, kept from the previous build); the
    /// counts of the words of a section that share a term add up. A part equal to the one at the
    /// same place in the previous build takes that build's postings (``PartPostings``): a save
    /// reads the words of the pages it changed, and the merge numbers and sorts the rest.
    init(_ parts: [SearchIndex.Part], language: SearchLanguage = .english, tables: TermTables = .shared) {
        self.language = language
        let kept = tables.kept(language)
        var reader = TermReader(table: kept.table)
        var read: [PartPostings] = []
        read.reserveCapacity(parts.count)
        for (index, part) in parts.enumerated() {
            if index < kept.parts.count, kept.parts[index].part == part {
                read.append(kept.parts[index])
            } else {
                read.append(reader.read(part, language: language))
            }
        }
        var table = reader.table
        // The terms the parts' words were read into, each once, and their postings laid out in
        // that order (a counting sort: the postings were made section by section).
        var seen = [Bool](repeating: false, count: table.terms.count)
        for item in read { for term in item.terms { seen[term] = true } }
        let order = table.sortedTerms().filter { seen[$0] }
        terms = order.map { table.terms[$0] }
        var place = [Int](repeating: -1, count: seen.count)
        for (rank, term) in order.enumerated() { place[term] = rank }
        var counts = [Int](repeating: 0, count: order.count + 1)
        for item in read {
            for index in stride(from: 0, to: item.postings.count, by: 3) {
                counts[place[item.postings[index]] + 1] += 2
            }
        }
        for rank in 0..<order.count { counts[rank + 1] += counts[rank] }
        starts = counts
        var next = counts
        pairs = [Int](repeating: 0, count: counts[order.count])
        var firstSection = 0
        for item in read {
            let postings = item.postings
            for index in stride(from: 0, to: postings.count, by: 3) {
                let rank = place[postings[index]]
                pairs[next[rank]] = firstSection + postings[index + 1]
                pairs[next[rank] + 1] = postings[index + 2]
                next[rank] += 2
            }
            firstSection += item.sectionCount
        }
        tables.keep(table, parts: read, language: language)
    }

    /// Term `index`'s postings: section number and weight, by section.
    func list(_ index: Int) -> ArraySlice<Int> { pairs[starts[index]..<starts[index + 1]] }

    /// Reads parts into postings with a term table, which grows by the words it had not met.
    private struct TermReader {
        var table: TermTable
        private var weights: [SearchWeight] = []
        private var touched: [Int] = []
        private var marked: [Bool] = []

        init(table: TermTable) {
            self.table = table
        }

        /// The part's postings, its sections numbered from 0.
        mutating func read(_ part: SearchIndex.Part, language: SearchLanguage) -> PartPostings {
            let words = (0..<part.words.count).map { id in
                part.words.bytes(of: id).withUnsafeBufferPointer { table.read($0, language: language) }
            }
            let count = table.terms.count - weights.count
            weights += repeatElement(SearchWeight(), count: count)
            marked += repeatElement(false, count: count)
            // Every word counts its term and parts as the part's, as written (even one no
            // section counts).
            var terms: [Int] = []
            func mark(_ term: Int) {
                if !marked[term] {
                    marked[term] = true
                    terms.append(term)
                }
            }
            for word in words {
                let (term, parts) = table.wordTerms[word]
                mark(term)
                for index in parts { mark(table.wordParts[index]) }
            }
            for term in terms { marked[term] = false }
            var postings: [Int] = []
            for (number, counts) in part.counts.enumerated() {
                for four in stride(from: 0, to: counts.count, by: 4) {
                    add(
                        words[Int(counts[four])], inTitle: counts[four + 1] != 0,
                        inProse: Int(counts[four + 2]), inCode: Int(counts[four + 3]))
                }
                close(section: number, divisor: part.divisor, into: &postings)
            }
            return PartPostings(part: part, postings: postings, sectionCount: part.counts.count, terms: terms)
        }

        private mutating func add(_ word: Int, inTitle: Bool, inProse: Int, inCode: Int) {
            let (term, parts) = table.wordTerms[word]
            touch(term)
            weights[term].inTitle = weights[term].inTitle || inTitle
            weights[term].inProse += inProse
            weights[term].inCode += inCode
            for index in parts {
                let part = table.wordParts[index]
                touch(part)
                weights[part].asPart = true
            }
        }

        private mutating func touch(_ term: Int) {
            if weights[term] == SearchWeight() { touched.append(term) }
        }

        /// Adds the weights of the section's terms, divided by `divisor` (at least 1 each), to
        /// `postings`.
        private mutating func close(section number: Int, divisor: Int, into postings: inout [Int]) {
            for term in touched {
                postings.append(term)
                postings.append(number)
                postings.append(max(1, weights[term].value / divisor))
                weights[term] = SearchWeight()
            }
            touched.removeAll(keepingCapacity: true)
        }
    }

    /// The weight of every term of section `number`, by term (for tests).
    func weights(ofSection number: Int) -> [String: Int] {
        var found: [String: Int] = [:]
        for (index, term) in terms.enumerated() {
            let postings = list(index)
            for pair in stride(from: postings.startIndex, to: postings.endIndex, by: 2)
            where postings[pair] == number {
                found[term] = postings[pair + 1]
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
            let stem = SearchTerms.stem(word, language: language)
            var wordScores: [Int: Int] = [:]
            func add(_ index: Int, factor: Int) {
                let postings = list(index)
                for pair in stride(from: postings.startIndex, to: postings.endIndex, by: 2) {
                    wordScores[postings[pair]] = max(
                        wordScores[postings[pair]] ?? 0, postings[pair + 1] * factor)
                }
            }
            let exact = find(stem)
            if let exact { add(exact, factor: 2) }
            if position == words.count - 1 {
                let longer = withPrefix(word).filter { terms[$0] != stem }
                for index in longer { add(index, factor: 1) }
                if exact == nil, longer.isEmpty, language == .english,
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
