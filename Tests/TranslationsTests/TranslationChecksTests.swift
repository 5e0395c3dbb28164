import Foundation
import Literate
import TestSupport
import Testing

@testable import Translations

/// A Vietnamese PO file's header with every field msgfmt asks for.
let vietnameseHeader = #"""
    msgid ""
    msgstr ""
    "Project-Id-Version: Deep Link Workbook\n"
    "Report-Msgid-Bugs-To: \n"
    "PO-Revision-Date: 2025-01-06 09:00+0700\n"
    "Last-Translator: A Translator <translator@example.com>\n"
    "Language-Team: Vietnamese\n"
    "Language: vi\n"
    "MIME-Version: 1.0\n"
    "Content-Type: text/plain; charset=UTF-8\n"
    "Content-Transfer-Encoding: 8bit\n"
    """#

/// One rule of a translation, and what it finds in one pair of texts.
struct RuleCase: CustomTestStringConvertible, Sendable {
    var id: String
    var original: String
    var translation: String
    var problems: [String]
    var testDescription: String { id }
}

struct TranslationRuleTests {
    static let cases: [RuleCase] = [
        // Inline code spans (CommonMark: a run of N backticks closes with a run of exactly N).
        RuleCase(
            id: "code spans kept, in another order", original: "Set `li2_cid` before `open(_:)`.",
            translation: "Trước `open(_:)`, đặt `li2_cid`.", problems: []),
        RuleCase(
            id: "a code span given twice, kept once", original: "Send `li2_cid` and `li2_cid` again.",
            translation: "Gửi `li2_cid`.",
            problems: [
                "the translation drops the code span `li2_cid` (the source has it 2 times, the translation 1)"
            ]),
        RuleCase(
            id: "a double-backtick span kept", original: "Write ``a ` b`` here.",
            translation: "Viết ``a ` b`` ở đây.",
            problems: []),
        RuleCase(
            id: "a double-backtick span turned into single ones", original: "Write ``a ` b`` here.",
            translation: "Viết `a ` b` ở đây.",
            problems: [
                "the translation drops the code span ``a ` b`` (the source has it 1 time, the translation 0)",
                "the translation adds the code span `a ` (the source has it 0 times, the translation 1)",
            ]),
        RuleCase(
            id: "escaped backticks open no code span", original: #"A \`literal\` tick."#,
            translation: #"Một dấu \`literal\`."#, problems: []),
        RuleCase(
            id: "a code span's padding is not its content", original: "Type `` `x` `` then.",
            translation: "Gõ ``` `x` ``` rồi.", problems: []),
        // Link and image targets.
        RuleCase(
            id: "link text and title translated, target kept",
            original: #"See [the router](02-routing.md#routes "The router")."#,
            translation: #"Xem [bộ định tuyến](02-routing.md#routes "Bộ định tuyến")."#, problems: []),
        RuleCase(
            id: "an autolink dropped, an image kept",
            original: "Open <https://example.com/a> or ![a diagram](doors.png).",
            translation: "Mở ![sơ đồ](doors.png).",
            problems: [
                "the translation drops the link target `https://example.com/a` (the source has it 1 time, "
                    + "the translation 0)"
            ]),
        RuleCase(
            id: "a link target changed", original: "See [routing](#routing).",
            translation: "Xem [định tuyến](#dinh-tuyen).",
            problems: [
                "the translation drops the link target `#routing` (the source has it 1 time, the translation 0)",
                "the translation adds the link target `#dinh-tuyen` (the source has it 0 times, the translation 1)",
            ]),
        RuleCase(
            id: "brackets inside a code span are no link", original: "Call `a[i](x)` on it.",
            translation: "Gọi `a[i](x)` trên nó.", problems: []),
        // Citations keep their label word for word.
        RuleCase(
            id: "a citation kept",
            original:
                "As [Apple: Supporting associated domains](source:apple-supporting-associated-domains) says.",
            translation:
                "Như [Apple: Supporting associated domains](source:apple-supporting-associated-domains) nói.",
            problems: []),
        RuleCase(
            id: "a citation's label translated",
            original:
                "As [Apple: Supporting associated domains](source:apple-supporting-associated-domains) says.",
            translation: "Như [Apple: Hỗ trợ tên miền](source:apple-supporting-associated-domains) nói.",
            problems: [
                "the translation drops the citation [Apple: Supporting associated domains]"
                    + "(source:apple-supporting-associated-domains) (the source has it 1 time, the translation 0)",
                "the translation adds the citation [Apple: Hỗ trợ tên miền](source:apple-supporting-associated-domains) "
                    + "(the source has it 0 times, the translation 1)",
            ]),
        RuleCase(
            id: "a decision dropped",
            original: "The grace window is 250 ms ([this book: grace](decision:grace-window)).",
            translation: "Cửa sổ ân hạn là 250 ms.",
            problems: [
                "the translation drops the citation [this book: grace](decision:grace-window) (the source has it "
                    + "1 time, the translation 0)"
            ]),
        // Inline HTML.
        RuleCase(
            id: "HTML tags kept",
            original: #"Press <kbd>Ctrl</kbd>+<kbd>C</kbd> in <a href="../lab.html">the lab</a>."#,
            translation: #"Nhấn <kbd>Ctrl</kbd>+<kbd>C</kbd> trong <a href="../lab.html">phòng thử</a>."#,
            problems: []),
        RuleCase(
            id: "an HTML tag pair dropped", original: "Press <kbd>Ctrl</kbd>+<kbd>C</kbd>.",
            translation: "Nhấn Ctrl+<kbd>C</kbd>.",
            problems: [
                "the translation drops the HTML tag `<kbd>` (the source has it 2 times, the translation 1)",
                "the translation drops the HTML tag `</kbd>` (the source has it 2 times, the translation 1)",
            ]),
        // Placeholders.
        RuleCase(
            id: "placeholders kept", original: "{n} results for {query}",
            translation: "{n} kết quả cho {query}",
            problems: []),
        RuleCase(
            id: "a placeholder translated", original: "{n} results for {query}",
            translation: "{n} kết quả cho {truy_van}",
            problems: [
                "the translation drops the placeholder `{query}` (the source has it 1 time, the translation 0)",
                "the translation adds the placeholder `{truy_van}` (the source has it 0 times, the translation 1)",
            ]),
        RuleCase(
            id: "braces in a code span are the code span's", original: "Use `{key}`.",
            translation: "Dùng `{key}`.",
            problems: []),
        // The Markdown block structure.
        RuleCase(
            id: "a one-line source translated over two lines", original: "Routing",
            translation: "Định\ntuyến",
            problems: []),
        RuleCase(
            id: "a one-line source's translation with a list item",
            original: "Check the host, then the path.",
            translation: "Kiểm tra máy chủ,\n+ rồi đường dẫn.",
            problems: [
                "line 2 of the translation begins with `+ `, which would start a list item; escape it (`\\+`) "
                    + "or move it off the start of the line"
            ]),
        RuleCase(
            id: "lines rewrapped", original: "Check the host,\nthen the path.",
            translation: "Kiểm tra máy chủ, rồi\nđến đường dẫn.", problems: []),
        RuleCase(
            id: "an empty line", original: "Check the host,\nthen the path.",
            translation: "Kiểm tra máy chủ,\n\nrồi đường dẫn.",
            problems: ["the translation has an empty line, which would split the paragraph in two"]),
        RuleCase(
            id: "a heading marker", original: "Check the host,\nthen the path.",
            translation: "Kiểm tra máy chủ,\n# rồi đường dẫn.",
            problems: [
                "line 2 of the translation begins with `# `, which would start a heading; escape it (`\\#`) "
                    + "or move it off the start of the line"
            ]),
        RuleCase(
            id: "an escaped heading marker", original: "Check the host,\nthen the path.",
            translation: "Kiểm tra máy chủ,\n\\# rồi đường dẫn.", problems: []),
        RuleCase(
            id: "a list item marker", original: "Check the host,\nthen the path.",
            translation: "Kiểm tra máy chủ,\n  - rồi đường dẫn.",
            problems: [
                "line 2 of the translation begins with `- `, which would start a list item; escape it (`\\-`) "
                    + "or move it off the start of the line"
            ]),
        RuleCase(
            id: "a numbered item, a quote, a table row and a fence",
            original: "One,\ntwo,\nthree,\nfour,\nfive.",
            translation: "Một,\n1. hai,\n> ba,\n| bốn,\n```năm.",
            problems: [
                "line 2 of the translation begins with `1. `, which would start a numbered list item; escape it "
                    + "(`1\\.`) or move it off the start of the line",
                "line 3 of the translation begins with `>`, which would start a block quote; escape it (`\\>`) "
                    + "or move it off the start of the line",
                "line 4 of the translation begins with `|`, which would start a table row; escape it (`\\|`) "
                    + "or move it off the start of the line",
                "line 5 of the translation begins with ```` ``` ````, which would start a code block; escape it "
                    + "(`` \\` ``) or move it off the start of the line",
            ]),
        RuleCase(
            id: "an underline", original: "Check the host,\nthen the path.",
            translation: "Kiểm tra máy chủ,\n---",
            problems: [
                "line 2 of the translation begins with `---`, which would turn the line before it into a heading; "
                    + "escape it (`\\-`) or move it off the start of the line"
            ]),
        RuleCase(
            id: "a marker the source has too", original: "It shipped in\n2019. Then it changed.",
            translation: "Nó ra mắt năm\n2019. Rồi nó đổi.", problems: []),
    ]

    @Test(arguments: cases) func rule(_ rule: RuleCase) {
        #expect(
            TranslationChecks.problems(original: rule.original, translation: rule.translation)
                == rule.problems)
    }

    @Test func keptElementsOfOneMessage() {
        #expect(
            TranslationChecks.keptElements(
                "Read ``a ` b``, [the guide](https://x.example/{id}), <kbd>K</kbd> and [A: B](source:a-b).")
                == TranslationChecks.KeptElements(
                    codeSpans: ["a ` b"], targets: ["https://x.example/{id}"],
                    citations: ["[A: B](source:a-b)"],
                    htmlTags: ["<kbd>", "</kbd>"], placeholders: ["{id}"]))
    }

    @Test func headerWithoutLanguageIsAWarning() {
        #expect(
            TranslationChecks.languageProblem(header: "Language: vi\nMIME-Version: 1.0\n", path: "po/vi.po")
                == nil)
        let expected = #"the header names no language: add the line "Language: vi\n" to it"#
        #expect(
            TranslationChecks.languageProblem(header: "Language: \nMIME-Version: 1.0\n", path: "po/vi.po")
                == expected)
        #expect(TranslationChecks.languageProblem(header: nil, path: "po/vi.po") == expected)
    }
}

struct TranslationFileTests {
    /// Three translated messages with problems, around a fuzzy one, an untranslated one and an
    /// obsolete one (all three with problems the check must not report). The line numbers in
    /// the comments are the file's.
    static let poFile =
        vietnameseHeader + "\n"
            + #"""

            #: chapters/01-opening.md:3
            msgid ""
            "An app opens a link with `open(_:)`,\n"
            "and says \"yes\" or a back\\slash."
            msgstr ""
            "Ứng dụng mở liên kết bằng `open()`,\n"
            "và nói \"có\" hoặc một dấu \\."

            #, fuzzy
            #: chapters/01-opening.md:14
            msgid "Check the scheme with `URLComponents`."
            msgstr "Kiểm tra lược đồ."

            #: chapters/01-opening.md:15
            msgid ""
            "Check the host, then\n"
            "the path."
            msgstr ""
            "Kiểm tra máy chủ,\n"
            "- rồi đường dẫn."

            #: chapters/01-opening.md:23
            msgid "See the router with `Router`."
            msgstr ""

            #: chapters/02-routing.md:4
            msgid "See [the \"router\"](#routing), `li2_cid` and `li2_cid`."
            msgstr "Xem [bộ \"định tuyến\"](#dinh-tuyen) và `li2_cid`."

            #~ msgid "Old `code`."
            #~ msgstr "Cũ."

            """#

    static let findings = [
        TranslationFinding(
            path: "po/vi.po", line: 17, severity: .error,
            text:
                "the translation drops the code span `open(_:)` (the source has it 1 time, the translation 0)"
        ),
        TranslationFinding(
            path: "po/vi.po", line: 17, severity: .error,
            text: "the translation adds the code span `open()` (the source has it 0 times, the translation 1)"
        ),
        TranslationFinding(
            path: "po/vi.po", line: 30, severity: .error,
            text:
                "line 2 of the translation begins with `- `, which would start a list item; escape it (`\\-`) "
                + "or move it off the start of the line"),
        TranslationFinding(
            path: "po/vi.po", line: 40, severity: .error,
            text:
                "the translation drops the code span `li2_cid` (the source has it 2 times, the translation 1)"
        ),
        TranslationFinding(
            path: "po/vi.po", line: 40, severity: .error,
            text:
                "the translation drops the link target `#routing` (the source has it 1 time, the translation 0)"
        ),
        TranslationFinding(
            path: "po/vi.po", line: 40, severity: .error,
            text:
                "the translation adds the link target `#dinh-tuyen` (the source has it 0 times, the translation 1)"
        ),
    ]

    @Test func findingsAreAtTheLinesOfTheirTranslations() throws {
        let folder = try TemporaryFolder()
        try folder.write("po/vi.po", Self.poFile)
        let file = try POFile.read(folder.url.appendingPathComponent("po/vi.po"), path: "po/vi.po")
        let result = TranslationChecks.findings(text: Self.poFile, path: "po/vi.po", file: file)
        #expect(result.checked == 3)
        #expect(result.findings == Self.findings)
    }

    @Test func aHeaderWithoutLanguageIsWarnedAtItsMsgstr() throws {
        let text =
            "# A new language\nmsgid \"\"\nmsgstr \"\"\n\"Language: \\n\"\n\nmsgid \"Routing\"\nmsgstr \"Định tuyến\"\n"
        let folder = try TemporaryFolder()
        try folder.write("po/vi.po", text)
        let file = try POFile.read(folder.url.appendingPathComponent("po/vi.po"), path: "po/vi.po")
        let result = TranslationChecks.findings(text: text, path: "po/vi.po", file: file)
        #expect(result.checked == 1)
        #expect(
            result.findings == [
                TranslationFinding(
                    path: "po/vi.po", line: 3, severity: .warning,
                    text: #"the header names no language: add the line "Language: vi\n" to it"#)
            ])
    }

    @Test func linesOfEntriesWithContextsAndPlurals() {
        let entries = POText.entries(
            #"""
            msgid ""
            msgstr "Language: vi\n"

            msgctxt "menu"
            msgid "Open"
            msgstr "Mở"

            #| msgid "Close"
            msgid "Close \"it\" \101\t"
            msgid_plural "Close them"
            msgstr[0] ""
            "Đóng"
            msgstr[1] "Đóng hết"

            #~ msgid "Gone"
            #~ msgstr "Mất"
            """#)
        #expect(
            entries == [
                POText.Entry(msgctxt: nil, msgid: "", msgidLine: 1, msgstr: "Language: vi\n", msgstrLine: 2),
                POText.Entry(msgctxt: "menu", msgid: "Open", msgidLine: 5, msgstr: "Mở", msgstrLine: 6),
                POText.Entry(
                    msgctxt: nil, msgid: "Close \"it\" A\t", msgidLine: 9, msgstr: "Đóng", msgstrLine: 11),
            ])
    }

    @Test func msgfmtOutputBecomesFindings() {
        let output = """
            po/vi.po:14: duplicate message definition...
            po/vi.po:8: ...this is the location of the first definition
            po/vi.po:2: warning: header field 'Language' still has the initial default value
            po/vi.po:2: warning: header field 'Last-Translator' missing in header
            po/vi.po:4:1: syntax error
            /opt/gettext/bin/msgfmt: po/vi.po: warning: PO file header missing or invalid
                                       warning: charset conversion will not work
            msgfmt: found 3 fatal errors
            0 translated messages, 1 fuzzy translation, 1 untranslated message.

            """
        #expect(
            TranslationChecks.msgfmtFindings(output, path: "po/vi.po", status: 1) == [
                TranslationFinding(
                    path: "po/vi.po", line: 14, severity: .error, text: "duplicate message definition..."),
                TranslationFinding(
                    path: "po/vi.po", line: 8, severity: .error,
                    text: "...this is the location of the first definition"),
                TranslationFinding(
                    path: "po/vi.po", line: 2, severity: .warning,
                    text: "header field 'Last-Translator' missing in header"),
                TranslationFinding(path: "po/vi.po", line: 4, severity: .error, text: "syntax error"),
                TranslationFinding(
                    path: "po/vi.po", line: nil, severity: .warning,
                    text: "PO file header missing or invalid warning: charset conversion will not work"),
            ])
        #expect(
            TranslationChecks.msgfmtFindings("", path: "po/vi.po", status: 1) == [
                TranslationFinding(
                    path: "po/vi.po", line: nil, severity: .error, text: "msgfmt failed (status 1)")
            ])
    }

    @Test func aDuplicateMessageIsMsgfmtsError() async throws {
        try #require(BookChecker.findExecutable("msgfmt") != nil, "msgfmt (Debian: gettext) is missing")
        let book = try fixtureBook()
        try book.write(
            "po/vi.po",
            vietnameseHeader
                + "\n\nmsgid \"Routing\"\nmsgstr \"Định tuyến\"\n\nmsgid \"Routing\"\nmsgstr \"Tuyến\"\n")
        let root = book.url
        let reports = try await offPool { try Translations.check(root: root) }
        #expect(
            reports == [
                TranslationCheckReport(
                    path: "po/vi.po", checked: 0,
                    findings: [
                        TranslationFinding(
                            path: "po/vi.po", line: 16, severity: .error,
                            text: "duplicate message definition..."),
                        TranslationFinding(
                            path: "po/vi.po", line: 14, severity: .error,
                            text: "...this is the location of the first definition"),
                    ])
            ])
    }

    @Test func aCleanFileHasNoFindings() async throws {
        try #require(BookChecker.findExecutable("msgfmt") != nil, "msgfmt (Debian: gettext) is missing")
        let book = try fixtureBook()
        try book.write(
            "po/vi.po",
            vietnameseHeader + "\n\n#, fuzzy\nmsgid \"Write `route(forLink:)`.\"\nmsgstr \"Viết.\"\n\n"
                + "msgid \"Use `URLComponents`.\"\nmsgstr \"Dùng `URLComponents`.\"\n")
        let root = book.url
        let reports = try await offPool { try Translations.check(root: root) }
        #expect(reports == [TranslationCheckReport(path: "po/vi.po", checked: 1, findings: [])])
        #expect(reports.map(\.summary) == ["i18n: po/vi.po: 1 message checked, 0 errors"])
    }

    @Test func missingMsgfmtNamesTheDebianPackage() throws {
        let book = try fixtureBook()
        try book.write("po/vi.po", vietnameseHeader + "\n")
        #expect(
            throws: TranslationError(
                "msgfmt not found: install GNU gettext (Debian: apt-get install gettext)", isToolFailure: true
            )
        ) {
            try Translations.check(root: book.url, msgfmt: nil)
        }
        // Without a PO file there is nothing to check, and msgfmt is not needed.
        let empty = try fixtureBook()
        #expect(try Translations.check(root: empty.url, msgfmt: nil) == [])
    }
}

/// `workbook i18n check`, `workbook i18n status --part --min` and `workbook check`, as a user
/// runs them (the built `workbook`).
@Suite(.serialized)
struct TranslationCommandTests {
    /// The fixture book in two parts: Part I is chapter 1, Part II chapter 2.
    static func book(po: String?) throws -> TemporaryFolder {
        let book = try fixtureBook()
        try book.write(
            "chapters/SUMMARY.md",
            """
            # Summary

            # Part I: The guide

            - [Opening links](01-opening.md)

            # Part II: Inside

            - [Routing](02-routing.md)

            """)
        if let po { try book.write("po/vi.po", po) }
        return book
    }

    /// Chapter 1 has 3 messages, 1 translated and 1 fuzzy; chapter 2 has 2, both translated.
    static let progress =
        vietnameseHeader + "\n"
            + #"""

            #: chapters/01-opening.md:3
            msgid "An app opens a link."
            msgstr "Ứng dụng mở liên kết."

            #, fuzzy
            #: chapters/01-opening.md:14
            msgid "Check the scheme."
            msgstr "Kiểm tra lược đồ."

            #: chapters/01-opening.md:23
            #: chapters/02-routing.md:4
            msgid "See the router."
            msgstr ""

            #: chapters/02-routing.md:1
            msgid "Routing"
            msgstr "Định tuyến"

            """#

    @Test func checkPrintsFindingsAtTheirLinesAndFails() async throws {
        let book = try Self.book(po: TranslationFileTests.poFile)
        let output = try await CommandRunner.run("workbook", ["i18n", "check", "--book", book.url.path])
        #expect(output.status == 1)
        #expect(output.stderr == TranslationFileTests.findings.map { "\($0)\n" }.joined())
        #expect(output.stdout == "i18n: po/vi.po: 3 messages checked, 6 errors\n")
    }

    @Test func checkPassesACleanFile() async throws {
        let book = try Self.book(po: Self.progress)
        let output = try await CommandRunner.run("workbook", ["i18n", "check", "--book", book.url.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "i18n: po/vi.po: 2 messages checked, 0 errors\n")
    }

    @Test func statusOfOnePartWithPercentages() async throws {
        let book = try Self.book(po: Self.progress)
        let output = try await CommandRunner.run(
            "workbook", ["i18n", "status", "--part", "2", "--book", book.url.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout == """
                vi: 1 of 2 messages translated (50 %), 0 fuzzy, 1 untranslated
                source file             translated  fuzzy  untranslated      %
                chapters/02-routing.md           1      0             1   50 %

                """)
    }

    @Test func minimumPassesWhenEveryCountedFileReachesIt() async throws {
        let book = try Self.book(po: Self.progress)
        let output = try await CommandRunner.run(
            "workbook", ["i18n", "status", "--part", "2", "--min", "50", "--book", book.url.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout.hasSuffix("\ni18n: every file counted is at least 50 % translated\n"),
            "\(output.stdout)")
    }

    @Test func minimumFailsNamingEachFileBelowIt() async throws {
        let book = try Self.book(po: Self.progress)
        let output = try await CommandRunner.run(
            "workbook", ["i18n", "status", "--min", "50", "--book", book.url.path])
        #expect(output.status == 1)
        // Fuzzy is not translated: chapter 1 has 1 of 3.
        #expect(output.stderr == "error: po/vi.po: chapters/01-opening.md is 33 % translated, below 50 %\n")
        #expect(
            output.stdout == """
                vi: 2 of 4 messages translated (50 %), 1 fuzzy, 1 untranslated
                source file             translated  fuzzy  untranslated      %
                chapters/01-opening.md           1      1             1   33 %
                chapters/02-routing.md           1      0             1   50 %

                i18n: 1 file below 50 % translated

                """)
    }

    @Test func aPartThatDoesNotExistIsBadInput() async throws {
        let book = try Self.book(po: Self.progress)
        let output = try await CommandRunner.run(
            "workbook", ["i18n", "status", "--part", "3", "--book", book.url.path])
        #expect(output.status == 2)
        #expect(
            output.stderr
                == "error: chapters/SUMMARY.md has 2 parts; there is no part 3 (give a number from 1 to 2)\n")
        let zero = try await CommandRunner.run(
            "workbook", ["i18n", "status", "--part", "0", "--book", book.url.path])
        #expect(zero.status == 64)
        #expect(zero.stderr.hasPrefix("error: --part needs a part number from 1\n"), "\(zero.stderr)")
    }

    @Test func minimumWithoutAPOFileFails() async throws {
        let book = try Self.book(po: nil)
        let output = try await CommandRunner.run(
            "workbook", ["i18n", "status", "--min", "90", "--book", book.url.path])
        #expect(output.status == 1)
        #expect(output.stderr == "error: --min 90: there is no po/LANG.po to hold to it\n")
    }

    @Test func bookCheckRunsTheTranslationChecks() async throws {
        let book = try Self.book(po: TranslationFileTests.poFile)
        let output = try await CommandRunner.run("workbook", ["check", "--book", book.url.path])
        #expect(output.status == 1)
        #expect(output.stderr.contains("po/vi.po:40:1: error: the translation drops the code span `li2_cid`"))
        #expect(output.stdout.contains("i18n: po/vi.po: 3 messages checked, 6 errors\n"), "\(output.stdout)")
    }
}
