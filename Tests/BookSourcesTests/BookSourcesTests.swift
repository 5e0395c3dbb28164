import Foundation
import Literate
import Testing

@testable import BookSources

/// A throwaway book: chapters, a bibliography, and other files by book-relative path.
final class SourcesBook {
    let root: URL

    init(_ files: [String: String]) throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("book-sources-test-\(UUID().uuidString)")
        for (path, text) in files.mapValues(fixture) {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The book's citations as `workbook check` finds them: each diagnostic as its one line.
    func check() throws -> (lines: [String], summary: String?) {
        let found = BookCitations.collect(try Book.load(root: root, inlines: false))
        return (found.diagnostics.map(\.description), found.summary)
    }
}

/// A fixture's text with its citations made real: fixtures spell the argument label `SOURCE:`,
/// because in a test file every `source:` string is a citation that `workbook check` resolves,
/// and these are made up (some wrong on purpose).
func fixture(_ text: String) -> String { text.replacingOccurrences(of: "SOURCE:", with: "source:") }

/// A bibliography with one source of each kind and one decision.
let twoSources = """
    {
      "sources": [
        {
          "key": "rfc3986-3.1",
          "label": "RFC 3986 §3.1",
          "title": "Uniform Resource Identifier (URI): Generic Syntax, 3.1. Scheme",
          "publisher": "IETF",
          "url": "https://www.rfc-editor.org/rfc/rfc3986#section-3.1",
          "read": "2026-12-05"
        },
        {
          "key": "custom-scheme-tutorial",
          "label": "Custom scheme tutorial",
          "title": "iOS URI Deep Link",
          "publisher": "Practitioner: a tutorial",
          "url": null,
          "read": "2026-12-05"
        }
      ],
      "decisions": [
        {
          "key": "book-record-ttl",
          "label": "this book: deferred records live 24 hours",
          "reason": "Li2 says records expire, not when."
        }
      ]
    }

    """

struct BibliographyTests {
    @Test func aWellFormedFileGivesEveryEntryInOrder() {
        let (bibliography, problems) = Bibliography.parse(
            Data(twoSources.utf8), path: "chapters/sources.json")
        #expect(problems == [])
        #expect(
            bibliography.sources == [
                Bibliography.Source(
                    key: "rfc3986-3.1", label: "RFC 3986 §3.1",
                    title: "Uniform Resource Identifier (URI): Generic Syntax, 3.1. Scheme",
                    publisher: "IETF",
                    url: "https://www.rfc-editor.org/rfc/rfc3986#section-3.1", read: "2026-12-05", line: 3,
                    column: 5),
                Bibliography.Source(
                    key: "custom-scheme-tutorial", label: "Custom scheme tutorial",
                    title: "iOS URI Deep Link",
                    publisher: "Practitioner: a tutorial", url: nil, read: "2026-12-05", line: 11, column: 5),
            ])
        #expect(
            bibliography.decisions == [
                Bibliography.Decision(
                    key: "book-record-ttl", label: "this book: deferred records live 24 hours",
                    reason: "Li2 says records expire, not when.", line: 21, column: 5)
            ])
        #expect(bibliography.entry("RFC 3986 §3.1")?.key == "rfc3986-3.1")
        #expect(bibliography.entry("book-record-ttl")?.label == "this book: deferred records live 24 hours")
    }

    /// Each problem is an error at the value it is about, so that an editor jumps to it.
    @Test func everyProblemIsAnErrorAtItsPlace() {
        let text = """
            {
              "sources": [
                { "key": "Apple X", "label": "Apple: X", "title": "X", "publisher": "Apple",
                  "url": "http://developer.apple.com/x", "read": "5 Dec 2026" },
                { "key": "apple-y", "label": "Apple: X", "title": "Y", "publisher": "Apple", "read": "2026-12-05",
                  "pages": 3 },
                { "key": "apple-y", "label": "this book: y", "title": "Y", "publisher": "Apple", "url": null,
                  "read": "2026-12-05" }
              ],
              "decisions": [
                { "key": "book-z", "label": "the book: z", "reason": "" }
              ],
              "notes": []
            }
            """
        let (_, problems) = Bibliography.parse(Data(text.utf8), path: "chapters/sources.json")
        #expect(
            problems.map(\.description) == [
                "chapters/sources.json:3:14: error: invalid key 'Apple X': use lower-case letters, digits, '-' and "
                    + "'.', starting with a letter or digit",
                "chapters/sources.json:4:14: error: the URL 'http://developer.apple.com/x' is not an https address; "
                    + "a reader must be able to open it safely",
                "chapters/sources.json:4:54: error: invalid date '5 Dec 2026': write the day the source was read as "
                    + "YYYY-MM-DD",
                "chapters/sources.json:5:5: error: missing member \"url\"",
                "chapters/sources.json:6:16: error: unknown member \"pages\"; allowed: \"key\", \"label\", \"title\", "
                    + "\"publisher\", \"url\", \"read\"",
                "chapters/sources.json:7:34: error: the source label 'this book: y' starts like a decision; put the "
                    + "book's own rules under \"decisions\"",
                "chapters/sources.json:11:33: error: the decision label 'the book: z' must start with 'this book: ' "
                    + "and say what is decided",
                "chapters/sources.json:11:58: error: \"reason\" must be a non-empty string",
                "chapters/sources.json:13:12: error: unknown member \"notes\"; allowed: \"sources\", \"decisions\"",
            ])
    }

    @Test func aRepeatedKeyOrLabelIsAnErrorAtTheSecond() {
        let text = """
            {"sources": [
              {"key": "a", "label": "A", "title": "A", "publisher": "P", "url": null, "read": "2026-12-05"},
              {"key": "a", "label": "A", "title": "B", "publisher": "P", "url": null, "read": "2026-12-05"}
            ]}
            """
        let (_, problems) = Bibliography.parse(Data(text.utf8), path: "s.json")
        #expect(
            problems.map(\.description) == [
                "s.json:3:3: error: duplicate key 'a' (first at line 2)",
                "s.json:3:3: error: duplicate label 'A' (first at line 2)",
            ])
    }

    @Test func invalidJSONIsOneErrorAtItsPosition() {
        let (bibliography, problems) = Bibliography.parse(Data("{\"sources\": [],}".utf8), path: "s.json")
        #expect(bibliography.entries == [])
        #expect(
            problems.map(\.description) == [
                "s.json:1:15: error: the bibliography is not valid JSON: a comma before '}': remove the trailing comma"
            ])
    }
}

struct CitationScannerTests {
    /// In a test file every `source:` string is a citation; the column is its first character.
    @Test func testFilesCiteWithEverySourceString() {
        let text = """
            let cases = [
                Case(id: "a", SOURCE: "RFC 3986 §3.1", url: "x"),
                Case(id: "b", SOURCE:"this book: chapter 02, \\"Patterns\\""),
            ]
            """
        #expect(
            CitationScanner.swift(path: "Tests/T/T.swift", text: fixture(text), commentsOnly: false) == [
                Citation(
                    form: .label, text: "RFC 3986 §3.1",
                    location: .init(path: "Tests/T/T.swift", line: 2, column: 28)),
                Citation(
                    form: .label, text: "this book: chapter 02, \"Patterns\"",
                    location: .init(path: "Tests/T/T.swift", line: 3, column: 27)),
            ])
    }

    /// Elsewhere `source:` is also an ordinary argument label: only comments cite.
    @Test func codeCitesInCommentsOnly() {
        let text = """
            let page = SitePage(SOURCE: "glossary.md")
            // Key errors answer in the envelope (SOURCE: "this book: key errors in the envelope").
            let s = "// source: \\"not a comment\\""
            """
        #expect(
            CitationScanner.swift(path: "Sources/M/M.swift", text: fixture(text), commentsOnly: true) == [
                Citation(
                    form: .label, text: "this book: key errors in the envelope",
                    location: .init(path: "Sources/M/M.swift", line: 2, column: 48))
            ])
    }

    @Test func proseLinksCodeBlocksAndUnlinkedAttributionsAreFound() {
        let chapter = """
            # One

            ## The rule

            A scheme starts with a letter ([RFC 3986 §3.1](source:rfc3986-3.1)), and
            records expire (Li2 guide).

            ```swift
            let c = Case(id: "x", SOURCE: "this book: chapter 01, The rule")
            ```
            """
        let found = CitationScanner.markdown(
            path: "chapters/01-one.md", source: fixture(chapter), document: nil)
        #expect(
            found.citations == [
                Citation(
                    form: .link, text: "rfc3986-3.1",
                    location: .init(path: "chapters/01-one.md", line: 5, column: 49)),
                Citation(
                    form: .label, text: "this book: chapter 01, The rule",
                    location: .init(path: "chapters/01-one.md", line: 9, column: 32)),
            ])
        #expect(found.headings == ["One", "The rule"])
        #expect(
            found.unlinked == [
                Citation(
                    form: .label, text: "(Li2 guide",
                    location: .init(path: "chapters/01-one.md", line: 6, column: 16))
            ])
    }
}

struct BookCitationsTests {
    /// Every kind of citation that resolves, and one of each mistake, each at its place.
    @Test func checkReportsEachUnresolvedCitationAtItsPlace() throws {
        let book = try SourcesBook([
            "chapters/sources.json": twoSources,
            "chapters/01-one.md": """
            # One

            ## The rule

            A scheme starts with a letter ([RFC 3986 §3.1](source:rfc3986-3.1)); see
            [the tutorial](source:custom-scheme-tutoral).

            ```swift
            Case(id: "a", SOURCE: "this book: chapter 01, The rule")
            Case(id: "b", SOURCE: "this book: chapter 1, The rule")
            Case(id: "c", SOURCE: "this book: chapter 01, The rules")
            Case(id: "d", SOURCE: "this book: chapter 07")
            Case(id: "e", SOURCE: "RFC 3986 §3.2")
            ```
            """,
            "Tests/OneTests/OneTests.swift": """
            let c = Case(id: "ttl", SOURCE: "this book: deferred records live 24 hours")
            let d = Case(id: "whole", SOURCE: "this book: chapter 01")
            """,
            "Tests/OneTests/Fixtures/Book.swift": "let c = Case(source: \"not checked\")\n",
            "Sources/One/Generated.swift": "// Generated by `workbook tangle` from chapters/01-one.md\n"
                + "// source: \"not checked either\"\n",
        ])
        let (lines, summary) = try book.check()
        #expect(
            lines == [
                "chapters/01-one.md:6:16: error: unknown source key 'custom-scheme-tutoral': no entry of "
                    + "chapters/sources.json has it; did you mean 'custom-scheme-tutorial'?",
                "chapters/01-one.md:10:24: error: malformed cross-reference 'this book: chapter 1, The rule': write "
                    + "'this book: chapter NN, Section' (two digits, then a heading of that chapter) or "
                    + "'this book: chapter NN'",
                "chapters/01-one.md:11:24: error: cross-reference to 'The rules', which is no heading of "
                    + "chapters/01-one.md; did you mean 'The rule'?",
                "chapters/01-one.md:12:24: error: cross-reference to chapter 07, which the book does not have",
                "chapters/01-one.md:13:24: error: unknown source 'RFC 3986 §3.2': no entry of chapters/sources.json "
                    + "has this label or key, and it is no cross-reference ('this book: chapter NN, Section'); did you "
                    + "mean 'RFC 3986 §3.1'?",
                "chapters/sources.json:11:5: warning: the entry 'custom-scheme-tutorial' is cited nowhere",
            ])
        #expect(
            summary
                == "sources: 3 entries (2 sources, 1 decisions), 9 citations (2 links, 7 labels, 2 of them "
                + "cross-references), 5 unknown, 1 cited nowhere")
    }

    /// A book that cites nothing and has no bibliography has nothing to report, not even counts.
    @Test func aBookWithoutABibliographyOrCitationsReportsNothing() throws {
        let book = try SourcesBook(["chapters/01-one.md": "# One\n\nNo sources.\n"])
        let (lines, summary) = try book.check()
        #expect(lines == [])
        #expect(summary == nil)
    }
}
