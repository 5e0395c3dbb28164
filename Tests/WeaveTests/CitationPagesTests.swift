import Foundation
import Literate
import Testing

@testable import Weave

/// Pages of what a book cites: `source:KEY` links lead to their entries, entries list the
/// sections that cite them, and a key nobody lists is a broken link at its place.
struct CitationPagesTests {
    static let chapter = """
        # Routing

        ## Schemes

        A scheme starts with a letter ([RFC 3986 §3.1](source:rfc3986-3.1)).

        ## Hosts

        Hosts compare without case ([RFC 3986 §3.1](source:rfc3986-3.1); [this book](source:book-x)).
        """

    /// One page of sources, one of decisions; the decision is also cited by a test file.
    static func citations(_ book: Book) -> CitationPages {
        CitationPages(
            scheme: "source",
            pages: [
                .init(
                    file: "sources.md", kind: "sources", title: "Sources", introduction: "Every source.",
                    groups: [
                        .init(
                            title: "IETF",
                            entries: [
                                .init(
                                    key: "rfc3986-3.1", heading: "RFC 3986 §3.1", body: "*Scheme*.",
                                    url: "https://www.rfc-editor.org/rfc/rfc3986#section-3.1")
                            ])
                    ], homeHeading: "Evidence"),
                .init(
                    file: "decisions.md", kind: "decisions", title: "Decisions", introduction: "",
                    groups: [
                        .init(
                            title: "Tools",
                            entries: [
                                .init(
                                    key: "book-x", heading: "this book: x", body: "Because.",
                                    citedOnPages: [(page: "chapters/01-routing.md", line: 3)],
                                    citedElsewhere: ["Tests/XTests/X.swift:12"])
                            ]),
                        .init(title: "Empty", entries: []),
                    ]),
            ])
    }

    @Test func aCitationLinksItsEntryAndCarriesTheSourcesURL() throws {
        let book = try TemporaryBook(chapters: ["01-routing.md": Self.chapter])
        let report = try book.build { $0.citations = Self.citations }
        #expect(report.diagnostics.filter { $0.severity == .error } == [])
        #expect(
            book.lines("chapters/01-routing.html", startingWith: "<p>Hosts") == [
                "<p>Hosts compare without case (<a href=\"../sources.html#rfc3986-3.1\" class=\"citation\" "
                    + "data-url=\"https://www.rfc-editor.org/rfc/rfc3986#section-3.1\">RFC 3986 §3.1</a>; "
                    + "<a href=\"../decisions.html#book-x\" class=\"citation\">this book</a>).</p>"
            ])
        #expect(
            try #require(book.output("print.html")).contains(
                "<a href=\"sources.html#rfc3986-3.1\" class=\"citation\" "
                    + "data-url=\"https://www.rfc-editor.org/rfc/rfc3986#section-3.1\">"),
            "the print page keeps the URL for its stylesheet to show")
    }

    /// Each entry names every section that cites it once, by link or by line, then the places
    /// outside the site; an empty group is left out.
    @Test func anEntryListsTheSectionsThatCiteIt() throws {
        let book = try TemporaryBook(chapters: ["01-routing.md": Self.chapter])
        _ = try book.build { $0.citations = Self.citations }
        #expect(
            book.lines("sources.html", startingWith: "<h3") == [
                "<h3 class=\"citation-entry\" id=\"rfc3986-3.1\">RFC 3986 §3.1<a class=\"heading-anchor\" "
                    + "href=\"#rfc3986-3.1\" aria-label=\"Link to this entry\">#</a></h3>"
            ])
        #expect(
            book.lines("sources.html", startingWith: "<p>Cited in") == [
                "<p>Cited in <a href=\"chapters/01-routing.html#schemes\">1. Routing › Schemes</a>, "
                    + "<a href=\"chapters/01-routing.html#hosts\">1. Routing › Hosts</a>.</p>"
            ])
        #expect(
            book.lines("decisions.html", startingWith: "<p>Cited in") == [
                "<p>Cited in <a href=\"chapters/01-routing.html#schemes\">1. Routing › Schemes</a>, "
                    + "<a href=\"chapters/01-routing.html#hosts\">1. Routing › Hosts</a>, "
                    + "<code>Tests/XTests/X.swift:12</code>.</p>"
            ])
        #expect(try #require(book.output("decisions.html")).contains(">Empty<") == false)
        #expect(
            book.fragment("index.html", from: "<h2 id=\"evidence\">", to: "</ul>")
                == """
                <h2 id="evidence">Evidence<a class="heading-anchor" href="#evidence" aria-label="Link to this \
                section">#</a></h2>
                <ul>
                <li><a href="sources.html">Sources</a></li>
                </ul>
                """)
    }

    @Test func aKeyNoPageListsIsABrokenLinkAtItsPlace() throws {
        let book = try TemporaryBook(chapters: [
            "01-routing.md": "# Routing\n\nSee [the RFC](source:rfc3986-9.9).\n"
        ])
        let report = try book.build { $0.citations = Self.citations }
        #expect(
            report.diagnostics.filter { $0.severity == .error }.map(\.description) == [
                "chapters/01-routing.md:3:5: error: broken link 'source:rfc3986-9.9': no cited entry has the key "
                    + "'rfc3986-9.9'"
            ])
    }
}

/// Words the search treats alike, from the theme's `search-synonyms.json`.
struct SearchSynonymsTests {
    static let synonyms = SearchSynonyms(groups: [
        ["grey", "gray"], ["SPM", "Swift Package Manager", "Package.swift"], ["zero", "0"],
    ])

    @Test func aSectionIsFoundByTheOtherMembersOfItsGroups() {
        let sections = [
            SearchSection(page: "A", title: "Colours", url: "a.html#colours", text: "The grey control."),
            SearchSection(
                page: "A", title: "Install", url: "a.html#install", text: "Add it to Package.swift."),
            SearchSection(
                page: "A", title: "Amounts", url: "a.html#amounts", text: "An amount of 0 is refused."),
            SearchSection(page: "A", title: "Other", url: "a.html#other", text: "Nothing here."),
        ]
        let postings = SearchPostings([SearchIndex.part(sections, synonyms: Self.synonyms)])
        #expect(postings.search("gray") == [0])
        #expect(postings.search("grey") == [0])
        #expect(postings.search("spm") == [1])
        #expect(postings.search("swift package manager") == [1])
        #expect(postings.search("zero") == [2])
        #expect(
            SearchPostings([SearchIndex.part(sections)]).search("gray") == [], "without the table, no match")
    }

    @Test func additionsNameOnlyWhatTheTextLacks() {
        #expect(Self.synonyms.additions("Grey or gray?") == "")
        #expect(
            Self.synonyms.additions("the Swift Package Manager") == "SPM", "Package.swift's words are there")
        #expect(Self.synonyms.additions("a greyhound") == "")
    }

    @Test func aGroupOfOneIsRefused() {
        #expect(
            throws: WeaveMessage.invalidSynonyms(
                detail: "a group needs two words or phrases or more: [\"SPM\"]")
        ) {
            try SearchSynonyms(json: #"{"groups": [["SPM"]]}"#)
        }
    }
}
