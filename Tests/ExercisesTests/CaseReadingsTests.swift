import Foundation
import Testing

@testable import Exercises

/// A failing case links its own rule's section, the one its `source:` names; other cases link
/// their function's `Read:` lines. Read from the book's own exercise 1.
struct CaseReadingsTests {
    static let book = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func exercise(_ name: String) throws -> Exercise {
        try ExerciseCatalog.load(root: book).exercise(named: name)
    }

    /// The line of a chapter's heading, as an editor counts.
    static func line(of heading: String, in chapter: String) throws -> Int {
        let text = try String(contentsOf: book.appendingPathComponent(chapter), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0 == heading }) + 1
    }

    static func failure(_ testCase: String?, name: String) -> TestResult {
        TestResult(
            module: "ParseASchemeLinkTests", name: name, testCase: testCase, passed: false,
            issues: [TestIssue(location: nil, message: "failed", details: [])])
    }

    @Test func aCaseWithACrossReferenceLinksItsOwnSection() throws {
        let readings = TestReadings(exercise: try Self.exercise("1"), bookRoot: Self.book)
        let links = readings.links(
            for: Self.failure("trailing-slash: myapp://product/42/", name: "aLinkOpensItsScreen"))
        let line = try Self.line(of: "## Patterns", in: "chapters/02-routing.md")
        #expect(links == [SectionLink(file: "chapters/02-routing.md", anchor: "patterns", line: line)])
        #expect(
            links.map { $0.text(origin: nil) }
                == ["chapters/02-routing.html#patterns  (chapters/02-routing.md:\(line))"])
        #expect(
            links.map { $0.text(origin: "http://localhost:8080") }
                == [
                    "http://localhost:8080/chapters/02-routing.html#patterns  (chapters/02-routing.md:\(line))"
                ])
    }

    @Test func theCaseIsFoundByTheIdItsDescriptionStartsWith() throws {
        let readings = TestReadings(exercise: try Self.exercise("1"), bookRoot: Self.book)
        #expect(readings.caseSource(for: "trailing-slash: myapp://product/42/")?.id == "trailing-slash")
        #expect(readings.caseSource(for: "trailing-slash")?.id == "trailing-slash")
        #expect(readings.caseSource(for: "trailing-slashes-everywhere") == nil, "a longer word is not the id")
    }

    /// Without a case, the function's `Read:` lines, each with its heading's line.
    @Test func aTestWithoutACaseLinksItsFunctionsSections() throws {
        let readings = TestReadings(exercise: try Self.exercise("1"), bookRoot: Self.book)
        let entry = try #require(readings.entries.first { !$0.links.isEmpty })
        let links = readings.links(for: Self.failure(nil, name: entry.function))
        #expect(links.map(\.page) == entry.links.map { $0.replacingOccurrences(of: ".md#", with: ".html#") })
        #expect(links.allSatisfy { $0.line != nil })
    }

    @Test func caseSourcesAreReadWithTheirIdsFromATestFile() {
        let text = """
            let cases = [
                Case(id: "a", source: "this book: chapter 02, Patterns", value: 1),
                Case(
                    id: "b", uuid: "not-an-id",
                    source: "RFC 3986 §3.1"),
                Case(id: "c", value: 3),
            ]
            """
        #expect(
            TestReadings.caseSources(in: text, file: "T.swift") == [
                .init(id: "a", source: "this book: chapter 02, Patterns", file: "T.swift", line: 2),
                .init(id: "b", source: "RFC 3986 §3.1", file: "T.swift", line: 4),
            ])
    }
}
