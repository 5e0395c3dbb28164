import Foundation
import Literate
import ProcessRunner
import TestSupport
import Testing

@testable import Translations

/// A small book: a summary, two chapters and one exercise, with one element of each kind.
func fixtureBook() throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    try folder.write(
        "chapters/SUMMARY.md",
        """
        # Summary

        # Part I: The guide

        - [Opening links](01-opening.md)
        - [Routing](02-routing.md)

        """)
    try folder.write(
        "chapters/01-opening.md",
        #"""
        # Opening links

        An app opens a link with `open(_:)`,
        and says "yes" or a back\slash.

        ```swift
        let url = URL(string: "myapp://x")!
        ```

        | Link | Route |
        | --- | --- |
        | `myapp://product/42` | a product |

        - Check the scheme.
        - Check the host, then
          the path.

        > A quoted tip
        > over two lines.

        ![A diagram of the doors](doors.png)

        See the router.

        """#)
    try folder.write(
        "chapters/02-routing.md",
        """
        Routing
        =======

        See the router.

            let indented = "code"

        """)
    try folder.write(
        "exercises/01-parse/README.md",
        """
        # Parse a link

        Write `route(forLink:)`.

        """)
    try folder.write(
        "exercises/01-parse/HINTS.md",
        """
        # Hints

        <details>
        <summary>Hint 1</summary>

        Use `URLComponents`.

        </details>

        """)
    return folder
}

/// The template's header entry, as every extraction writes it.
let potHeader = """
    # Messages of the Deep Link Workbook: its chapters, their titles, and the exercises.
    # Written by `workbook i18n extract`; edit the chapters, never this file.
    #, fuzzy
    msgid ""
    msgstr ""
    "Project-Id-Version: Deep Link Workbook\\n"
    "Report-Msgid-Bugs-To: \\n"
    "PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n"
    "Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n"
    "Language-Team: LANGUAGE <LL@li.org>\\n"
    "Language: \\n"
    "MIME-Version: 1.0\\n"
    "Content-Type: text/plain; charset=UTF-8\\n"
    "Content-Transfer-Encoding: 8bit\\n"

    """

struct ExtractionTests {
    @Test func fixtureBookTemplate() throws {
        let book = try fixtureBook()
        try Translations.extract(root: book.url)
        let expected =
            potHeader + #"""

                #: chapters/SUMMARY.md:3
                msgid "Part I: The guide"
                msgstr ""

                #: chapters/SUMMARY.md:5
                #: chapters/01-opening.md:1
                msgid "Opening links"
                msgstr ""

                #: chapters/SUMMARY.md:6
                #: chapters/02-routing.md:1
                msgid "Routing"
                msgstr ""

                #: chapters/01-opening.md:3
                msgid ""
                "An app opens a link with `open(_:)`,\n"
                "and says \"yes\" or a back\\slash."
                msgstr ""

                #: chapters/01-opening.md:10
                msgid "Link"
                msgstr ""

                #: chapters/01-opening.md:10
                msgid "Route"
                msgstr ""

                #: chapters/01-opening.md:12
                msgid "a product"
                msgstr ""

                #: chapters/01-opening.md:14
                msgid "Check the scheme."
                msgstr ""

                #: chapters/01-opening.md:15
                msgid ""
                "Check the host, then\n"
                "the path."
                msgstr ""

                #: chapters/01-opening.md:18
                msgid ""
                "A quoted tip\n"
                "over two lines."
                msgstr ""

                #: chapters/01-opening.md:21
                msgid "A diagram of the doors"
                msgstr ""

                #: chapters/01-opening.md:23
                #: chapters/02-routing.md:4
                msgid "See the router."
                msgstr ""

                #: exercises/01-parse/README.md:1
                msgid "Parse a link"
                msgstr ""

                #: exercises/01-parse/README.md:3
                msgid "Write `route(forLink:)`."
                msgstr ""

                #: exercises/01-parse/HINTS.md:1
                msgid "Hints"
                msgstr ""

                #: exercises/01-parse/HINTS.md:4
                msgid "Hint 1"
                msgstr ""

                #: exercises/01-parse/HINTS.md:6
                msgid "Use `URLComponents`."
                msgstr ""

                """#
        #expect(book.read("po/messages.pot") == expected)
    }

    @Test func headingsKeepTheirMarkdownWithoutMarkers() {
        let found = MarkdownMessages.extract(
            """
            ## The `Router` type ##

            > ### Quoted *heading*

            1. First step
               continued

               A second paragraph of the item.
            """)
        #expect(
            found == [
                SourceMessage(text: "The `Router` type", line: 1),
                SourceMessage(text: "Quoted *heading*", line: 3),
                SourceMessage(text: "First step\ncontinued", line: 5),
                SourceMessage(text: "A second paragraph of the item.", line: 8),
            ])
    }

    @Test func escapesAsPOFilesDo() {
        #expect(POString.keyword("msgid", #"a "b" \c"#) == [#"msgid "a \"b\" \\c""#])
        #expect(
            POString.keyword("msgid", "one\ntwo\tthree") == [#"msgid """#, #""one\n""#, #""two\tthree""#])
    }

    @Test func templatePassesMsgfmtCheck() throws {
        let book = try fixtureBook()
        try Translations.extract(root: book.url)
        let msgfmt = try #require(BookChecker.findExecutable("msgfmt"), "msgfmt (Debian: gettext) is missing")
        let result = Subprocess.run(
            msgfmt, ["--check", "-o", "/dev/null", "po/messages.pot"], in: book.url, timeout: 60,
            stopsOnInterrupt: false)
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("error"), "\(result.output)")
    }

    @Test func malformedSummaryIsAnErrorAtItsLine() throws {
        let book = try fixtureBook()
        try book.write("chapters/SUMMARY.md", "# Part I\n\n- [Opening links](01-opening.md)\nstray line\n")
        #expect(throws: TranslationError.self) { try Translations.extract(root: book.url) }
        do {
            try Translations.extract(root: book.url)
        } catch {
            #expect(error.description.hasPrefix("chapters/SUMMARY.md:4:1: error:"), "\(error.description)")
        }
    }
}

struct UpdateAndStatusTests {
    /// A Vietnamese PO file begun by hand: a header and one translated message.
    static let vietnamese = #"""
        msgid ""
        msgstr ""
        "Language: vi\n"
        "MIME-Version: 1.0\n"
        "Content-Type: text/plain; charset=UTF-8\n"
        "Content-Transfer-Encoding: 8bit\n"

        #: exercises/01-parse/README.md:3
        msgid "Write `route(forLink:)`."
        msgstr "Viết `route(forLink:)`."

        """#

    @Test func changedParagraphTurnsFuzzy() throws {
        try #require(BookChecker.findExecutable("msgmerge") != nil, "msgmerge (Debian: gettext) is missing")
        let book = try fixtureBook()
        try book.write("po/vi.po", Self.vietnamese)
        let first = try Translations.update(root: book.url)
        #expect(first == Translations.UpdateReport(messages: 17, merged: ["po/vi.po"]))
        let before = try Translations.status(root: book.url)
        #expect(before.map(\.total) == [TranslationStatus.Counts(translated: 1, fuzzy: 0, untranslated: 16)])

        try book.write("exercises/01-parse/README.md", "# Parse a link\n\nWrite `route(forLink:)` now.\n")
        _ = try Translations.update(root: book.url)
        let after = try Translations.status(root: book.url)
        typealias Counts = TranslationStatus.Counts
        #expect(
            after == [
                TranslationStatus(
                    language: "vi",
                    rows: [
                        .init(path: "chapters/SUMMARY.md", counts: Counts(untranslated: 3)),
                        .init(path: "chapters/01-opening.md", counts: Counts(untranslated: 10)),
                        .init(path: "chapters/02-routing.md", counts: Counts(untranslated: 2)),
                        .init(
                            path: "exercises/01-parse/README.md", counts: Counts(fuzzy: 1, untranslated: 1)),
                        .init(path: "exercises/01-parse/HINTS.md", counts: Counts(untranslated: 3)),
                    ],
                    total: Counts(fuzzy: 1, untranslated: 16))
            ])
        let merged = try #require(book.read("po/vi.po"))
        #expect(
            merged.contains(
                "#, fuzzy\nmsgid \"Write `route(forLink:)` now.\"\nmsgstr \"Viết `route(forLink:)`.\""))
    }

    @Test func statusTable() {
        let status = TranslationStatus(
            language: "vi",
            file: POFile(entries: [
                .init(
                    msgid: "Routing", msgstr: "Định tuyến", isFuzzy: false,
                    references: [
                        .init(path: "chapters/SUMMARY.md", line: 6),
                        .init(path: "chapters/02-routing.md", line: 1),
                    ]),
                .init(
                    msgid: "See the router.", msgstr: "Xem", isFuzzy: true,
                    references: [.init(path: "chapters/02-routing.md", line: 4)]),
                .init(
                    msgid: "Hints", msgstr: "", isFuzzy: false,
                    references: [.init(path: "exercises/01-parse/HINTS.md", line: 1)]),
            ]))
        #expect(
            status.table == [
                "vi: 1 of 3 messages translated (33 %), 1 fuzzy, 1 untranslated",
                "source file                  translated  fuzzy  untranslated      %",
                "chapters/SUMMARY.md                   1      0             0  100 %",
                "chapters/02-routing.md                1      1             0   50 %",
                "exercises/01-parse/HINTS.md           0      0             1    0 %",
            ])
    }

    /// A message the second exercise shares with a chapter stands in the PO file where the
    /// chapter has it, before the first exercise's messages; the rows still follow the book.
    @Test func statusRowsFollowTheBookNotThePOFile() throws {
        try #require(BookChecker.findExecutable("msgmerge") != nil, "msgmerge (Debian: gettext) is missing")
        let book = try fixtureBook()
        try book.write("exercises/02-route/README.md", "# Route a link\n\nCheck the scheme.\n")
        try book.write("po/vi.po", Self.vietnamese)
        _ = try Translations.update(root: book.url)
        let status = try Translations.status(root: book.url)
        #expect(
            status.map { $0.rows.map(\.path) } == [
                [
                    "chapters/SUMMARY.md", "chapters/01-opening.md", "chapters/02-routing.md",
                    "exercises/01-parse/README.md", "exercises/01-parse/HINTS.md",
                    "exercises/02-route/README.md",
                ]
            ])
    }

    @Test func brokenPOFileIsAnErrorAtItsLine() throws {
        let book = try fixtureBook()
        try book.write("po/vi.po", "msgid \"a\"\nmsgstr \"b\"\n\nmsgid c\nmsgstr \"d\"\n")
        do {
            _ = try Translations.status(root: book.url)
            Issue.record("a broken PO file was read")
        } catch {
            #expect(error.description.hasPrefix("po/vi.po:4: error:"), "\(error.description)")
        }
    }

    @Test func missingMsgmergeNamesTheDebianPackage() throws {
        let book = try fixtureBook()
        try book.write("po/vi.po", Self.vietnamese)
        do {
            _ = try Translations.update(root: book.url, msgmerge: nil)
            Issue.record("update ran without msgmerge")
        } catch {
            #expect(error.isToolFailure)
            #expect(error.description.contains("apt-get install gettext"), "\(error.description)")
        }
    }
}

struct RealBookTests {
    /// The repository's own book, checked for invariants only: its texts change every week.
    @Test func realBookInvariants() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let catalog = try BookMessages.catalog(root: root)
        #expect(catalog.messages.count > 1000)
        var files: [String: [Substring]] = [:]
        for message in catalog.messages {
            #expect(
                !message.text.split(separator: "\n").contains {
                    $0.trimmingCharacters(in: .whitespaces).hasPrefix("```")
                },
                "a fence in \(message.references[0])")
            let firstLine = message.text.prefix { $0 != "\n" }
            for reference in message.references {
                if files[reference.path] == nil {
                    let text = try String(
                        contentsOf: root.appendingPathComponent(reference.path), encoding: .utf8)
                    files[reference.path] = text.split(separator: "\n", omittingEmptySubsequences: false)
                }
                let lines = files[reference.path] ?? []
                guard reference.line >= 1, reference.line <= lines.count else {
                    Issue.record("\(reference) is past the end of the file")
                    continue
                }
                // A table cell's `\|` is `|` in its message.
                let line = lines[reference.line - 1].replacingOccurrences(of: "\\|", with: "|")
                #expect(line.contains(firstLine), "\(reference) does not start \(firstLine)")
            }
        }
    }
}
