import Foundation
import Testing

@testable import Literate

/// `chapters/SUMMARY.md`, in mdBook's form, gives the parts and the reading order
/// (source: "this book: chapter 13, Code blocks that become files") (source: "mdBook: SUMMARY.md").
struct BookSummaryTests {
    static let summaryPath = "chapters/SUMMARY.md"

    static func failure(_ text: String) -> Diagnostic? {
        do {
            _ = try BookSummary.parse(text, path: summaryPath)
            return nil
        } catch {
            return error
        }
    }

    static func error(_ message: LiterateMessage, _ line: Int, _ column: Int) -> Diagnostic {
        .error(message, at: SourceLocation(path: summaryPath, line: line, column: column))
    }

    /// mdBook's optional title line (`# Summary`) is read as the title, not as a part; a first
    /// heading followed by chapters is still the first part.
    @Test func aTitleLineBeforeTheFirstPartIsTheTitle() throws {
        let summary = try BookSummary.parse(
            "# Summary\n\n# Part I\n- [A](01-a.md)\n", path: Self.summaryPath)
        #expect(
            summary
                == BookSummary(
                    title: "Summary",
                    parts: [
                        .init(
                            title: "Part I", entries: [.init(title: "A", file: "01-a.md", line: 4, column: 7)]
                        )
                    ],
                    endLine: 5))
        let untitled = try BookSummary.parse("# Part I\n- [A](01-a.md)\n", path: Self.summaryPath)
        #expect(untitled.title == nil)
        #expect(untitled.parts.map(\.title) == ["Part I"])
    }

    @Test func partsAndChaptersAreReadInOrder() throws {
        let summary = try BookSummary.parse(
            "# Part I: The guide\n\n- [Routing](02-routing.md)\n- [Schemes](01-schemes.md)\n\n"
                + "# Part II: Inside\n- [Matchers](20-matchers.md)\n",
            path: Self.summaryPath)
        #expect(
            summary
                == BookSummary(
                    parts: [
                        .init(
                            title: "Part I: The guide",
                            entries: [
                                .init(title: "Routing", file: "02-routing.md", line: 3, column: 13),
                                .init(title: "Schemes", file: "01-schemes.md", line: 4, column: 13),
                            ]),
                        .init(
                            title: "Part II: Inside",
                            entries: [.init(title: "Matchers", file: "20-matchers.md", line: 7, column: 14)]),
                    ],
                    endLine: 8))
    }

    @Test func aMalformedSummaryIsAnErrorAtItsLine() {
        #expect(Self.failure("# Part I\nsome prose\n") == Self.error(.summaryLine, 2, 1))
        #expect(Self.failure("- [A](a.md)\n") == Self.error(.summaryEntryBeforePart, 1, 1))
        #expect(Self.failure("# Part I\n- [A](../a.md)\n") == Self.error(.summaryLink(file: "../a.md"), 2, 7))
        #expect(
            Self.failure("# Part I\n- [A](a.md)\n- [B](a.md)\n")
                == Self.error(.summaryListedTwice(file: "a.md", firstLine: 2), 3, 7))
        #expect(Self.failure("\n\n") == Self.error(.summaryLine, 1, 1))
    }

    @Test func theBookFollowsTheSummaryAndKnowsItsParts() throws {
        let book = try TestBook(
            [
                "01-a.md": "# A\n", "02-b.md": "# B\n",
                "SUMMARY.md": "# Guide\n- [B](02-b.md)\n\n# Inside\n- [A](01-a.md)\n",
            ])
        let loaded = try Book.load(root: book.root, inlines: false)
        #expect(loaded.chapters.map(\.path) == ["chapters/02-b.md", "chapters/01-a.md"])
        #expect(
            loaded.parts == [
                Book.Part(title: "Guide", chapters: ["chapters/02-b.md"]),
                Book.Part(title: "Inside", chapters: ["chapters/01-a.md"]),
            ])
    }

    @Test func aListedChapterThatIsMissingOrAChapterNotListedIsAnError() throws {
        let missing = try TestBook([
            "01-a.md": "# A\n", "SUMMARY.md": "# Guide\n- [A](01-a.md)\n- [Z](09-z.md)\n",
        ])
        #expect(throws: Self.error(.summaryMissingChapter(file: "09-z.md"), 3, 7)) {
            try Book.load(root: missing.root, inlines: false)
        }
        let unlisted = try TestBook([
            "01-a.md": "# A\n", "02-b.md": "# B\n", "SUMMARY.md": "# Guide\n- [A](01-a.md)\n",
        ])
        #expect(throws: Self.error(.summaryUnlistedChapter(path: "chapters/02-b.md"), 3, 1)) {
            try Book.load(root: unlisted.root, inlines: false)
        }
    }

    @Test func withoutASummaryFileNameOrderStays() throws {
        let book = try TestBook(["02-b.md": "# B\n", "01-a.md": "# A\n"])
        let loaded = try Book.load(root: book.root, inlines: false)
        #expect(loaded.chapters.map(\.path) == ["chapters/01-a.md", "chapters/02-b.md"])
        #expect(loaded.parts == [])
    }
}
