import Foundation
import TestSupport
import Testing

@testable import Weave

/// A build's search postings reuse the parts the previous build read (equal part, same place);
/// after any sequence of page edits they equal postings read from nothing.
struct SearchPartReuseTests {
    static let vocabulary = [
        "link", "links", "linked", "Universal", "universalLinks", "App", "appLinks", "deferred", "clipboard",
        "referrer", "install", "track", "open", "matchMethod", "publishableKey", "liên", "kết", "Đường",
        "route", "router", "routing", "scheme", "https", "intent", "filter", "autoVerify", "swcutil",
    ]

    /// Pages of one to three sections of words from the vocabulary, a heading each.
    struct Book {
        var random: SplitMix64
        var pages: [[SearchSection]] = []

        init(seed: UInt64) {
            random = SplitMix64(seed: seed)
            pages = (0..<5).map { _ in page() }
        }

        mutating func number(_ below: Int) -> Int { Int(random.next() % UInt64(below)) }

        mutating func words(_ count: Int) -> String {
            (0..<count).map { _ in
                SearchPartReuseTests.vocabulary[number(SearchPartReuseTests.vocabulary.count)]
            }
            .joined(separator: " ")
        }

        mutating func page() -> [SearchSection] {
            (0...number(3)).map { _ in
                SearchSection(
                    page: "P", title: words(2), url: "p.html#\(number(100))", text: words(3 + number(12)),
                    code: number(2) == 0 ? "" : words(2))
            }
        }

        /// Changes a word, adds or drops a section, adds, drops or replaces a page.
        mutating func edit() -> String {
            switch number(5) {
            case 0:
                let index = number(pages.count)
                pages[index][0].text += " " + words(1)
                return "a word added to page \(index)"
            case 1:
                let index = number(pages.count)
                pages[index].append(page()[0])
                return "a section added to page \(index)"
            case 2 where pages.count > 1:
                let index = number(pages.count)
                pages.remove(at: index)
                return "page \(index) removed"
            case 3:
                let index = number(pages.count + 1)
                pages.insert(page(), at: index)
                return "a page inserted at \(index)"
            default:
                let index = number(pages.count)
                pages[index] = page()
                return "page \(index) rewritten"
            }
        }

        func parts() -> [SearchIndex.Part] {
            pages.enumerated().map { SearchIndex.part($0.element, practice: $0.offset == 2) }
        }
    }

    struct Postings: Equatable {
        var terms: [String]
        var starts: [Int]
        var pairs: [Int]

        init(_ postings: SearchPostings) {
            (terms, starts, pairs) = (postings.terms, postings.starts, postings.pairs)
        }
    }

    /// Terms added a few at a time are placed into the kept order; many at once are sorted
    /// with the rest. Both give the order of one sort of every term by UTF-16 code units,
    /// letters beyond the BMP (surrogate pairs) and Vietnamese marks included.
    @Test(arguments: [5, 6, 7] as [UInt64])
    func termOrderGrownInStepsEqualsOneSort(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let letters = Array("abcdezĐđếườ𝒜😀ﬁ".unicodeScalars)
        var table = TermTable()
        for step in 0..<40 {
            // Mostly a few words (a save), now and then a hundred (a first build).
            let count = step % 9 == 0 ? 100 : Int(random.next() % 6)
            for _ in 0..<count {
                let length = 1 + Int(random.next() % 5)
                var word = String.UnicodeScalarView()
                for _ in 0..<length { word.append(letters[Int(random.next() % UInt64(letters.count))]) }
                let bytes = Array(String(word).utf8)
                _ = bytes.withUnsafeBufferPointer { table.read($0, language: .vietnamese) }
            }
            let expected = table.terms.indices.sorted {
                table.terms[$0].utf16.lexicographicallyPrecedes(table.terms[$1].utf16)
            }
            #expect(table.sortedTerms() == expected, "seed \(seed), step \(step)")
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func postingsAfterEditsEqualPostingsFromNothing(seed: UInt64) {
        for language in [SearchLanguage.english, .vietnamese] {
            var book = Book(seed: seed)
            let kept = TermTables()
            var edits: [String] = []
            for _ in 0..<25 {
                let parts = book.parts()
                let reused = Postings(SearchPostings(parts, language: language, tables: kept))
                let fresh = Postings(SearchPostings(parts, language: language, tables: TermTables()))
                #expect(reused == fresh, "seed \(seed), \(language), after: \(edits.joined(separator: "; "))")
                if reused != fresh { return }
                edits.append(book.edit())
            }
        }
    }
}
