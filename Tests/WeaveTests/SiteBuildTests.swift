import Foundation
import Literate
import Testing

@testable import Weave

/// Builds the fixture book in `Fixtures/small-book` and checks the page set and the parts of
/// pages that the other passes decide: chunk links, badges, the generated pages.
struct SiteBuildTests {
    /// Every page of the fixture book, each compared whole with `Snapshots/small-book/PAGE`.
    static let fixturePages = [
        "404.html", "api.html", "chapters/01-greeting.html", "chapters/02-farewell.html",
        "exercises/01-say-hello.html", "glossary.html", "index.html", "print.html", "snippets.html",
    ]

    @Test func theFixtureBookBuildsEveryPage() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        let report = try book.build()
        #expect(report.pages == Self.fixturePages)
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

    @Test(arguments: fixturePages)
    func everyPageOfTheFixtureBookMatchesItsSnapshot(_ page: String) throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        _ = try book.build()
        Snapshot.expect(try #require(book.output(page)), matches: "small-book/" + page)
    }

    @Test func withSolutionsTheExercisePageMatchesItsSnapshot() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        _ = try book.build(solutions: true)
        Snapshot.expect(
            try #require(book.output("exercises/01-say-hello.html")),
            matches: "small-book/exercises/01-say-hello.solutions.html")
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
        #expect(
            book.fragment(
                "chapters/02-farewell.html", from: "<figure class=\"code\" id=\"code-11\">", to: "</figure>")
                    == """
                    <figure class="code" id="code-11">
                    <figcaption class="code-header"><span class="code-lang">swift</span><span class="code-file">\
                    Sources/Greeter/Greeter.swift</span><span class="badge badge-compiled" title="Tangled into a Swift \
                    file that the package compiles on every change.">compiled</span></figcaption>
                    <pre><code class="language-swift"><span class="code-text">extension Greeter {
                    </span>    <a class="chunk-ref" href="#chunk-parting-words">&lt;&lt;parting-words&gt;&gt;</a>
                    <span class="code-text">}
                    </span></code></pre>
                    </figure>
                    """)
    }

    @Test func eachBlockIsBadgedWithWhatProvesIt() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        _ = try book.build()
        func caption(_ page: String, _ language: String) -> String? {
            book.fragment(
                page, from: "<figcaption class=\"code-header\"><span class=\"code-lang\">\(language)</span>",
                to: "</figcaption>")
        }
        #expect(
            book.fragment(
                "chapters/02-farewell.html",
                from:
                    "<figcaption class=\"code-header\"><span class=\"code-lang\">swift</span><a class=\"code-chunk\" "
                    + "href=\"#chunk-never-used\">", to: "</figcaption>")
                    == """
                    <figcaption class="code-header"><span class="code-lang">swift</span><a class="code-chunk" \
                    href="#chunk-never-used">⟨never-used⟩</a><span class="badge badge-unused" title="A named chunk \
                    that no file includes.">unused</span></figcaption>
                    """)
        #expect(
            caption("chapters/01-greeting.html", "json")
                == """
                <figcaption class="code-header"><span class="code-lang">json</span><span class="badge \
                badge-checked" title="Validated by the 'json' checker on every 'workbook check'.">checked as json\
                </span></figcaption>
                """)
        #expect(
            caption("chapters/01-greeting.html", "kotlin")
                == """
                <figcaption class="code-header"><span class="code-lang">kotlin</span><span class="badge \
                badge-display-only" title="Nothing checks this snippet: it is shown as written.">display-only\
                </span></figcaption>
                """)
    }

    @Test func linksLeadToPagesAnchorsFilesAndTheWeb() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        _ = try book.build()
        #expect(
            book.fragment("chapters/01-greeting.html", from: "<p>A tiny chapter", to: "</p>") == """
                <p>A tiny chapter for the site tests. It links to <a href="02-farewell.html#saying-goodbye">the \
                farewell</a>, to
                <a href="#the-code">the code below</a>, to <a href="../images/wave.svg">an image</a> and to
                <a href="https://example.com/docs">a site elsewhere</a>.</p>
                """)
    }

    @Test func pagesCarryNavigationAndRelativeRoots() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        _ = try book.build()
        #expect(
            book.lines("chapters/02-farewell.html", startingWith: "<html") == [
                "<html lang=\"en\" data-root=\"../\">"
            ])
        #expect(
            book.lines("chapters/02-farewell.html", startingWith: "<link rel=\"stylesheet\"") == [
                "<link rel=\"stylesheet\" href=\"../assets/theme.css\">"
            ])
        #expect(
            book.fragment(
                "chapters/02-farewell.html", from: "<h2 class=\"nav-heading\" id=\"nav-chapters\">",
                to: "</ul>")
                    == """
                    <h2 class="nav-heading" id="nav-chapters">Chapters</h2>
                    <ul class="nav-list" aria-labelledby="nav-chapters">
                    <li><a href="../chapters/01-greeting.html"><span class="nav-number">1</span> Greeting \
                    <span class="nav-minutes">1 min</span></a></li>
                    <li><a href="../chapters/02-farewell.html" aria-current="page"><span class="nav-number">2</span> \
                    Farewell <span class="nav-minutes">1 min</span></a></li>
                    </ul>
                    """)
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
        // Served for any missing path, the 404 page's links start at the server's root.
        #expect(
            book.lines("404.html", startingWith: "<link rel=\"stylesheet\"") == [
                "<link rel=\"stylesheet\" href=\"/assets/theme.css\">"
            ])
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

    @Test func theSnippetIndexCountsTheBlocksAndSaysHowToMeasureTesting() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        _ = try book.build()
        #expect(
            book.lines("snippets.html", startingWith: "<p>Blocks by status") == [
                "<p>Blocks by status: compiled: 4, checked: 1, unused: 1, display-only: 1.</p>"
            ])
        #expect(
            book.lines("snippets.html", startingWith: "<p>No coverage") == [
                "<p>No coverage data was found, so no block is claimed as tested. To measure it, run <code>swift "
                    + "test --enable-code-coverage</code> (or <code>./wb test</code>, once it passes that flag), then "
                    + "build the site again: <code>workbook build</code> reads <code>.build/debug/codecov/*.json</code>.</p>"
            ])
    }

    @Test func theAPIReferenceIsTitledByItsDocumentAndListedWithTheReference() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        _ = try book.build()
        #expect(
            book.lines("api.html", startingWith: "<h1") == [
                "<h1 id=\"greeting-api\">Greeting API<a class=\"heading-anchor\" href=\"#greeting-api\" "
                    + "aria-label=\"Link to this section\">#</a></h1>"
            ])
        #expect(
            book.fragment("index.html", from: "<h2 class=\"nav-heading\" id=\"nav-reference\">", to: "</ul>")
                == """
                <h2 class="nav-heading" id="nav-reference">Reference</h2>
                <ul class="nav-list" aria-labelledby="nav-reference">
                <li><a href="glossary.html">Glossary</a></li>
                <li><a href="snippets.html">Snippet index</a></li>
                <li><a href="api.html">Greeting API</a></li>
                <li><a href="print.html">The whole book on one page</a></li>
                </ul>
                """)
    }

    @Test func withoutAnOpenAPIDocumentTheAPIPageSaysSo() throws {
        let book = try TemporaryBook(chapters: ["01-a.md": "# A\n"])
        _ = try book.build()
        #expect(
            book.fragment("api.html", from: "<h1", to: "</p>") == """
                <h1 id="small-api">Small API<a class="heading-anchor" href="#small-api" aria-label="Link to this \
                section">#</a></h1>
                <p>The OpenAPI document (<code>Sources/MockServer/Resources/openapi.json</code>) is not in this \
                book yet, so there is
                no API reference to show. It appears here as soon as the file exists: build the site again.</p>
                """)
    }

    @Test func withoutAnAPIReferenceOptionThereIsNoAPIPage() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        let report = try book.build { $0.apiReference = nil }
        #expect(report.pages == Self.fixturePages.filter { $0 != "api.html" })
    }

    @Test func aThemePageIsListedOnTheHomePageAndFirstAmongTheReference() throws {
        let book = try TemporaryBook(chapters: ["01-a.md": "# A\n"])
        try FileManager.default.copyItem(
            at: TemporaryBook.theme, to: book.root.appendingPathComponent("site"))
        try book.write("site/tool.md", "# The tool\n\nTry it.\n")
        let report = try book.build {
            $0.themePages = [ThemePage(file: "tool.md", kind: "tool", homeHeading: "Try it out")]
        }
        #expect(
            report.pages == [
                "404.html", "api.html", "chapters/01-a.html", "glossary.html", "index.html", "print.html",
                "snippets.html", "tool.html",
            ])
        #expect(book.lines("tool.html", startingWith: "<body") == ["<body class=\"page-tool\">"])
        #expect(
            book.fragment("index.html", from: "<h2 id=\"try-it-out\">", to: "</ul>") == """
                <h2 id="try-it-out">Try it out<a class="heading-anchor" href="#try-it-out" aria-label="Link to this \
                section">#</a></h2>
                <ul>
                <li><a href="tool.html">The tool</a></li>
                </ul>
                """)
        #expect(
            book.fragment("index.html", from: "<h2 class=\"nav-heading\" id=\"nav-reference\">", to: "</ul>")
                == """
                <h2 class="nav-heading" id="nav-reference">Reference</h2>
                <ul class="nav-list" aria-labelledby="nav-reference">
                <li><a href="tool.html">The tool</a></li>
                <li><a href="glossary.html">Glossary</a></li>
                <li><a href="snippets.html">Snippet index</a></li>
                <li><a href="api.html">Small API</a></li>
                <li><a href="print.html">The whole book on one page</a></li>
                </ul>
                """)
    }

    @Test func aBorrowedThemeBringsNoPagesOfItsOwn() throws {
        let book = try TemporaryBook(chapters: ["01-a.md": "# A\n"])
        let report = try book.build {
            $0.themePages = [ThemePage(file: "simulator.md", kind: "simulator", homeHeading: "Elsewhere")]
        }
        #expect(
            report.pages == [
                "404.html", "api.html", "chapters/01-a.html", "glossary.html", "index.html", "print.html",
                "snippets.html",
            ])
    }

    @Test func aSnippetWhoseCheckFailsIsBadgedSo() throws {
        let book = try TemporaryBook(chapters: ["01-a.md": "# A\n\n```json\n{\"a\": \n```\n"])
        let report = try book.build()
        #expect(
            report.diagnostics.map(\.description) == [
                "warning: 1 snippet check errors, badged 'check failed'; 'workbook check' lists them",
                "warning: highlight.js not found in '\(book.root.path)/no-highlight-here' (Debian package "
                    + "libjs-highlight.js); code blocks render without highlighting",
            ])
        #expect(
            book.lines("chapters/01-a.html", startingWith: "<figcaption") == [
                "<figcaption class=\"code-header\"><span class=\"code-lang\">json</span><span class=\"badge "
                    + "badge-failed\" title=\"The 'json' checker reports an error for this snippet: run 'workbook "
                    + "check'.\">check failed (json)</span></figcaption>"
            ])
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
            book.lines("chapters/01-a.html", startingWith: "<script src") == [
                "<script src=\"../assets/vendor/highlight.min.js\" defer></script>",
                "<script src=\"../assets/site.js\" defer></script>",
            ])
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
        #expect(
            book.fragment("glossary.html", from: "<h2 id=\"aasa\">", to: "</p>\n<h2") == """
                <h2 id="aasa">AASA<a class="heading-anchor" href="#aasa" aria-label="Link to this section">#</a></h2>
                <p>The <em>association</em> file.</p>
                <p>Explained in <a href="chapters/01-a.html#the-association-file">1. Links › The association \
                file</a>.</p>
                <h2
                """)
    }
}
