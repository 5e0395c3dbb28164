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
    /// For each term: section number and weight, by section.
    private(set) var lists: [[Int]] = []
    private(set) var pairCount = 0
    /// How words are read (stemmed in English, marks folded in Vietnamese).
    let language: SearchLanguage

    /// Postings of the pages' sections, numbered in order. Each distinct word of the book is
    /// read into its term and parts here, once; the counts of the words of a section that share
    /// a term add up.
    init(_ parts: [SearchIndex.Part], language: SearchLanguage = .english) {
        self.language = language
        var reader = TermReader(language: language)
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
        let language: SearchLanguage

        init(language: SearchLanguage) { self.language = language }

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
            let word = SearchTerms.word(bytes, language: language)
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
            let stem = SearchTerms.stem(word, language: language)
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
