import Foundation
import Literate
import TestSupport
import Testing

@testable import Weave

/// The words search reads, their stems, their weights, and the order results come in; each
/// compared whole. `site/assets/site.js` applies the same rules in the browser, and the browser
/// test types the same kind of queries there.
struct SearchTermsTests {
    struct WordCase: CustomTestStringConvertible, Sendable {
        var id: String
        var source: String
        var text: String
        var words: [SearchTerms.Word]
        var testDescription: String { id }
    }

    static let wordCases: [WordCase] = [
        WordCase(
            id: "a call with a parameter label",
            source: "this book: search splits names into their parts and stems English words",
            text: "Li2.configure(publishableKey:)",
            words: [
                .init("li2"), .init("configur"), .init("publishablekei", parts: ["publish", "kei"]),
            ]),
        WordCase(
            id: "an Android attribute",
            source: "this book: search splits names into their parts and stems English words",
            text: "android:pathAdvancedPattern=\"/p/[0-9]+\"",
            words: [
                .init("android"), .init("pathadvancedpattern", parts: ["path", "advanc", "pattern"]),
                .init("p"), .init("0"), .init("9"),
            ]),
        WordCase(
            id: "a method call",
            source: "this book: search splits names into their parts and stems English words",
            text: "resolver.submitPasteControlEmpty()",
            words: [
                .init("resolv"),
                .init("submitpastecontrolempti", parts: ["submit", "past", "control", "empti"]),
            ]),
        WordCase(
            id: "capitals, digits and underscores",
            source: "this book: search splits names into their parts and stems English words",
            text: "URLSession base64URL li2_pk_shop iOS _x",
            words: [
                .init("urlsess", parts: ["url", "session"]), .init("base64url", parts: ["base64", "url"]),
                .init("li2_pk_shop", parts: ["li2", "pk", "shop"]), .init("io", parts: ["os"]), .init("_x"),
            ]),
        WordCase(
            id: "prose, punctuation and other scripts",
            source: "this book: search splits names into their parts and stems English words",
            text: "Links — matching, “escaped” café ÉTÉ 15 km",
            words: [
                .init("link"), .init("match"), .init("escap"), .init("café"), .init("été"), .init("15"),
                .init("km"),
            ]),
    ]

    @Test(arguments: wordCases) func wordsAreStemmedAndNamesSplitIntoParts(_ example: WordCase) {
        #expect(SearchTerms.words(in: example.text) == example.words, "\(example.source)")
    }

    /// Porter's examples and this book's words. The outputs were checked against Snowball's
    /// implementation of the same algorithm, which agrees on every word of three letters or more
    /// in the book and its sources (6,325 words).
    @Test func porterStemsAsPublished() {
        let cases: [(word: String, stem: String)] = [
            ("caresses", "caress"), ("ponies", "poni"), ("ties", "ti"), ("caress", "caress"), ("cats", "cat"),
            ("feed", "feed"), ("agreed", "agre"), ("plastered", "plaster"), ("bled", "bled"),
            ("motoring", "motor"), ("sing", "sing"), ("conflated", "conflat"), ("troubled", "troubl"),
            ("sized", "size"), ("hopping", "hop"), ("tanned", "tan"), ("falling", "fall"),
            ("hissing", "hiss"), ("fizzed", "fizz"), ("failing", "fail"), ("filing", "file"),
            ("happy", "happi"), ("sky", "sky"), ("relational", "relat"), ("conditional", "condit"),
            ("rational", "ration"), ("valenci", "valenc"), ("digitizer", "digit"),
            ("conformabli", "conform"), ("generalizations", "gener"), ("oscillators", "oscil"),
            ("links", "link"), ("linked", "link"), ("linking", "link"), ("matching", "match"),
            ("matches", "match"), ("configured", "configur"), ("configuring", "configur"),
            ("escapes", "escap"), ("escaping", "escap"), ("publishablekey", "publishablekei"),
            // Porter's C version leaves words of one or two letters alone; only a to z is stemmed.
            ("is", "is"), ("as", "as"), ("li2", "li2"), ("café", "café"),
        ]
        #expect(cases.map { SearchTerms.stem($0.word) } == cases.map(\.stem))
    }

    @Test func theQueryIsReadWithoutParts() {
        #expect(
            SearchTerms.queryWords("Li2.configure(publishableKey:)") == [
                "li2", "configure", "publishablekey",
            ])
        #expect(SearchTerms.queryWords("  ") == [])
    }

    @Test func theHeadingOutweighsProseWhichOutweighsCodeWhichOutweighsParts() {
        let section = SearchSection(
            page: "App Links", title: "Path patterns", url: "a.html#path-patterns",
            text: "A pattern, a pattern, a pattern, a pattern and a pattern: `pathAdvancedPattern`.",
            code: "match(pathPrefix)\nmatch(path)\npath")
        #expect(
            SearchPostings([SearchIndex.part([section])]).weights(ofSection: 0) == [
                "a": 32, "advanc": 1, "and": 8, "match": 4, "path": 80 + 4, "pathadvancedpattern": 8,
                "pathprefix": 2, "pattern": 80 + 32, "prefix": 1,
            ])
    }

    @Test func anExercisePageWeighsHalfSoTheChapterThatExplainsComesFirst() {
        let chapter = SearchSection(
            page: "The SDK API", title: "Configuring", url: "chapters/09.html#configuring",
            text: "Pass the publishableKey.")
        let exercise = SearchSection(
            page: "Exercise 15", title: "The task", url: "exercises/15.html#the-task",
            text: "Check the publishableKey, then pass the publishableKey on.")
        // Unweighed, the exercise's two mentions (16) would beat the chapter's one (8).
        let postings = SearchPostings([
            SearchIndex.part([chapter]), SearchIndex.part([exercise], practice: true),
        ])
        #expect(postings.weights(ofSection: 0)["publishablekei"] == 8)
        #expect(postings.weights(ofSection: 1)["publishablekei"] == 16 / 2)
        #expect(postings.weights(ofSection: 1)["task"] == 80 / 2)
        #expect(postings.search("publishableKey") == [0, 1], "the chapter's section, then the exercise's")
    }

    /// A small book in the shape of the real one: a guide section, its internals, a glossary entry.
    static let sections = [
        SearchSection(
            page: "Routing", title: "Patterns", url: "02-routing.html#patterns",
            text: "A pattern like /product/:id matches a path; links that match open the app."),
        SearchSection(
            page: "App Links", title: "How Android reads a path",
            url: "04-app-links.html#how-android-reads-a-path",
            text: "The pathAdvancedPattern attribute adds character classes.",
            code: "<data android:pathAdvancedPattern=\"/p/[0-9]+\" />"),
        SearchSection(
            page: "Configuring", title: "Configuring", url: "09-the-sdk-api.html#configuring",
            text: "Li2.configure(publishableKey:deepLinkDomains:) takes the key.",
            code: "Li2.configure(publishableKey: \"li2_pk_shop\", deepLinkDomains: [\"go.shop.example\"])"),
        SearchSection(
            page: "Inside App Links", title: "Reading the manifest", url: "17-inside-app-links.html#reading",
            text: "Attributes that do not compile are reported.",
            code:
                "try checkAdvancedPatterns(attributes, [\"pathAdvancedPattern\", \"sspAdvancedPattern\"], fail)"
        ),
        SearchSection(
            page: "Glossary", title: "pathPattern", url: "glossary.html#pathpattern",
            text: "A simple glob; pathAdvancedPattern adds classes, and pathPattern is older."),
    ]

    static func results(_ query: String) -> [String] {
        let postings = SearchPostings([SearchIndex.part(sections)])
        return postings.search(query).map { sections[$0].url }
    }

    @Test func namesAreFoundWholeAndWordsInTheirOtherForms() {
        // A name the prose explains comes before the code that uses it; equals keep book order.
        #expect(
            Self.results("pathAdvancedPattern") == [
                "04-app-links.html#how-android-reads-a-path", "glossary.html#pathpattern",
                "17-inside-app-links.html#reading",
            ])
        // Found only in code.
        #expect(Self.results("checkAdvancedPatterns") == ["17-inside-app-links.html#reading"])
        #expect(Self.results("publishableKey") == ["09-the-sdk-api.html#configuring"])
        #expect(Self.results("li2_pk_shop") == ["09-the-sdk-api.html#configuring"])
        // A word of the heading first, then the prose, then names that hold the word.
        #expect(
            Self.results("pattern") == [
                "02-routing.html#patterns", "04-app-links.html#how-android-reads-a-path",
                "17-inside-app-links.html#reading", "glossary.html#pathpattern",
            ])
        // Stems: other forms of the words typed.
        #expect(Self.results("linking") == ["02-routing.html#patterns", "09-the-sdk-api.html#configuring"])
        #expect(Self.results("configured") == ["09-the-sdk-api.html#configuring"])
        #expect(
            Self.results("attribute") == [
                "04-app-links.html#how-android-reads-a-path", "17-inside-app-links.html#reading",
            ])
    }

    @Test func theLastWordIsFoundWhileItIsTyped() {
        // A prefix of a longer word, and a word the letters typed so far begin with.
        #expect(Self.results("publishableK") == ["09-the-sdk-api.html#configuring"])
        #expect(Self.results("pathAdv") == Self.results("pathAdvancedPattern"))
        #expect(Self.results("matchin") == ["02-routing.html#patterns"])
        // Every word must be found; only the last one may be unfinished.
        #expect(Self.results("configure key") == ["09-the-sdk-api.html#configuring"])
        #expect(Self.results("configure pattern") == [])
        #expect(Self.results("pathAdv classes") == [])
        #expect(Self.results("  ") == [])
    }

    @Test func theIndexListsEveryWordWithItsSectionsAndWeights() throws {
        let json = SearchIndex.json([
            SearchSection(page: "Routing", title: "Routing", url: "r.html", text: "Links become routes."),
            SearchSection(
                page: "Routing", title: "Patterns", url: "r.html#patterns", text: "A link.", code: "route"),
        ])
        #expect(
            String(decoding: json, as: UTF8.self) == """
                {"version":2,"sections":[
                {"page":"Routing","title":"Routing","url":"r.html","text":"Links become routes."},
                {"page":"Routing","title":"Patterns","url":"r.html#patterns","text":"A link."}
                ],
                "terms":["a","becom","link","pattern","rout"],
                "postings":[[1,8],[0,8],[0,8,1,8],[1,80],[0,88,1,2]]}

                """)
    }

    @Test func theBuiltIndexFindsNamesThatOnlyCodeHolds() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        _ = try book.build()
        let data = try #require(book.output("search-index.json"))
        let index = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        let sections = try #require(index["sections"] as? [[String: String]])
        let terms = try #require(index["terms"] as? [String])
        let postings = try #require(index["postings"] as? [[Int]])
        func found(_ term: String) -> [String] {
            guard let at = terms.firstIndex(of: term) else { return [] }
            var section = 0
            return stride(from: 0, to: postings[at].count, by: 2).map { pair in
                section += postings[at][pair]
                return "\(sections[section]["url"] ?? "?") \(postings[at][pair + 1])"
            }
        }
        // `Greeter` and `parting` appear in code blocks only; `goodbye` in a heading and in code.
        #expect(
            found("greeter") == [
                "chapters/01-greeting.html#the-code 2", "chapters/02-farewell.html#saying-goodbye 2",
            ])
        #expect(found("part") == ["chapters/02-farewell.html#saying-goodbye 8"])
        #expect(found("goodby") == ["chapters/02-farewell.html#saying-goodbye 82"])
        #expect(terms == terms.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) })
    }
}

/// The words a synonym group is matched by: ASCII text takes a loop over bytes, other text
/// Unicode's letters and digits; both give lower-case runs of letters and digits.
struct SearchSynonymWordsTests {
    @Test func asciiAndUnicodeTextAreSplitAlike() {
        #expect(
            SearchSynonyms.words("Deep-Link 2 UNIVERSAL_links\r\nok, App Links.")
                == ["deep", "link", "2", "universal", "links", "ok", "app", "links"])
        #expect(SearchSynonyms.words("Liên KẾT sâu (deep link)") == ["liên", "kết", "sâu", "deep", "link"])
        #expect(SearchSynonyms.words(" -- ") == [])
    }

    /// Text whose only characters beyond ASCII end words (dashes, arrows, quotes, spaces) takes
    /// the loop over bytes too; a mark, a joiner, a letter or a number beyond ASCII does not.
    /// Either way the words are those of splitting the lower-cased `Character`s.
    @Test func textWithSeparatorsBeyondASCIIIsSplitAsCharactersAre() {
        let pieces = [
            "Link", "a", "Z9", " ", "-", "_", "\r\n", "—", "→", "’", "“", "€", "©", "\u{00A0}", "…", "⌘",
            "🇻🇳", "e\u{301}", "\u{200D}", "\u{FE0F}", "é", "½", "Ⓐ", "K", "İ", "ﬁ",
        ]
        var random = SplitMix64(seed: 27)
        for _ in 0..<2000 {
            let text = (0..<Int(random.next() % 8)).map { _ in
                pieces[Int(random.next() % UInt64(pieces.count))]
            }
            .joined()
            let characters = text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
            #expect(SearchSynonyms.words(text) == characters, "\(text.unicodeScalars.map(\.value))")
        }
        #expect(SearchSynonyms.onlySeparatorsBeyondASCII("deep — link → “app”"))
        #expect(!SearchSynonyms.onlySeparatorsBeyondASCII("cafe\u{301}"))
        #expect(!SearchSynonyms.onlySeparatorsBeyondASCII("a\u{200D}b"))
    }
}
