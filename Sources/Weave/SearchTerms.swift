import Foundation
import Literate

/// How the offline search reads words. The build applies these rules to every section, and the
/// reader's browser applies the same ones to what is typed (`site/assets/site.js`, which must
/// follow any change made here):
///
/// - a **word** is a run of letters, digits and `_` (JavaScript's `[\p{L}\p{N}_]+`), lowercased;
/// - a word of the letters `a` to `z` alone is **stemmed** with Porter's algorithm, so `links`,
///   `linked` and `linking` are all `link`, and `matching` is `match`;
/// - an ASCII word made of several words, `publishableKey`, `pathAdvancedPattern`, `li2_pk_shop`,
///   is also read as its **parts** (`publish`, `kei`), each lowercased and stemmed; parts of one
///   letter are dropped.
///
/// ```swift
/// SearchTerms.words(in: "Li2.configure(publishableKey:)")
/// // [li2, configur, publishablekei (parts: publish, kei)]
/// ```
/// - on a **Vietnamese** site (``SearchLanguage/vietnamese``), nothing is stemmed (Porter's rules
///   are English: they would turn `tay` into `tai`); each syllable is a word, and one with
///   diacritics or tone marks is also read as its plain letters (`liên` as `lien`, `đường` as
///   `duong`), so a reader who types without them finds it. Identifiers keep their parts.
///
/// ```swift
/// SearchTerms.word("đường", language: .vietnamese)   // đường (parts: duong)
/// ```
enum SearchLanguage: Sendable, Hashable {
    case english, vietnamese

    /// The rules for a site whose pages are in the language `code` (`<html lang>`).
    init(code: String) {
        self = code == "vi" || code.hasPrefix("vi-") ? .vietnamese : .english
    }
}

enum SearchTerms {
    /// A word as the index stores it: the whole word, and its parts when it has several.
    struct Word: Sendable, Equatable, CustomStringConvertible {
        var term: String
        var parts: [String]

        init(_ term: String, parts: [String] = []) {
            (self.term, self.parts) = (term, parts)
        }

        var description: String { parts.isEmpty ? term : "\(term) (parts: \(parts.joined(separator: ", ")))" }
    }

    /// Every word of `text`, in order, repeats included.
    static func words(in text: String) -> [Word] {
        var words: [Word] = []
        forEachWord(in: text) { words.append(word($0)) }
        return words
    }

    /// The words of a query, lowercased and without parts (a reader who types `publishableKey`
    /// means that name); `SearchPostings.search(_:)` stems them, as the page does.
    static func queryWords(_ query: String) -> [String] {
        var words: [String] = []
        forEachWord(in: query) { words.append(lowercased($0)) }
        return words
    }

    /// Porter's stem of a lowercased word, or the word itself when it holds anything but `a` to
    /// `z` or is shorter than three letters: `configured` is `configur`, `happy` is `happi`.
    static func stem(_ word: String, language: SearchLanguage = .english) -> String {
        guard language == .english else { return word }
        var bytes = Array(word.utf8)
        guard PorterStemmer.stem(&bytes) else { return word }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Calls `body` with the bytes of every word of `text`, in order.
    static func forEachWord(in text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var text = text
        text.withUTF8 { buffer in
            guard let base = buffer.baseAddress else { return }
            let count = buffer.count
            var index = 0
            var start = -1
            while index < count {
                let byte = base[index]
                var length = 1
                let isWordCharacter: Bool
                if byte < 0x80 {
                    let folded = byte | 0x20
                    isWordCharacter =
                        (folded >= UInt8(ascii: "a") && folded <= UInt8(ascii: "z")) || isDigit(byte)
                        || byte == UInt8(ascii: "_")
                } else {
                    length = min(byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2, count - index)
                    isWordCharacter = isLetterOrNumber(
                        UnsafeBufferPointer(start: base + index, count: length))
                }
                if isWordCharacter {
                    if start < 0 { start = index }
                } else if start >= 0 {
                    body(UnsafeBufferPointer(start: base + start, count: index - start))
                    start = -1
                }
                index += length
            }
            if start >= 0 { body(UnsafeBufferPointer(start: base + start, count: count - start)) }
        }
    }

    /// The word (and its parts) that `bytes`, one word of a text, stands for.
    static func word(_ bytes: UnsafeBufferPointer<UInt8>, language: SearchLanguage = .english) -> Word {
        if language == .vietnamese { return vietnameseWord(bytes) }
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            return Word(String(decoding: bytes, as: UTF8.self).lowercased())
        }
        var whole = bytes.map(lowercase)
        PorterStemmer.stem(&whole)
        let bounds = partBounds(bytes)
        guard bounds.count > 1 else { return Word(String(decoding: whole, as: UTF8.self)) }
        var parts: [String] = []
        for bound in bounds where bound.count > 1 {
            var part = bytes[bound].map(lowercase)
            PorterStemmer.stem(&part)
            parts.append(String(decoding: part, as: UTF8.self))
        }
        return Word(String(decoding: whole, as: UTF8.self), parts: parts)
    }

    /// A word of a Vietnamese page: lowercased, not stemmed; with its plain letters as a part
    /// when it has marks, and an identifier's parts as they are.
    private static func vietnameseWord(_ bytes: UnsafeBufferPointer<UInt8>) -> Word {
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            let term = String(decoding: bytes, as: UTF8.self).lowercased()
            let plain = withoutMarks(term)
            return Word(term, parts: plain == term ? [] : [plain])
        }
        let whole = String(decoding: bytes.map(lowercase), as: UTF8.self)
        let bounds = partBounds(bytes)
        guard bounds.count > 1 else { return Word(whole) }
        let parts = bounds.filter { $0.count > 1 }.map {
            String(decoding: bytes[$0].map(lowercase), as: UTF8.self)
        }
        return Word(whole, parts: parts)
    }

    /// A lowercased word without its diacritics and tone marks, `đ` read as `d`: what a reader
    /// types on a keyboard without a Vietnamese input method.
    static func withoutMarks(_ word: String) -> String {
        var plain = ""
        plain.unicodeScalars.reserveCapacity(word.unicodeScalars.count)
        for scalar in word.decomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue
            default: plain.unicodeScalars.append(scalar == "đ" ? "d" : scalar == "Đ" ? "d" : scalar)
            }
        }
        return plain.precomposedStringWithCanonicalMapping
    }

    /// Where an identifier's words lie: between underscores, before a capital that follows a
    /// lowercase letter or a digit (`path|Advanced`), and before the last capital of a run that
    /// a lowercase letter follows (`URL|Session`). Digits stay with what precedes them (`li2`).
    static func partBounds(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var bounds: [Range<Int>] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        func close(at end: Int) {
            if start < end { bounds.append(start..<end) }
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "_") {
                close(at: index)
                start = index + 1
            } else if isUpper(byte), index > start {
                let previous = bytes[index - 1]
                let next = index + 1 < bytes.endIndex ? bytes[index + 1] : 0
                if isLower(previous) || isDigit(previous) || (isUpper(previous) && isLower(next)) {
                    close(at: index)
                    start = index
                }
            }
            index += 1
        }
        close(at: bytes.endIndex)
        return bounds
    }

    private static func lowercased(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            return String(decoding: bytes, as: UTF8.self).lowercased()
        }
        return String(decoding: bytes.map(lowercase), as: UTF8.self)
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 { isUpper(byte) ? byte | 0x20 : byte }
    private static func isUpper(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
    }
    private static func isLower(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
    }
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Whether the UTF-8 sequence of one character is a letter or a number (`\p{L}` or `\p{N}`).
    private static func isLetterOrNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var value = UInt32(bytes[0] & (0x7F >> bytes.count))
        for byte in bytes.dropFirst() { value = value << 6 | UInt32(byte & 0x3F) }
        guard let scalar = Unicode.Scalar(value) else { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }
}

/// Every word the index has read, the term and parts each was read into, and the terms in
/// the order the index lists them. A save changes a few words of the book, and reading a word
/// (lowercasing, stemming, cutting it into parts, finding its term) is most of what building the
/// index costs, so the table is kept from build to build, one per language (``TermTables``).
struct TermTable {
    private(set) var words = ByteInterner()
    /// For each word: its term, and where its parts' terms are in `wordParts`.
    private(set) var wordTerms: [(term: Int, parts: Range<Int>)] = []
    private(set) var wordParts: [Int] = []
    private(set) var terms: [String] = []
    private var termIDs: [String: Int] = [:]
    /// The numbers of the first `sortedCount` terms, by their UTF-16 code units (as JavaScript
    /// compares strings). Terms added since are placed into it when the order is next asked for.
    private var order: [Int] = []
    private var sortedCount = 0

    /// The number of the word `bytes`, read now if it never was.
    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, language: SearchLanguage) -> Int {
        let (id, isNew) = words.intern(bytes)
        guard isNew else { return id }
        let word = SearchTerms.word(bytes, language: language)
        let start = wordParts.count
        for part in word.parts { wordParts.append(termID(part)) }
        wordTerms.append((term: termID(word.term), parts: start..<wordParts.count))
        return id
    }

    private mutating func termID(_ term: String) -> Int {
        if let id = termIDs[term] { return id }
        termIDs[term] = terms.count
        terms.append(term)
        return terms.count - 1
    }

    /// Every term's number, in the index's order. A save adds a few terms to a table of
    /// thousands, so new terms are placed by binary search into the order kept from the last
    /// call; many new terms (a first build) are sorted with the rest. Either way the order is
    /// the same: no two terms have the same code units, as equal strings have one number.
    mutating func sortedTerms() -> [Int] {
        let added = terms.count - sortedCount
        if added == 0 { return order }
        if added > 64 {
            let keys = terms.map { Array($0.utf16) }
            order = terms.indices.sorted { keys[$0].lexicographicallyPrecedes(keys[$1]) }
        } else {
            for term in sortedCount..<terms.count {
                let key = Array(terms[term].utf16)
                var (low, high) = (0, order.count)
                while low < high {
                    let middle = (low + high) / 2
                    if terms[order[middle]].utf16.lexicographicallyPrecedes(key) {
                        low = middle + 1
                    } else {
                        high = middle
                    }
                }
                order.insert(term, at: low)
            }
        }
        sortedCount = terms.count
        return order
    }
}

/// One page's part of the index read with a ``TermTable``: term, section and weight in threes,
/// section by section, its sections numbered from 0; and every term its words were read into.
/// The numbers are the table's, so a part's postings are kept with the table they were read with.
struct PartPostings: Sendable {
    var part: SearchIndex.Part
    var postings: [Int]
    var sectionCount: Int
    var terms: [Int]
}

/// The term tables of earlier builds, by language, each with the parts read with it. A build
/// starts from a copy of its language's table and puts back what it grew to, with its parts;
/// two builds at once each grow their own copy, and the table kept is kept with its own parts.
final class TermTables: @unchecked Sendable {
    /// Past this many words (a book rewritten many times over), a table starts again.
    static let limit = 500_000
    static let shared = TermTables()

    private let lock = NSLock()
    private var tables: [SearchLanguage: (table: TermTable, parts: [PartPostings])] = [:]

    /// The table for `language` and the parts the last build read with it; empty when memos are
    /// off (`workbook serve --full-rebuild`).
    func kept(_ language: SearchLanguage) -> (table: TermTable, parts: [PartPostings]) {
        guard Memos.isEnabled else { return (TermTable(), []) }
        return lock.withLock { tables[language] ?? (TermTable(), []) }
    }

    /// Keeps `table` and the parts read with it for the next build in `language`, unless the
    /// table is past the limit.
    func keep(_ table: TermTable, parts: [PartPostings], language: SearchLanguage) {
        guard Memos.isEnabled else { return }
        lock.withLock { tables[language] = table.words.count > Self.limit ? nil : (table, parts) }
    }
}

/// Numbers for byte strings: the words of a page, each kept once, found again by their bytes
/// without making a `String` for every word read (the index reads every word of the book).
struct ByteInterner: Equatable {
    private var slots = [Int32](repeating: -1, count: 256)
    private var storage: [UInt8] = []
    private var ends: [Int] = []
    private var hashes: [UInt64] = []

    var count: Int { ends.count }

    func bytes(of id: Int) -> ArraySlice<UInt8> { storage[(id == 0 ? 0 : ends[id - 1])..<ends[id]] }

    /// The number of `bytes`, new when they were not seen before.
    mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> (id: Int, isNew: Bool) {
        let hash = Self.hash(bytes)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash ^ hash >> 32) & mask
        while true {
            let id = Int(slots[slot])
            if id < 0 { break }
            if hashes[id] == hash, isEqual(id, bytes) { return (id, false) }
            slot = (slot + 1) & mask
        }
        let id = ends.count
        storage.append(contentsOf: bytes)
        ends.append(storage.count)
        hashes.append(hash)
        slots[slot] = Int32(id)
        if ends.count * 2 > slots.count { grow() }
        return (id, true)
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    mutating func intern(_ text: String) -> (id: Int, isNew: Bool) {
        var text = text
        return text.withUTF8 { intern($0) }
    }

    private func isEqual(_ id: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = id == 0 ? 0 : ends[id - 1]
        guard ends[id] - start == bytes.count, let other = bytes.baseAddress else { return bytes.isEmpty }
        return storage.withUnsafeBufferPointer { stored in
            stored.baseAddress.map { memcmp($0 + start, other, bytes.count) == 0 } ?? false
        }
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (id, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash ^ hash >> 32) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id)
        }
    }
}

/// Porter's stemmer ("An algorithm for suffix stripping", 1980) as published, on lowercase ASCII
/// bytes. Like Porter's own C version it leaves words of one or two letters alone. `site.js`
/// holds the same algorithm, line for line, for the words a reader types.
enum PorterStemmer {
    /// Stems `word` in place; false (and `word` unchanged) when it holds anything but `a` to `z`.
    @discardableResult
    static func stem(_ word: inout [UInt8]) -> Bool {
        guard word.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else { return false }
        guard word.count > 2 else { return true }
        var state = State(b: word)
        state.run()
        word = Array(state.b[...state.k])
        return true
    }

    private static let step2: [(StaticString, StaticString)] = [
        ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
        ("abli", "able"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"),
        ("ization", "ize"), ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"),
        ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"),
    ]
    private static let step3: [(StaticString, StaticString)] = [
        ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""),
        ("ness", ""),
    ]
    /// Step 4's suffixes; `ion` only goes after `s` or `t`.
    private static let step4: [(suffix: StaticString, afterSOrT: Bool)] = [
        ("al", false), ("ance", false), ("ence", false), ("er", false), ("ic", false), ("able", false),
        ("ible", false), ("ant", false), ("ement", false), ("ment", false), ("ent", false), ("ion", true),
        ("ou", false), ("ism", false), ("ate", false), ("iti", false), ("ous", false), ("ive", false),
        ("ize", false),
    ]

    /// The word `b[0...k]`; `j` marks the end of the stem once `ends` found a suffix.
    private struct State {
        var b: [UInt8]
        var k: Int
        var j = 0

        init(b: [UInt8]) {
            self.b = b
            k = b.count - 1
        }

        func isConsonant(_ i: Int) -> Bool {
            switch b[i] {
            case UInt8(ascii: "a"), UInt8(ascii: "e"), UInt8(ascii: "i"), UInt8(ascii: "o"),
                UInt8(ascii: "u"):
                return false
            case UInt8(ascii: "y"):
                return i == 0 ? true : !isConsonant(i - 1)
            default:
                return true
            }
        }

        /// The number of vowel-consonant sequences in `b[0...j]`.
        func measure() -> Int {
            var n = 0
            var i = 0
            while true {
                if i > j { return n }
                if !isConsonant(i) { break }
                i += 1
            }
            i += 1
            while true {
                while true {
                    if i > j { return n }
                    if isConsonant(i) { break }
                    i += 1
                }
                i += 1
                n += 1
                while true {
                    if i > j { return n }
                    if !isConsonant(i) { break }
                    i += 1
                }
                i += 1
            }
        }

        func hasVowelInStem() -> Bool {
            j >= 0 && (0...j).contains { !isConsonant($0) }
        }

        func isDoubleConsonant(_ i: Int) -> Bool { i >= 1 && b[i] == b[i - 1] && isConsonant(i) }

        /// Consonant, vowel, consonant ending at `i`, the last not `w`, `x` or `y`.
        func isCVC(_ i: Int) -> Bool {
            guard i >= 2, isConsonant(i), !isConsonant(i - 1), isConsonant(i - 2) else { return false }
            return b[i] != UInt8(ascii: "w") && b[i] != UInt8(ascii: "x") && b[i] != UInt8(ascii: "y")
        }

        mutating func ends(_ suffix: StaticString) -> Bool {
            let count = suffix.utf8CodeUnitCount
            guard count <= k + 1 else { return false }
            let start = k - count + 1
            for index in (0..<count).reversed() where b[start + index] != suffix.utf8Start[index] {
                return false
            }
            j = k - count
            return true
        }

        mutating func setTo(_ replacement: StaticString) {
            b.removeSubrange((j + 1)...)
            b.append(
                contentsOf: UnsafeBufferPointer(
                    start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
            k = j + replacement.utf8CodeUnitCount
        }

        /// Ends the word at `end`; the bytes after it stay until the end, as in Porter's C version,
        /// where step 5 still measures the stem with the `e` it removed.
        mutating func truncate(to end: Int) { k = end }

        /// The first of `pairs` whose suffix ends the word is replaced when the stem before it has
        /// a measure above 0; the others are not tried.
        mutating func replaceFirst(of pairs: [(StaticString, StaticString)]) {
            for (suffix, replacement) in pairs where ends(suffix) {
                if measure() > 0 { setTo(replacement) }
                return
            }
        }

        mutating func run() {
            // Step 1a: plurals.
            if b[k] == UInt8(ascii: "s") {
                if ends("sses") {
                    truncate(to: k - 2)
                } else if ends("ies") {
                    setTo("i")
                } else if b[k - 1] != UInt8(ascii: "s") {
                    truncate(to: k - 1)
                }
            }
            // Step 1b: -eed, -ed, -ing.
            if ends("eed") {
                if measure() > 0 { truncate(to: k - 1) }
            } else if ends("ed") || ends("ing"), hasVowelInStem() {
                truncate(to: j)
                if ends("at") {
                    setTo("ate")
                } else if ends("bl") {
                    setTo("ble")
                } else if ends("iz") {
                    setTo("ize")
                } else if isDoubleConsonant(k) {
                    if ![UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "z")].contains(b[k]) {
                        truncate(to: k - 1)
                    }
                } else {
                    j = k
                    if measure() == 1, isCVC(k) { setTo("e") }
                }
            }
            if k == 0 { return }
            // Step 1c: a final y after a vowel in the stem becomes i.
            if ends("y"), hasVowelInStem() { b[k] = UInt8(ascii: "i") }
            replaceFirst(of: PorterStemmer.step2)
            replaceFirst(of: PorterStemmer.step3)
            // Step 4: suffixes removed when the measure stays above 1.
            for (suffix, afterSOrT) in PorterStemmer.step4 where ends(suffix) {
                if afterSOrT, !(j >= 0 && (b[j] == UInt8(ascii: "s") || b[j] == UInt8(ascii: "t"))) { break }
                if measure() > 1 { truncate(to: j) }
                break
            }
            // Step 5: a final e, and ll.
            j = k
            if b[k] == UInt8(ascii: "e") {
                let measure = measure()
                if measure > 1 || (measure == 1 && !isCVC(k - 1)) { truncate(to: k - 1) }
            }
            if b[k] == UInt8(ascii: "l"), isDoubleConsonant(k), measure() > 1 { truncate(to: k - 1) }
        }
    }
}
