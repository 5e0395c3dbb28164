import Foundation
import Literate
import Testing

@testable import Weave

/// "Tested" is measured: llvm-cov's line counts on generated files, mapped to chapter lines.
struct CoverageTests {
    typealias Segment = LineCoverage.Segment

    static func segment(_ line: Int, _ column: Int, _ count: Int, entry: Bool = true, gap: Bool = false)
        -> Segment
    {
        Segment(line: line, column: column, count: count, hasCount: true, isRegionEntry: entry, isGap: gap)
    }

    static func end(_ line: Int, _ column: Int) -> Segment {
        Segment(line: line, column: column, count: 0, hasCount: false, isRegionEntry: false, isGap: false)
    }

    @Test func linesCountTheRegionInEffectAndTheRegionsStartingOnThem() {
        // A function over lines 3-8 that ran once, whose code after an `if` (line 7) never ran,
        // then an unused function on lines 10-12 (the shape `swift test --enable-code-coverage`
        // exports). Line 6 starts in the `if`'s region, so it counts as run, as llvm-cov says.
        let segments = [
            Self.segment(3, 35, 1), Self.segment(4, 8, 1), Self.segment(4, 13, 1, entry: false),
            Self.segment(6, 6, 0), Self.segment(7, 1, 1, entry: false), Self.end(8, 2),
            Self.segment(10, 29, 0), Self.end(12, 2),
        ]
        #expect(LineCoverage.executedLines(segments) == [3, 4, 5, 6, 8])
    }

    @Test func skippedCodeAndLinesAfterAGapDoNotCount() {
        let segments = [
            Self.segment(1, 1, 5),
            Segment(line: 2, column: 1, count: 0, hasCount: false, isRegionEntry: true, isGap: false),
            Self.segment(3, 1, 5), Self.segment(3, 10, 0, gap: true), Self.end(5, 1),
        ]
        #expect(LineCoverage.executedLines(segments) == [1, 3])
    }

    @Test func anExportIsReadWholeAndRejectedWhenItIsNotOne() throws {
        let json = """
            {"type": "llvm.coverage.json.export", "version": "3.0.1", "data": [{"files": [
              {"filename": "/repo/Sources/A/A.swift", "segments": [[2, 1, 3, true, true, false], [3, 2, 0, false, false, false]],
               "summary": {}}
            ], "functions": [], "totals": {}}]}
            """
        #expect(try LineCoverage(json: Data(json.utf8)).coveredLines == ["/repo/Sources/A/A.swift": [2, 3]])
        #expect(throws: WeaveMessage.self) {
            try LineCoverage(json: Data("{\"type\": \"other\", \"data\": []}".utf8))
        }
        #expect(throws: WeaveMessage.self) { try LineCoverage(json: Data("not json".utf8)) }
    }

    /// Tangles a two-chapter book, pretends coverage saw one line of the generated file run,
    /// and expects that line's chapter line back.
    @Test func coveredGeneratedLinesMapBackToChapterLines() throws {
        // `source:` strings of test files are citations (chapter 13), so the text comes in a variable.
        let markdown =
            "# A\n\n```swift {file=Sources/A/A.swift}\nenum A {\n    <<body>>\n}\n```\n\n"
            + "```swift {#body}\nstatic func f() -> Int { 1 }\n```\n"
        let chapter = Chapter(path: "chapters/01-a.md", source: markdown)
        let result = Tangler.tangle(Book(root: URL(fileURLWithPath: "/repo"), chapters: [chapter]))
        let file = try #require(result.files.first)
        let physical = try #require(
            file.content.split(separator: "\n", omittingEmptySubsequences: false)
                .firstIndex { $0.contains("static func f()") })
        let coverage = LineCoverage(coveredLines: ["/elsewhere/Sources/A/A.swift": [physical + 1]])
        #expect(
            coverage.chapterLines(of: result.files) == [SourceLocation(path: "chapters/01-a.md", line: 10)])
    }

    @Test func aBlockWithACoveredLineIsBadgedTested() throws {
        let book = try TemporaryBook(chapters: [
            "01-a.md": "# A\n\n```swift {file=Sources/A/A.swift}\nenum A {\n    <<body>>\n}\n```\n\n"
                + "```swift {#body}\nstatic func f() -> Int { 1 }\n```\n"
        ])
        let tangled = Tangler.tangle(try Book.load(root: book.root))
        let file = try #require(tangled.files.first)
        let physical = try #require(
            file.content.split(separator: "\n", omittingEmptySubsequences: false)
                .firstIndex { $0.contains("static func f()") })
        try book.write(
            ".build/debug/codecov/Package.json",
            """
            {"type": "llvm.coverage.json.export", "version": "3.0.1", "data": [{"files": [
              {"filename": "\(book.root.path)/Sources/A/A.swift",
               "segments": [[\(physical + 1), 23, 4, true, true, false], [\(physical + 1), 30, 0, false, false, false]]}
            ]}]}
            """)
        let report = try book.build()
        #expect(report.coverageFile == ".build/debug/codecov/Package.json")
        #expect(report.testedBlocks == 1)
        #expect(
            book.lines("chapters/01-a.html", startingWith: "<figcaption") == [
                "<figcaption class=\"code-header\"><span class=\"code-lang\">swift</span><span class=\"code-file\">"
                    + "Sources/A/A.swift</span><span class=\"badge badge-compiled\" title=\"Tangled into a Swift file "
                    + "that the package compiles on every change.\">compiled</span></figcaption>",
                "<figcaption class=\"code-header\"><span class=\"code-lang\">swift</span><a class=\"code-chunk\" "
                    + "href=\"#chunk-body\">⟨body⟩</a><span class=\"code-file\">Sources/A/A.swift</span><span "
                    + "class=\"badge badge-tested\" title=\"Compiled, and at least one of its lines ran in the test "
                    + "suite (measured with code coverage).\">tested</span></figcaption>",
            ])
        // The snippet index names the data and gains a Tested column.
        Snapshot.expect(try #require(book.output("snippets.html")), matches: "coverage/snippets.html")
    }
}
