import Foundation
import Literate
import Testing

@testable import Weave

/// Links are resolved like GitHub resolves them (relative to the Markdown file) and checked
/// against the pages and anchors the site will have.
struct LinkCheckerTests {
    static let resolver = LinkResolver(
        pages: [
            "chapters/01-a.md": .init(output: "chapters/01-a.html", anchors: ["intro", "chunk-x"]),
            "chapters/02-b.md": .init(output: "chapters/02-b.html", anchors: ["setup"]),
            "exercises/01-try/README.md": .init(output: "exercises/01-try.html", anchors: []),
            "glossary.md": .init(output: "glossary.html", anchors: ["aasa"]),
        ],
        fileExists: { ["images/wave.svg", "Sources/Greeter/Greeter.swift"].contains($0) })

    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var source: String
        var from: String
        var destination: String
        var expected: Result<LinkTarget, WeaveMessage>

        var testDescription: String { id }
    }

    static let cases: [Case] = [
        Case(
            id: "sibling chapter with anchor",
            source: "this book: the site's links are relative, so pages work from files and on GitHub",
            from: "chapters/02-b.md",
            destination: "01-a.md#intro",
            expected: .success(.page(output: "chapters/01-a.html", anchor: "intro"))),
        Case(
            id: "same page anchor", source: "RFC 3986 §4.4",
            from: "chapters/01-a.md",
            destination: "#chunk-x",
            expected: .success(.page(output: "chapters/01-a.html", anchor: "chunk-x"))),
        Case(
            id: "exercise folder",
            source: "this book: the site's links are relative, so pages work from files and on GitHub",
            from: "chapters/01-a.md",
            destination: "../exercises/01-try/",
            expected: .success(.page(output: "exercises/01-try.html", anchor: nil))
        ),
        Case(
            id: "percent-encoded anchor", source: "RFC 3986 §2.3", from: "chapters/02-b.md",
            destination: "01-a.md#%69ntro",
            expected: .success(.page(output: "chapters/01-a.html", anchor: "intro"))),
        Case(
            id: "book file",
            source: "this book: the site's links are relative, so pages work from files and on GitHub",
            from: "chapters/01-a.md",
            destination: "../images/wave.svg",
            expected: .success(.file(path: "images/wave.svg", fragment: nil))),
        Case(
            id: "external", source: "RFC 3986 §3.1", from: "chapters/01-a.md",
            destination: "https://developer.apple.com/documentation", expected: .success(.external)),
        Case(
            id: "mail", source: "RFC 3986 §3.1", from: "chapters/01-a.md",
            destination: "mailto:team@example.com",
            expected: .success(.external)),
        Case(
            id: "missing page", source: "this book: the build fails on a link that leads nowhere",
            from: "chapters/01-a.md",
            destination: "03-c.md",
            expected: .failure(.brokenLink(destination: "03-c.md", missing: "chapters/03-c.md"))
        ),
        Case(
            id: "missing anchor", source: "this book: the build fails on a link that leads nowhere",
            from: "chapters/01-a.md",
            destination: "02-b.md#teardown",
            expected: .failure(
                .missingAnchor(destination: "02-b.md#teardown", page: "chapters/02-b.md", anchor: "teardown"))
        ),
        Case(
            id: "absolute path",
            source: "this book: the site's links are relative, so pages work from files and on GitHub",
            from: "chapters/01-a.md",
            destination: "/chapters/02-b.html",
            expected: .failure(.absoluteLink(destination: "/chapters/02-b.html"))),
        Case(
            id: "outside the book", source: "this book: the build fails on a link that leads nowhere",
            from: "chapters/01-a.md",
            destination: "../../secrets.md",
            expected: .failure(.linkLeavesBook(destination: "../../secrets.md"))),
        Case(
            id: "a Markdown file that is no page",
            source: "this book: the build fails on a link that leads nowhere",
            from: "chapters/01-a.md",
            destination: "../README.md",
            expected: .failure(.brokenLink(destination: "../README.md", missing: "README.md"))),
    ]

    @Test(arguments: cases) func linksResolveToPagesFilesOrErrors(_ item: Case) {
        #expect(Self.resolver.resolve(item.destination, from: item.from) == item.expected)
    }

    /// A link's path joins its page's folder; `.`, `..` and empty components are normalised
    /// (the plain case takes a shortcut that must give the same), and climbing above the book fails.
    @Test func pathsJoinTheirPagesFolder() {
        let cases: [(folder: String, relative: String, joined: String?)] = [
            ("chapters", "03-x.md", "chapters/03-x.md"),
            ("", "README.md", "README.md"),
            ("exercises/01-try", "images/a.svg", "exercises/01-try/images/a.svg"),
            ("chapters", "../exercises/01-try/README.md", "exercises/01-try/README.md"),
            ("chapters", "./a.md", "chapters/a.md"),
            ("chapters", "a//b.md", "chapters/a/b.md"),
            ("chapters", "sub/", "chapters/sub"),
            ("chapters", ".hidden/x.md", "chapters/.hidden/x.md"),
            ("chapters", "a/./b/../c.md", "chapters/a/c.md"),
            ("chapters", "..", ""),
            ("chapters/việt", "../ảnh/./b.md", "chapters/ảnh/b.md"),
            ("chapters", ".../x.md", "chapters/.../x.md"),
            ("", "../x.md", nil),
            ("chapters/deep", "../../../x.md", nil),
        ]
        #expect(cases.map { LinkResolver.join($0.folder, $0.relative) } == cases.map(\.joined))
        let schemes = [
            "https://x.test", "mailto:a@b.test", "1http:x", "a+b.c-d:x", "ç:x", "03-x.md", ":x", "A:b",
        ]
        #expect(schemes.map(LinkResolver.hasScheme) == [true, true, false, true, false, false, false, true])
    }

    @Test func hrefsAreRelativeToThePageThatHoldsThem() {
        let linker = Linker(from: "chapters/01-a.html")
        #expect(linker.href(page: "chapters/02-b.html", anchor: "setup") == "02-b.html#setup")
        #expect(linker.href(page: "chapters/01-a.html", anchor: "intro") == "#intro")
        #expect(linker.href(page: "glossary.html", anchor: nil) == "../glossary.html")
        #expect(
            linker.href(.file(path: "images/wave.svg", fragment: nil), original: "x") == "../images/wave.svg")
        #expect(
            Linker(from: "index.html").href(page: "exercises/01-try.html", anchor: nil)
                == "exercises/01-try.html")
        #expect(Linker.root(from: "chapters/01-a.html") == "../")
        #expect(Linker.root(from: "index.html") == "")
    }

    @Test func onThePrintPageIDsArePrefixedAndLinksLeadIntoThePage() {
        let chapter = """
            <h2 id="intro">Intro<a class="heading-anchor" href="#intro">#</a></h2>
            <p><a href="02-b.html#setup">b</a>, <a href="02-b.html">all of b</a>, <a href="../glossary.html#aasa">g</a>, \
            <img src="../images/wave.svg" alt="w" />, <a href="https://example.com/#x">out</a>, \
            <a href="notes/x.txt">notes</a>, <code>id="not-an-attribute"</code></p>
            """
        var output: [UInt8] = []
        PrintRewriter(
            prefix: "01-a--", chapterPrefixes: ["01-a.html": "01-a--", "02-b.html": "02-b--"],
            folder: "chapters/"
        )
        .rewrite(Array(chapter.utf8), into: &output)
        #expect(
            String(decoding: output, as: UTF8.self) == """
                <h2 id="01-a--intro">Intro<a class="heading-anchor" href="#01-a--intro">#</a></h2>
                <p><a href="#02-b--setup">b</a>, <a href="#02-b--top">all of b</a>, <a href="glossary.html#aasa">g</a>, \
                <img src="images/wave.svg" alt="w" />, <a href="https://example.com/#x">out</a>, \
                <a href="chapters/notes/x.txt">notes</a>, <code>id="not-an-attribute"</code></p>
                """)
    }

    @Test func linkPositionsPointAtTheirBracketsOnContinuationLines() {
        let markdown = "Intro [a](x.md) and\n   more [b](y.md)\n\n> quoted\n> ![c](z.png)\n"
        let links = LinkCollector.collect(MarkdownParser.parse(markdown), source: SourceText(markdown))
        #expect(
            links == [
                PageLink(destination: "x.md", line: 1, column: 7),
                PageLink(destination: "y.md", line: 2, column: 9),
                PageLink(destination: "z.png", line: 5, column: 3),
            ])
    }

    @Test func aBrokenLinkFailsTheBuildAtItsPosition() throws {
        let book = try TemporaryBook(chapters: [
            "01-a.md":
                "# A\n\n## Setup\n\nSee [b](02-b.md#missing) and\n  [nothing](03-c.md), [ok](02-b.md#teardown).\n",
            "02-b.md": "# B\n\n## Teardown\n\n[Up](/index.html)\n",
        ])
        let report = try book.build()
        #expect(
            report.diagnostics.filter { $0.severity == .error }.map(\.description) == [
                "chapters/01-a.md:5:5: error: broken link '02-b.md#missing': 'chapters/02-b.md' has no heading or "
                    + "anchor 'missing'",
                "chapters/01-a.md:6:3: error: broken link '03-c.md': no page or file 'chapters/03-c.md' in the book",
                "chapters/02-b.md:5:1: error: broken link '/index.html': a path starting with '/' breaks when the "
                    + "site is opened from files; write it relative to this page",
            ])
        #expect(report.hasErrors)
    }

    @Test func linksToChunksAndCodeBlocksAreAnchorsToo() throws {
        let book = try TemporaryBook(chapters: [
            "01-a.md":
                "# A\n\n```swift {#shared-value}\nlet x = 1\n```\n\nSee [the shared value](#chunk-shared-value), [code](02-b.md#code-3).\n",
            "02-b.md": "# B\n\n```swift {file=Sources/B/B.swift}\n<<shared-value>>\n```\n",
        ])
        let report = try book.build()
        #expect(report.diagnostics.filter { $0.severity == .error }.isEmpty, "\(report.diagnostics)")
        #expect(
            book.lines("chapters/01-a.html", startingWith: "<p>See") == [
                "<p>See <a href=\"#chunk-shared-value\">the shared value</a>, <a href=\"02-b.html#code-3\">code</a>.</p>"
            ])
    }
}
