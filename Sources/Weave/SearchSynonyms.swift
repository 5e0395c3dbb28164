import Foundation

/// Words and phrases that mean the same to a reader — `grey` and `gray`, `SPM` and `Swift
/// Package Manager`, `zero` and `0` — from the theme's `search-synonyms.json`. A section that
/// holds one member of a group is also found by the others: the index counts the other members
/// as words of its prose, so the page's search needs no table of its own.
///
/// ```json
/// {"groups": [["grey", "gray"], ["SPM", "Swift Package Manager"], ["zero", "0"]]}
/// ```
public struct SearchSynonyms: Sendable, Equatable {
    /// Each group's members as written.
    public var groups: [[String]]
    /// Every member as lower-case words, with its group, by its first word.
    private var byFirstWord: [String: [(words: [String], group: Int)]] = [:]

    public init(groups: [[String]] = []) {
        self.groups = groups
        for (index, group) in groups.enumerated() {
            for member in group {
                let words = Self.words(member)
                guard let first = words.first else { continue }
                byFirstWord[first, default: []].append((words, index))
            }
        }
    }

    private struct File: Decodable {
        var groups: [[String]]
    }

    /// Reads the theme's file; a group must have two members or more.
    public init(json text: String) throws(WeaveMessage) {
        let file = try Theme.decode(File.self, json: text, invalid: WeaveMessage.invalidSynonyms)
        if let short = file.groups.first(where: { $0.filter { !Self.words($0).isEmpty }.count < 2 }) {
            throw .invalidSynonyms(detail: "a group needs two words or phrases or more: \(short)")
        }
        self.init(groups: file.groups)
    }

    public static func == (lhs: SearchSynonyms, rhs: SearchSynonyms) -> Bool { lhs.groups == rhs.groups }

    public var isEmpty: Bool { groups.isEmpty }

    /// The members of every group that `text` holds a member of, which it does not hold itself,
    /// as one text to count with the section's prose.
    func additions(_ text: String) -> String {
        guard !byFirstWord.isEmpty else { return "" }
        let words = Self.words(text)
        var found = Set<Int>()
        for (index, word) in words.enumerated() {
            for member in byFirstWord[word] ?? [] where !found.contains(member.group) {
                let end = index + member.words.count
                if end <= words.count, Array(words[index..<end]) == member.words {
                    found.insert(member.group)
                }
            }
        }
        guard !found.isEmpty else { return "" }
        let present = Set(words)
        return found.sorted().flatMap { groups[$0] }
            .filter { member in !Self.words(member).allSatisfy(present.contains) }
            .joined(separator: " ")
    }

    /// Lower-case runs of letters and digits, the way a reader's words are split.
    static func words(_ text: String) -> [String] {
        // Most of an English section is ASCII, where a byte is a character, and its other
        // characters are dashes, arrows and quotes, which end a word: a loop over bytes gives
        // the same words for a fraction of the cost of splitting `Character`s.
        guard onlySeparatorsBeyondASCII(text) else {
            return text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
        }
        var words: [String] = []
        var word: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): word.append(byte + 32)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                word.append(byte)
            default:
                guard !word.isEmpty else { continue }
                words.append(String(decoding: word, as: UTF8.self))
                word.removeAll(keepingCapacity: true)
            }
        }
        if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }

    /// Whether every scalar of `text` beyond ASCII is punctuation, a symbol or a space, and
    /// joins no neighbour into its character (no mark, no joiner, no letter or number): each
    /// then ends a word as a `Character` would, and no ASCII letter is part of a longer
    /// character (`e` followed by a combining accent is one).
    static func onlySeparatorsBeyondASCII(_ text: String) -> Bool {
        for scalar in text.unicodeScalars where !scalar.isASCII {
            // What `Character.isLetter` and `isNumber` ask (a circled letter is a symbol that
            // counts as a letter).
            let properties = scalar.properties
            guard !properties.isGraphemeExtend, !properties.isAlphabetic, properties.numericType == nil
            else { return false }
            switch properties.generalCategory {
            case .spaceSeparator, .lineSeparator, .paragraphSeparator, .connectorPunctuation,
                .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
                .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .otherSymbol:
                continue
            default:
                return false
            }
        }
        return true
    }
}
