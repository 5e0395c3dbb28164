import Foundation
import Literate
import Testing

@testable import LiveSite

/// The Sources page points to the chapter that explains how citations are written: the first
/// chapter with a level-2 heading of that name, found in its text
/// (source: "this book: chapter 13, Sources and citations").
struct BookSourcePagesTests {
    static func book(_ sources: [String]) -> Book {
        Book(
            root: URL(fileURLWithPath: "/book"),
            chapters: sources.enumerated().map {
                Chapter(path: "chapters/0\($0.offset)-c.md", source: $0.element)
            })
    }

    @Test func theFirstChapterWithTheHeadingExplainsTheLabels() {
        let book = Self.book([
            "# One\n\nSources and citations are explained later.\n",
            "# Two\n\n### Sources and citations\n\nA level-3 heading is not the section.\n",
            "# Three\n\n## Sources and citations\n\nHere.\n",
            "# Four\n\n## Sources and citations\n\nToo late.\n",
        ])
        #expect(BookSourcePages.explainingChapter(book) == "chapters/02-c.md")
    }

    @Test func aBookWithoutTheSectionHasNoExplainingChapter() {
        #expect(
            BookSourcePages.explainingChapter(
                Self.book(["# One\n\n## Sources\n", "## Sources and citations"])) == nil)
        #expect(BookSourcePages.explainingChapter(Self.book([])) == nil)
        #expect(BookSourcePages.explainingChapter(Self.book([""])) == nil)
    }
}
