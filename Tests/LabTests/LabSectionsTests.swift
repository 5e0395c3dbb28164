import Foundation
import Testing
import Weave

@testable import Lab

/// Every `read` link the lab answers lands on a heading of the book.
struct LabSectionsTests {
    static let chapters = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("chapters")

    @Test(arguments: LabSections.all)
    func eachSectionExists(_ path: String) throws {
        let parts = path.split(separator: "#").map(String.init)
        let chapter = Self.chapters.appendingPathComponent(
            String(parts[0].dropFirst("chapters/".count)).replacingOccurrences(of: ".html", with: ".md"))
        let anchors = PageAnchors.ids(ofMarkdown: try String(contentsOf: chapter, encoding: .utf8))
        #expect(anchors.contains(parts[1]), "\(path)")
    }
}
