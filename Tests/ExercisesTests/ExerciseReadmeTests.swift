import Foundation
import Testing

@testable import Exercises

/// How the exercise commands read a README's hints and a test file's `Read:` lines.
struct ExerciseReadmeTests {
    @Test func foldedHintsAreReadInOrderWithTheirMarkdown() {
        let readme = """
            # Title

            ## Hints

            <details>
            <summary>Hint 1</summary>

            Use `+`.

            ### Not a new hint

            </details>

            <details><summary>Hint 2</summary>

            The body is `a + b`.
            </details>

            ## Afterwards

            Not a hint.
            """
        #expect(
            ExerciseReadme.hints(in: readme) == ["Use `+`.\n\n### Not a new hint", "The body is `a + b`."])
    }

    @Test func theOlderHeadingFormIsStillRead() {
        let readme = "## Hints\n\n### Hint 1\n\nOne.\n\n### Hint 2\n\nTwo.\n\n## Next\n\nNo.\n"
        #expect(ExerciseReadme.hints(in: readme) == ["One.", "Two."])
    }

    @Test func aDetailsBlockThatIsNotAHintIsLeftAlone() {
        let readme = "## Notes\n\n<details>\n<summary>Solution sketch</summary>\n\nNo.\n\n</details>\n"
        #expect(ExerciseReadme.hints(in: readme).isEmpty)
    }

    /// A fence closes only with a fence line without an info string (CommonMark 0.31, 4.5), so a
    /// `# line` after a "```swift" line inside a block is still code, not the title.
    @Test func aHeadingInsideACodeBlockIsNotOne() {
        let readme = "```\n```swift\n# Not the title\n```\n\n    # Nor this\n\n# The title\n\n## Hints\n"
        #expect(ExerciseReadme.title(in: readme) == "The title")
        #expect(ExerciseReadme.section(named: "Hints", in: readme) == "")
    }

    @Test func readLinesBelongToTheTestTheyDocument() {
        let text = """
            struct T {
                /// Matching is whole.
                /// Read: chapters/03-x.md#the-pattern-language
                /// Read: chapters/16-y.md#the-pattern-engine
                @Test(arguments: cases)
                func aPatternMatches(_ c: Case) {
                    #expect(c.ok)
                }

                @Test func noLink() {}

                /// Read: chapters/03-x.md#not-a-test
                static let cases: [Case] = []

                /// Read: chapters/02-r.md#routes
                @Test("A display name") static func named() {}
            }
            """
        let entries = TestReadings.entries(in: text, file: "exercises/06-x/Tests/T.swift")
        #expect(
            entries == [
                .init(
                    file: "exercises/06-x/Tests/T.swift", function: "aPatternMatches", line: 6,
                    links: ["chapters/03-x.md#the-pattern-language", "chapters/16-y.md#the-pattern-engine"]),
                .init(file: "exercises/06-x/Tests/T.swift", function: "noLink", line: 10, links: []),
                .init(
                    file: "exercises/06-x/Tests/T.swift", function: "named", line: 16,
                    links: ["chapters/02-r.md#routes"]),
            ])
        let readings = TestReadings(
            entries: entries, sections: BookSections(root: URL(fileURLWithPath: "/nonexistent-book")))
        let failure = TestResult(
            module: "XTests", name: "A display name", testCase: nil, passed: false,
            issues: [TestIssue(location: "exercises/06-x/Tests/T.swift:16", message: "failed", details: [])])
        // A book without the chapter: the link is the page alone, without a line.
        #expect(
            readings.links(for: failure).map { $0.text(origin: nil) } == ["chapters/02-r.html#routes"],
            "found by the issue's line")
        let crashed = TestResult(module: "XTests", name: "aPatternMatches", passed: false, issues: [])
        #expect(readings.links(for: crashed).count == 2, "found by the function's name")
    }

    @Test func headingAnchorsAreTheSitesAndSkipCodeBlocks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("c.md")
        try Data("# Title\n\n## The `li2_cid` token\n\n```sh\n# not a heading\n```\n\n## Title\n".utf8).write(
            to: file)
        #expect(TestReadings.headingAnchors(of: file) == ["title", "the-li2_cid-token", "title-1"])
        #expect(TestReadings.headingAnchors(of: folder.appendingPathComponent("none.md")) == nil)
    }
}
