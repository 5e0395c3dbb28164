import Foundation
import Testing

@testable import Weave

/// Reading times and folded code blocks (chapter 0, "Two ways through the book").
struct ReadingAidsTests {
    @Test func readingTimeWeighsWordsAndOpenCodeLines() {
        #expect(ReadingTime.minutes(words: 0, openCodeLines: 0) == 1)
        #expect(ReadingTime.minutes(words: 200, openCodeLines: 0) == 1)
        #expect(ReadingTime.minutes(words: 201, openCodeLines: 0) == 2)
        #expect(ReadingTime.minutes(words: 0, openCodeLines: 40) == 2)
        #expect(ReadingTime.minutes(words: 1_000, openCodeLines: 100) == 10)
    }

    @Test func proseWordsLeaveCodeBlocksAndMarkupOut() {
        let markdown = """
            # A title

            Two words, then a list:

            - one item
            | --- | --- |

            ````markdown
            ```swift
            not counted
            ```
            ````

            ~~~
            nor this
            ~~~
            last
            """
        #expect(ReadingTime.proseWords(markdown) == 10)
    }

    @Test func aFoldedBlockIsSummarisedByItsTestsOrItsLabel() {
        let words = TemporaryBook.words
        let tests = ["@Test func a() {}", "    @Test(arguments: cases)", "func testOld() {}", "let x = 1"]
        #expect(
            CodeFold.summary(lines: tests, label: "T.swift", isTest: true, words: words) == "3 tests, 4 lines"
        )
        #expect(
            CodeFold.summary(lines: ["let x = 1"], label: "⟨table⟩", isTest: true, words: words)
                == "⟨table⟩, 1 line")
        #expect(
            CodeFold.summary(lines: tests, label: "M.swift", isTest: false, words: words)
                == "M.swift, 4 lines")
        #expect(CodeFold.folds(targets: ["Tests/A/B.swift"], lineCount: 3))
        #expect(CodeFold.folds(targets: ["Sources/A/B.swift"], lineCount: 61))
        #expect(!CodeFold.folds(targets: ["Sources/A/B.swift"], lineCount: 60))
    }

    @Test func theSecondPartFoldsTestsAndLongBlocksAndThePrintPageOpensThem() throws {
        let long = (1...61).map { "let value\($0) = \($0)" }.joined(separator: "\n")
        let book = try TemporaryBook(
            chapters: [
                "01-guide.md": """
                # Guide

                ```swift {file=Tests/GuideTests/GuideTests.swift}
                @Test func guide() {}
                ```
                """,
                "02-inside.md": """
                # Inside

                ```swift {file=Tests/InsideTests/InsideTests.swift}
                @Test func one() {}
                @Test func two() {}
                ```

                ```swift {file=Sources/Inside/Long.swift}
                \(long)
                ```

                ```swift {file=Sources/Inside/Short.swift}
                let short = 1
                ```
                """,
            ],
            files: [
                "chapters/SUMMARY.md": """
                # Part I: Guide

                - [Guide](01-guide.md)

                # Part II: Inside

                - [Inside](02-inside.md)
                """
            ])
        _ = try book.build()
        let guide = try #require(book.output("chapters/01-guide.html"))
        #expect(!guide.contains("code-fold"))
        let inside = try #require(book.output("chapters/02-inside.html"))
        let summaries = inside.components(separatedBy: "<summary class=\"code-fold-summary\">").dropFirst()
            .map { $0.prefix { $0 != "<" } }
        #expect(summaries == ["2 tests, 2 lines", "Long.swift, 61 lines"])
        Snapshot.expect(inside, matches: "folding/chapters/02-inside.html")
        let print = try #require(book.output("print.html"))
        #expect(print.components(separatedBy: "<details class=\"code-fold\" open>").count == 3)
        Snapshot.expect(print, matches: "folding/print.html")
    }
}
