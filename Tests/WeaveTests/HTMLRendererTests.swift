import CCmark
import Foundation
import Literate
import Testing

@testable import Weave

/// The renderer against whole HTML fragments: cmark's own HTML for every CommonMark node, and
/// our additions (heading ids, code block headers, tables) spelled out.
struct HTMLRendererTests {
    /// cmark's HTML for `markdown`, raw HTML allowed (as the book is trusted).
    static func cmarkHTML(_ markdown: String) -> String {
        let count = markdown.utf8.count
        guard let pointer = cmark_markdown_to_html(markdown, count, CMARK_OPT_UNSAFE) else { return "" }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    @Test func everyInlineAndBlockNodeRendersAsCmarkRendersIt() {
        let markdown = """
            Plain *emphasis*, **strong**, `code <span>` and a [link](https://example.com/a?b=1&c=2 "The title").
            A soft break, then a hard break\\
            and an ![image *alt*](pic.png "Pic") with <b>inline HTML</b> &amp; entities &copy; \\*escaped\\*.

            > A quote
            > over two lines.

            - tight
            - list

            1. loose

            2. ordered

            7) starts at seven

            ***

            <div class="raw">
            Raw block HTML
            </div>

            <details>
            <summary>More</summary>

            Inside *details*.

            </details>

            [Spaces and ünïcode](<a b/ü.md>) and <https://autolink.example/x> and a\ttab.
            """
        #expect(HTMLRenderer.render(markdown: markdown) == Self.cmarkHTML(markdown))
    }

    @Test func nestedListsAndQuotesRenderAsCmarkRendersThem() {
        let markdown = """
            - one
              - nested *one*

                with a second paragraph
            - two
              > quoted in a list

            > - a list
            >   in a quote
            """
        #expect(HTMLRenderer.render(markdown: markdown) == Self.cmarkHTML(markdown))
    }

    @Test func headingsGetStableSlugIDsAndASelfLink() {
        let html = HTMLRenderer.render(
            markdown: "# Hello *World*\n\n## Hello World\n\n### The site's half: `assetlinks.json`\n")
        #expect(
            html == """
                <h1 id="hello-world">Hello <em>World</em><a class="heading-anchor" href="#hello-world" \
                aria-label="Link to this section">#</a></h1>
                <h2 id="hello-world-1">Hello World<a class="heading-anchor" href="#hello-world-1" \
                aria-label="Link to this section">#</a></h2>
                <h3 id="the-sites-half-assetlinksjson">The site's half: <code>assetlinks.json</code>\
                <a class="heading-anchor" href="#the-sites-half-assetlinksjson" aria-label="Link to this section">#</a></h3>

                """)
    }

    @Test func textAndAttributesAreEscaped() {
        let html = HTMLRenderer.render(markdown: #"a < b & "c" > d, [x](a"b 'q"t') and `<T>`"#)
        #expect(
            html == """
                <p>a &lt; b &amp; &quot;c&quot; &gt; d, <a href="a%22b" title="q&quot;t">x</a> and \
                <code>&lt;T&gt;</code></p>

                """)
    }

    @Test func dangerousURLsAreDropped() {
        let html = HTMLRenderer.render(
            markdown: "[run](javascript:alert(1)) ![p](data:image/png;base64,AA==)")
        #expect(html == "<p><a href=\"\">run</a> <img src=\"data:image/png;base64,AA==\" alt=\"p\" /></p>\n")
    }

    @Test func pipeTablesRenderAsTablesWithAlignment() {
        let markdown = """
            | Input | Outcome | Why |
            | --- | :---: | ---: |
            | `/a\\|b` | **yes** | [see](x.md) |
            | short |
            """
        #expect(
            HTMLRenderer.render(markdown: markdown) == """
                <div class="table-wrap">
                <table>
                <thead>
                <tr>
                <th>Input</th>
                <th style="text-align: center">Outcome</th>
                <th style="text-align: right">Why</th>
                </tr>
                </thead>
                <tbody>
                <tr>
                <td><code>/a|b</code></td>
                <td style="text-align: center"><strong>yes</strong></td>
                <td style="text-align: right"><a href="x.md">see</a></td>
                </tr>
                <tr>
                <td>short</td>
                <td style="text-align: center"></td>
                <td style="text-align: right"></td>
                </tr>
                </tbody>
                </table>
                </div>

                """)
    }

    @Test func paragraphLinesBeforeATableStayAParagraph() {
        let markdown = "Lead-in *text*\n| a | b |\n| - | - |\n| - x | # y |\n"
        #expect(
            HTMLRenderer.render(markdown: markdown) == """
                <p>Lead-in <em>text</em></p>
                <div class="table-wrap">
                <table>
                <thead>
                <tr>
                <th>a</th>
                <th>b</th>
                </tr>
                </thead>
                <tbody>
                <tr>
                <td>- x</td>
                <td># y</td>
                </tr>
                </tbody>
                </table>
                </div>

                """)
    }

    @Test func aParagraphWithPipesButNoDelimiterRowIsNotATable() {
        let markdown = "a | b\nc | d\n"
        #expect(HTMLRenderer.render(markdown: markdown) == Self.cmarkHTML(markdown))
    }

    @Test func aDisplayOnlyBlockShowsItsLanguageAndBadge() {
        var view = HTMLRenderer.displayView(
            fence: CodeFence(
                info: "kotlin", lines: ["val x = 1 < 2"], fenceCharacter: "`", fenceLength: 3,
                isUnclosed: false,
                infoColumn: 4),
            line: 1)
        view.words = TemporaryBook.words
        var writer = HTMLWriter()
        view.render(lines: ["val x = 1 < 2"], into: &writer)
        let html = writer.string
        #expect(
            html == """
                <figure class="code" id="code-1">
                <figcaption class="code-header"><span class="code-lang">kotlin</span><span class="badge \
                badge-display-only" title="Nothing checks this snippet: it is shown as written.">display-only\
                </span></figcaption>
                <pre><code class="language-kotlin"><span class="code-text">val x = 1 &lt; 2
                </span></code></pre>
                </figure>

                """)
    }

    @Test func aChunkBlockShowsItsNameFileBadgeReferencesAndUses() {
        let view = CodeBlockView(
            id: "chunk-greeting", language: "swift", chunkName: "greeting", chunkHref: "#chunk-greeting",
            isContinuation: false, files: ["Sources/Greeter/Greeter.swift"], badge: .tested,
            usedIn: [NamedLink(label: "Sources/Greeter/Greeter.swift", href: "#code-3")],
            referenceHrefs: ["punctuation": "02-farewell.html#chunk-punctuation"], words: TemporaryBook.words)
        var html = HTMLWriter()
        view.render(
            lines: ["let text = \"Hi\"", "    <<punctuation>>", "    <<unknown-chunk>>", "print(text)"],
            into: &html)
        #expect(
            html.string == """
                <figure class="code" id="chunk-greeting">
                <figcaption class="code-header"><span class="code-lang">swift</span><a class="code-chunk" \
                href="#chunk-greeting">⟨greeting⟩</a><span class="code-file">Sources/Greeter/Greeter.swift</span>\
                <span class="badge badge-tested" title="Compiled, and at least one of its lines ran in the test \
                suite (measured with code coverage).">tested</span></figcaption>
                <pre><code class="language-swift"><span class="code-text">let text = &quot;Hi&quot;
                </span>    <a class="chunk-ref" href="02-farewell.html#chunk-punctuation">&lt;&lt;punctuation&gt;&gt;</a>
                <span class="code-text">    &lt;&lt;unknown-chunk&gt;&gt;
                print(text)
                </span></code></pre>
                <p class="code-uses">Used in <a href="#code-3">Sources/Greeter/Greeter.swift</a>.</p>
                </figure>

                """)
    }

    @Test func aContinuedChunkSaysSo() {
        let view = CodeBlockView(
            id: "code-9", language: "swift", chunkName: "greeting", chunkHref: "#chunk-greeting",
            isContinuation: true, files: [], badge: .compiled, usedIn: [], referenceHrefs: [:],
            words: TemporaryBook.words)
        var html = HTMLWriter()
        view.render(lines: [], into: &html)
        #expect(
            html.string == """
                <figure class="code" id="code-9">
                <figcaption class="code-header"><span class="code-lang">swift</span><a class="code-chunk" \
                href="#chunk-greeting">⟨greeting⟩ +=</a><span class="badge badge-compiled" title="Tangled into a \
                Swift file that the package compiles on every change.">compiled</span></figcaption>
                <pre><code class="language-swift"></code></pre>
                </figure>

                """)
    }

    @Test func badgesNameWhatProvesABlock() {
        let cases: [(id: String, badge: Badge, label: String, key: String)] = [
            ("compiled", Badge(.compiled), "compiled", "compiled"),
            ("tested", Badge(.compiled, tested: true), "tested", "tested"),
            ("tangled", Badge(.tangled), "tangled", "tangled"),
            ("checked", Badge(.checked(by: "aasa")), "checked as aasa", "checked"),
            ("failed", Badge(.checked(by: "aasa"), failed: true), "check failed (aasa)", "failed"),
            ("apple", Badge(.parseChecked(module: "UIKit")), "parse-checked (Apple-only)", "parse-checked"),
            ("unused", Badge(.unused), "unused", "unused"),
            ("display", Badge(.displayOnly), "display-only", "display-only"),
        ]
        for item in cases {
            #expect(item.badge.label(TemporaryBook.words) == item.label, "\(item.id)")
            #expect(item.badge.key == item.key, "\(item.id)")
        }
    }

    @Test func urlsArePercentEncodedLikeCmarkDoes() {
        var html = HTMLWriter()
        html.url("a b/ü?x=1&y='2'#[z]")
        #expect(html.string == "a%20b/%C3%BC?x=1&amp;y=&#x27;2&#x27;#%5Bz%5D")
    }

    /// Every ASCII character: letters, digits and cmark's safe punctuation
    /// (`-_.+!*(),%#@?=;:/$~`) pass, `&` and `'` become entities, the rest is percent-encoded.
    @Test func everyASCIICharacterOfAURLIsWrittenAsCmarkWritesIt() {
        let safe = Set("-_.+!*(),%#@?=;:/$~".utf8)
        for byte in UInt8(0)...UInt8(127) {
            var html = HTMLWriter()
            html.url(String(decoding: [byte], as: UTF8.self))
            let character = Character(Unicode.Scalar(byte))
            let expected =
                byte == UInt8(ascii: "&")
                ? "&amp;"
                : byte == UInt8(ascii: "'")
                    ? "&#x27;"
                    : character.isASCII && (character.isLetter || character.isNumber) || safe.contains(byte)
                        ? String(character) : String(format: "%%%02X", byte)
            #expect(html.string == expected, "byte \(byte)")
        }
    }

    @Test func rawHTMLIDsAreCollectedAsAnchors() {
        #expect(
            AnchorCollector.ids(in: "<a id=\"one\"></a><span name='two' data-id=\"no\"> id=three") == [
                "one", "two",
            ])
    }
}
