import Foundation
import TestSupport
import Testing

@testable import Literate

/// `Book.load` keeps each chapter it read by the file's stamp: a file written again is read
/// again, even with the same size, and a chapter that failed fails the same way until it changes.
struct BookReloadTests {
    @Test func aRewrittenChapterIsReadAgainAndAnUnchangedOneIsKept() throws {
        let folder = try TemporaryFolder()
        try folder.write("chapters/01-a.md", "# A\n\nold text\n")
        try folder.write("chapters/02-b.md", "# B\n\nkept\n")
        let first = try Book.load(root: folder.url)
        try folder.write("chapters/01-a.md", "# A\n\nnew text\n")
        let second = try Book.load(root: folder.url)
        #expect(first.chapters.map(\.source) == ["# A\n\nold text\n", "# B\n\nkept\n"])
        #expect(second.chapters.map(\.source) == ["# A\n\nnew text\n", "# B\n\nkept\n"])
    }

    @Test func aChapterThatFailsFailsAgainUntilItIsFixed() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("chapters/01-a.md")
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(Array("# A\n\nbad ".utf8) + [0xFF] + Array("\n".utf8)).write(to: file)
        let failures = (0..<2).map { _ -> String? in
            do throws(Diagnostic) {
                _ = try Book.load(root: folder.url)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(
            failures == Array(repeating: "chapters/01-a.md:3:5: error: invalid UTF-8 byte 0xFF", count: 2))
        try folder.write("chapters/01-a.md", "# A\n\nfixed\n")
        #expect(try Book.load(root: folder.url).chapters.map(\.source) == ["# A\n\nfixed\n"])
    }
}
