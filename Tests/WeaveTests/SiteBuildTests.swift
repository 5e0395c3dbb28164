import Foundation
import Literate
import Testing

@testable import Weave

/// Builds the fixture book in `Fixtures/small-book` and checks the page set and the parts of
/// pages that the other passes decide: chunk links, badges, the generated pages.
struct SiteBuildTests {
    @Test func theFixtureBookBuildsEveryPage() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        let report = try book.build()
        #expect(
            report.pages == [
                "404.html", "api.html", "chapters/01-greeting.html", "chapters/02-farewell.html",
                "exercises/01-say-hello.html", "glossary.html", "index.html", "print.html", "snippets.html",
            ])
        #expect(
            report.diagnostics.map(\.description) == [
                "warning: highlight.js not found in '\(book.root.path)/no-highlight-here' (Debian package "
                    + "libjs-highlight.js); code blocks render without highlighting",
                "chapters/02-farewell.md:17:1: warning: chunk 'never-used' is never included in a file",
            ])
        for file in [
            "search-index.json", "search-index.js", "assets/theme.css", "assets/site.js",
            "assets/icons/logo.svg",
            "images/wave.svg", ".workbook-site",
        ] {
            #expect(book.output(file) != nil, "\(file) is written")
        }
        #expect(book.output("assets/vendor/highlight.min.js") == nil)
        #expect(report.coverageFile == nil)
    }

    @Test func aChunkDefinitionListsItsUsesAndAReferenceLinksBack() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        _ = try book.build()
        let definition = try #require(
            book.fragment(
                "chapters/01-greeting.html", from: "<figure class=\"code\" id=\"chunk-greeting-text\">",
                to: "</figure>"))
        #expect(
            definition == """
                <figure class="code" id="chunk-greeting-text">
                <figcaption class="code-header"><span class="code-lang">swift</span><a class="code-chunk" \
                href="#chunk-greeting-text">⟨greeting-text⟩</a><span class="code-file">Sources/Greeter/Greeter.swift\
                </span><span class="badge badge-compiled" title="Tangled into a Swift file that the package compiles \
                on every change.">compiled</span></figcaption>
                <pre><code class="language-swift"><span class="code-text">public static func greet(_ name: String) \
                -&gt; String { &quot;Hello, \\(name)!&quot; }
                </span></code></pre>
                <p class="code-uses">Used in <a href="#code-9">Sources/Greeter/Greeter.swift</a>.</p>
                </figure>
                """)
        let farewell = try #require(book.output("chapters/02-farewell.html"))
        #expect(
            farewell.contains(
                "<a class=\"chunk-ref\" href=\"#chunk-parting-words\">&lt;&lt;parting-words&gt;&gt;</a>"))
        #expect(farewell.contains("<span class=\"badge badge-unused\""))
        let greeting = try #require(book.output("chapters/01-greeting.html"))
        #expect(
            greeting.contains("<span class=\"badge badge-checked\" title=\"Validated by the 'json' checker"))
        #expect(
            greeting.contains(
                "<span class=\"code-lang\">kotlin</span><span class=\"badge badge-display-only\""))
        #expect(greeting.contains("<a href=\"02-farewell.html#saying-goodbye\">the farewell</a>"))
        #expect(greeting.contains("<a href=\"../images/wave.svg\">an image</a>"))
        #expect(greeting.contains("<a href=\"https://example.com/docs\">a site elsewhere</a>"))
    }

    @Test func pagesCarryNavigationAndRelativeRoots() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        _ = try book.build()
        let page = try #require(book.output("chapters/02-farewell.html"))
        #expect(page.contains("<html lang=\"en\" data-root=\"../\">"))
        #expect(page.contains("<link rel=\"stylesheet\" href=\"../assets/theme.css\">"))
        #expect(
            page.contains(
                "<a href=\"../chapters/02-farewell.html\" aria-current=\"page\"><span class=\"nav-number\">2</span> Farewell <span class=\"nav-minutes\">1 min</span></a>"
            ))
        #expect(
            book.fragment("chapters/02-farewell.html", from: "<nav class=\"pager\"", to: "</nav>") == """
                <nav class="pager" aria-label="Previous and next page">
                <a class="pager-prev" rel="prev" href="../chapters/01-greeting.html"><span class="pager-label">Previous\
                </span> <span class="pager-title">Greeting</span></a>
                <a class="pager-next" rel="next" href="../exercises/01-say-hello.html"><span class="pager-label">Next\
                </span> <span class="pager-title">Say hello</span></a>
                </nav>
                """)
        #expect(
            book.fragment("chapters/01-greeting.html", from: "<h2 class=\"toc-title\"", to: "</ul>") == """
                <h2 class="toc-title" id="toc-title">On this page</h2>
                <ul class="toc-list">
                <li class="toc-level-2"><a href="#the-code">The code</a></li>
                </ul>
                """)
        let notFound = try #require(book.output("404.html"))
        #expect(notFound.contains("<link rel=\"stylesheet\" href=\"/assets/theme.css\">"))
    }

    @Test func theHomePageListsTheChaptersAndExercises() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        _ = try book.build()
        #expect(
            book.fragment("index.html", from: "<h2 id=\"contents\">", to: "</ul>")?.replacingOccurrences(
                of:
                    "<a class=\"heading-anchor\" href=\"#contents\" aria-label=\"Link to this section\">#</a>",
                with: "")
                    == """
                    <h2 id="contents">Contents</h2>
                    <ul>
                    <li><a href="chapters/01-greeting.html">Greeting</a></li>
                    <li><a href="chapters/02-farewell.html">Farewell</a></li>
                    </ul>
                    """)
    }

    @Test func theSnippetIndexListsEveryBlockAndSaysHowToMeasureTesting() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        _ = try book.build()
        let page = try #require(book.output("snippets.html"))
        #expect(page.contains("Blocks by status: compiled: 4, checked: 1, unused: 1, display-only: 1."))
        #expect(page.contains("No coverage data was found, so no block is claimed as tested."))
        #expect(
            page.contains(
                "<td><a href=\"chapters/01-greeting.html#chunk-greeting-text\">⟨greeting-text⟩</a></td>\n"
                    + "<td><code>Sources/Greeter/Greeter.swift</code></td>\n<td>Greeter</td>"))
        #expect(
            page.contains("<td><a href=\"chapters/02-farewell.html#chunk-never-used\">⟨never-used⟩</a></td>"))
    }

    @Test func theAPIReferenceComesFromTheOpenAPIDocument() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        _ = try book.build()
        let page = try #require(book.output("api.html"))
        #expect(page.contains("<h1 id=\"greeting-api\">Greeting API"))
        #expect(page.contains("<h3 id=\"get-greetname\">GET <code>/greet/{name}</code>"))
        #expect(page.contains("<td><code>sender.name</code></td>"))
        #expect(page.contains("<a href=\"#schema-greeting\">Greeting</a>"))
    }

    @Test func withoutAnOpenAPIDocumentTheAPIPageSaysSo() throws {
        let book = try TemporaryBook(chapters: ["01-a.md": "# A\n"])
        _ = try book.build()
        let page = try #require(book.output("api.html"))
        #expect(page.contains("is not in this book yet, so there is\nno API reference to show."))
    }

    @Test func solutionsAppearOnlyWhenAskedFor() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        _ = try book.build()
        #expect(book.output("exercises/01-say-hello.html")?.contains("Solution/Hello.swift") == false)
        _ = try book.build(solutions: true)
        let page = try #require(book.output("exercises/01-say-hello.html"))
        #expect(page.contains("<code>Solution/Hello.swift</code>:</p>"))
        #expect(page.contains("func greet(_ name: String) -&gt; String { &quot;Hello, \\(name)!&quot; }"))
    }

    @Test func thePrintPageHoldsEveryChapterWithPrefixedIDs() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        _ = try book.build()
        let page = try #require(book.output("print.html"))
        #expect(page.contains("<section class=\"print-chapter\" id=\"01-greeting--top\">"))
        #expect(page.contains("<h2 id=\"01-greeting--the-code\">"))
        #expect(page.contains("<a href=\"#02-farewell--saying-goodbye\">the farewell</a>"))
        #expect(page.contains("<figure class=\"code\" id=\"01-greeting--chunk-greeting-text\">"))
    }

    @Test func aSnippetWhoseCheckFailsIsBadgedSo() throws {
        let book = try TemporaryBook(chapters: ["01-a.md": "# A\n\n```json\n{\"a\": \n```\n"])
        let report = try book.build()
        #expect(
            report.diagnostics.map(\.description).contains(
                "warning: 1 snippet check errors, badged 'check failed'; 'workbook check' lists them"))
        #expect(book.output("chapters/01-a.html")?.contains(">check failed (json)</span>") == true)
    }

    @Test func aFolderWrittenBySomethingElseIsNeverEmptied() throws {
        let book = try TemporaryBook(chapters: ["01-a.md": "# A\n"], files: ["out/precious.txt": "keep me"])
        #expect(throws: Diagnostic.self) { try book.build() }
        #expect(book.output("precious.txt") == "keep me")
    }

    @Test func aRebuildReplacesTheEarlierSite() throws {
        let book = try TemporaryBook(chapters: ["01-a.md": "# A\n", "02-b.md": "# B\n"])
        _ = try book.build()
        #expect(book.output("chapters/02-b.html") != nil)
        try FileManager.default.removeItem(at: book.root.appendingPathComponent("chapters/02-b.md"))
        _ = try book.build()
        #expect(book.output("chapters/02-b.html") == nil)
        #expect(book.output("chapters/01-a.html") != nil)
    }

    @Test func highlightJSIsCopiedWhenPresent() throws {
        let book = try TemporaryBook(
            chapters: ["01-a.md": "# A\n"], files: ["vendor/highlight.min.js": "var hljs = {};\n"])
        let report = try book.build(highlight: book.root.appendingPathComponent("vendor"))
        #expect(report.isHighlighted)
        #expect(book.output("assets/vendor/highlight.min.js") == "var hljs = {};\n")
        #expect(
            book.output("chapters/01-a.html")?.contains(
                "<script src=\"../assets/vendor/highlight.min.js\" defer></script>") == true)
    }

    @Test func theGlossaryLinksTermsToTheSectionsThatExplainThem() throws {
        let book = try TemporaryBook(chapters: ["01-a.md": "# Links\n\n## The association file\n\nText.\n"])
        try FileManager.default.copyItem(
            at: TemporaryBook.theme, to: book.root.appendingPathComponent("site"))
        try book.write(
            "site/glossary.json",
            """
            {"intro": "Words.", "terms": [
              {"term": "AASA", "definition": "The *association* file.",
               "see": ["chapters/01-a.md#the-association-file"]},
              {"term": "Broken", "definition": "Nowhere.", "see": ["chapters/01-a.md#nowhere"]}
            ]}
            """)
        let report = try book.build()
        #expect(
            report.diagnostics.filter { $0.severity == .error }.map(\.description) == [
                "site/glossary.json:4:56: error: broken link 'chapters/01-a.md#nowhere': 'chapters/01-a.md' has no "
                    + "heading or anchor 'nowhere'"
            ])
        let page = try #require(book.output("glossary.html"))
        #expect(page.contains("<p>The <em>association</em> file.</p>"))
        #expect(
            page.contains(
                "<p>Explained in <a href=\"chapters/01-a.html#the-association-file\">1. Links › The association file</a>.</p>"
            ))
    }
}
