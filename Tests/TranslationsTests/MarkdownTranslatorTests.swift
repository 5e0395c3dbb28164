import Testing
import Weave

@testable import Translations

/// The translated Markdown keeps every line where it was: code blocks, list markers, quotes and
/// headings stay, only the words of messages change.
@Suite struct MarkdownTranslatorTests {
    let source = """
        # Opening links

        An app opens a link with `open(_:)`,
        and says yes.

        ```swift
        let url = URL(string: "myapp://x")!
        ```

        | Link | Route |
        | --- | --- |
        | `myapp://product/42` | a product |

        - Check the scheme.
        - Check the host, then
          the path.

        > A quoted
        > paragraph.
        """

    let table: [String: String] = [
        "Opening links": "Mở link",
        "An app opens a link with `open(_:)`,\nand says yes.":
            "Ứng dụng mở link bằng `open(_:)` và trả lời có.",
        "Route": "Route đích",
        "a product": "một sản phẩm",
        "Check the host, then\nthe path.": "Kiểm tra host, rồi đến đường dẫn.",
        "A quoted\nparagraph.": "Một đoạn trích dẫn.",
    ]

    @Test func everyLineStaysWhereItWas() {
        let result = MarkdownTranslator.translate(source) { table[$0] }
        #expect(
            result.markdown == """
                # Mở link

                Ứng dụng mở link
                bằng `open(_:)` và trả lời có.

                ```swift
                let url = URL(string: "myapp://x")!
                ```

                | Link | Route đích |
                | --- | --- |
                | `myapp://product/42` | một sản phẩm |

                - Check the scheme.
                - Kiểm tra host,
                  rồi đến đường dẫn.

                > Một đoạn
                > trích dẫn.
                """)
        #expect(result.markdown.split(separator: "\n", omittingEmptySubsequences: false).count == 19)
    }

    @Test func whatHasNoTranslationIsListedAsFallback() {
        let result = MarkdownTranslator.translate(source) { table[$0] }
        // "Check the scheme." (line 14) and the header cell "Link" (line 10, cell 0); the code
        // span cell is no message.
        #expect(result.fallbackLines == [14])
        #expect(result.fallbackCells == [10: [0]])
        #expect(result.messages == 8)
        #expect(result.translated == 6)
    }

    @Test func nothingTranslatedGivesTheSourceBack() {
        let result = MarkdownTranslator.translate(source) { _ in nil }
        #expect(result.markdown == source)
        #expect(result.translated == 0)
    }

    @Test func aLineNeverStartsWhatWouldBeAnotherBlock() {
        // Breaking before "-" or "1." would start a list inside the paragraph.
        let wrapped = MarkdownTranslator.wrap(
            MarkdownTranslator.words("một hai - ba 1. bốn # năm > sáu"), into: 3)
        for line in wrapped ?? [] {
            #expect(
                !(line.hasPrefix("-") || line.hasPrefix("#") || line.hasPrefix(">") || line.hasPrefix("1.")))
        }
        #expect(wrapped?.count == 3)
    }

    @Test func aTranslationTooShortForItsLinesStaysInTheSourceLanguage() {
        let result = MarkdownTranslator.translate("One\ntwo\nthree.\n") { _ in "Một." }
        #expect(result.markdown == "One\ntwo\nthree.\n")
        #expect(result.fallbackLines == [1])
    }

    @Test func summariesAndAltTextsAreTranslatedInPlace() {
        let text = "<details>\n<summary>Hint 1</summary>\n\nLook.\n\n</details>\n\n![A diagram](d.png)\n"
        let result = MarkdownTranslator.translate(text) {
            ["Hint 1": "Gợi ý 1", "Look.": "Xem.", "A diagram": "Sơ đồ"][$0]
        }
        #expect(
            result.markdown
                == "<details>\n<summary>Gợi ý 1</summary>\n\nXem.\n\n</details>\n\n![Sơ đồ](d.png)\n")
    }

    @Test func aTextOfCodeNumbersAndPunctuationIsNoMessage() {
        #expect(!MarkdownMessages.hasWords("`li2_cid`"))
        #expect(!MarkdownMessages.hasWords("200"))
        #expect(!MarkdownMessages.hasWords("`a` — ``b`c``"))
        #expect(MarkdownMessages.hasWords("`li2_cid` stays"))
        #expect(MarkdownMessages.hasWords("`unclosed span"))
    }

    @Test func htmlTextsAreFoundWithTheirInlineTagsAndKeepTheirLines() {
        let html = """
            <div class="tools">
            <button type="button" id="demo">Load the demo</button>
            <p class="note">Start the server with
            <code>./wb serve</code>, then reload.</p>
            <input placeholder="Paste a file" value="x">
            <pre><code>let code = 1</code></pre>
            </div>
            """
        let found = MarkdownMessages.extract(html)
        #expect(
            found == [
                SourceMessage(text: "Load the demo", line: 2),
                SourceMessage(text: "Start the server with\n<code>./wb serve</code>, then reload.", line: 3),
                SourceMessage(text: "Paste a file", line: 5),
            ])
        let result = MarkdownTranslator.translate(html) {
            [
                "Load the demo": "Nạp demo",
                "Start the server with\n<code>./wb serve</code>, then reload.":
                    "Khởi động máy chủ bằng <code>./wb serve</code>, rồi tải lại.",
                "Paste a file": "Dán một \"tệp\"",
            ][$0]
        }
        #expect(
            result.markdown == """
                <div class="tools">
                <button type="button" id="demo">Nạp demo</button>
                <p class="note">Khởi động máy chủ
                bằng <code>./wb serve</code>, rồi tải lại.</p>
                <input placeholder="Dán một &quot;tệp&quot;" value="x">
                <pre><code>let code = 1</code></pre>
                </div>
                """)
    }

    /// A line break never falls inside an HTML `<code>` or `<kbd>` element, whatever the case of
    /// its tag's letters.
    @Test func wordsInsideAnHTMLCodeElementContinueIt() {
        let words = "see <Code>let x = 1</CODE> and <kbd>Cmd</kbd> done".split(separator: " ")
        #expect(
            MarkdownTranslator.insideSpans(words) == [false, false, true, true, true, false, false, false])
        #expect(MarkdownTranslator.occurrences(of: Array("<code".utf8), in: "<CODE>a</code><code<cod") == 2)
        #expect(MarkdownTranslator.occurrences(of: Array("</kbd>".utf8), in: "x</KBD></kbd") == 1)
    }
}
