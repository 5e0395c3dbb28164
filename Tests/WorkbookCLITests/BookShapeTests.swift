import Foundation
import Literate
import Testing

/// The shape this book promises its readers (README, "Who starts where"; chapter 0, "Two ways
/// through the book"): a guide short enough to read in an afternoon, its internals beside it.
///
/// Lines are counted as the limits were set: non-blank lines, a fence line counting as code.
struct BookShapeTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// One chapter's figures.
    struct Shape: Equatable, CustomStringConvertible {
        var path: String
        var lines = 0
        var prose = 0
        /// The lines of the blocks that write a file under `Tests/`, by their fence's line.
        var testBlocks: [Int] = []
        var headings: [String] = []
        var text = ""

        var proseShare: Double { lines == 0 ? 0 : Double(prose) / Double(lines) }
        var description: String {
            "\(path): \(lines) lines, \(prose) of them prose (\(Int((proseShare * 100).rounded()))%)"
        }

        init(path: String, text: String) {
            self.path = path
            self.text = text
            var fence: Substring?
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.drop { $0 == " " }
                let marker = trimmed.prefix { $0 == "`" || $0 == "~" }
                if let open = fence {
                    lines += trimmed.isEmpty ? 0 : 1
                    if marker.count >= open.count, marker.first == open.first,
                        trimmed.dropFirst(marker.count).allSatisfy({ $0 == " " })
                    {
                        fence = nil
                    }
                    continue
                }
                if marker.count >= 3 {
                    fence = marker
                    lines += 1
                    if trimmed.contains("file=Tests/") { testBlocks.append(index + 1) }
                    continue
                }
                guard !trimmed.isEmpty else { continue }
                lines += 1
                prose += 1
                if trimmed.hasPrefix("## ") { headings.append(String(trimmed.dropFirst(3))) }
            }
        }
    }

    static func parts() throws -> [(title: String, chapters: [Shape])] {
        let book = try Book.load(root: repository)
        let sources = Dictionary(uniqueKeysWithValues: book.chapters.map { ($0.path, $0.source) })
        return book.parts.map { part in
            (part.title, part.chapters.map { Shape(path: $0, text: sources[$0] ?? "") })
        }
    }

    @Test func theSummaryHasTheGuideFirstAndTheInternalsSecond() throws {
        let titles = try Self.parts().map(\.title)
        #expect(titles == ["Part I: The guide", "Part II: Inside the workbook"])
    }

    @Test func everyGuideChapterIsShortAndMostlyProse() throws {
        let guide = try #require(try Self.parts().first).chapters
        for chapter in guide {
            #expect(chapter.lines <= 800, "\(chapter)")
            #expect(chapter.proseShare >= 0.40, "\(chapter)")
        }
        let total = guide.reduce(0) { $0 + $1.lines }
        #expect(total <= 6_000, "Part I has \(total) lines")
    }

    @Test func everyGuideChapterOpensWithWhatTheReaderWillBeAbleToDo() throws {
        let guide = try #require(try Self.parts().first).chapters
        for chapter in guide {
            let afterTitle = chapter.text.components(separatedBy: "\n").dropFirst().joined(separator: "\n")
            let opening = afterTitle.trimmingCharacters(in: .whitespacesAndNewlines).prefix(300)
            #expect(opening.contains("you will"), "\(chapter.path) opens with: \(opening.prefix(80))")
        }
    }

    @Test func theGuideHoldsNoneOfTheBooksOwnTests() throws {
        let guide = try #require(try Self.parts().first).chapters
        for chapter in guide {
            #expect(chapter.testBlocks.isEmpty, "\(chapter.path): blocks at lines \(chapter.testBlocks)")
        }
    }

    @Test func everyGuideChapterEndsWithItsExercises() throws {
        let guide = try #require(try Self.parts().first).chapters
        for chapter in guide {
            #expect(chapter.headings.last == "Practice", "\(chapter.path)")
            let practice = chapter.text.components(separatedBy: "\n## Practice\n").last ?? ""
            #expect(practice.contains("](../exercises/"), "\(chapter.path) links no exercise")
        }
    }

    @Test func everyInternalsChapterNamesTheGuideChapterItServes() throws {
        let parts = try Self.parts()
        let guide = try #require(parts.first).chapters.map(\.path)
        for chapter in parts.dropFirst().flatMap(\.chapters) {
            // The first paragraph after the title.
            let paragraphs = chapter.text.components(separatedBy: "\n\n")
            let opening = paragraphs.dropFirst().first ?? ""
            let served = guide.filter { opening.contains("](\(($0 as NSString).lastPathComponent))") }
            #expect(
                !served.isEmpty, "\(chapter.path) does not open with a link to the guide chapter it serves")
        }
    }
}
