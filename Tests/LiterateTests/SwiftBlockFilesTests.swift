import Foundation
import Testing

@testable import Literate

/// Swift blocks written behind `#sourceLocation` directives, and compiler messages placed back.
struct SwiftBlockFilesTests {
    static func block(_ chapter: String, contentLine: Int, contentColumn: Int = 1, _ lines: [String])
        -> CodeBlock
    {
        var attributes = BlockAttributes()
        attributes.language = "swift"
        return CodeBlock(
            chapter: chapter, location: SourceLocation(path: chapter, line: contentLine - 1),
            contentLine: contentLine, contentColumn: contentColumn, info: "swift", attributes: attributes,
            lines: lines, isFenced: true)
    }

    @Test func eachBlockIsWrittenBehindADirectiveNamingItsChapterLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swift-block-files-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try SwiftBlockFiles.write(
            [Self.block("chapters/01-a.md", contentLine: 4, ["let a = 1", "<<more>>"])], in: folder
        ) { $0.hasPrefix("<<") ? "// " + $0 : $0 }
        #expect(files.paths == [folder.appendingPathComponent("block0.swift").path])
        let text = try String(contentsOfFile: files.paths[0], encoding: .utf8)
        #expect(text == "#sourceLocation(file: \"chapters/01-a.md\", line: 4)\nlet a = 1\n// <<more>>\n")
    }

    @Test func messagesArePlacedOnTheirBlockLineAndNotesAreDropped() {
        let files = SwiftBlockFiles(
            blocks: [
                Self.block("chapters/01-a.md", contentLine: 4, ["import Kit", "Kit.go(x: 1)"]),
                Self.block("chapters/01-a.md", contentLine: 10, contentColumn: 4, ["let y = 2", "}"]),
            ],
            paths: ["/tmp/b/block0.swift", "/tmp/b/block1.swift"])
        let output = """
            chapters/01-a.md:5:8: error: incorrect argument label in call (have 'x:', expected 'y:')
            5 | Kit.go(x: 1)
              |        `- error: incorrect argument label in call (have 'x:', expected 'y:')
            Sources/Kit/Kit.swift:3:17: note: 'go(y:)' declared here
            chapters/01-a.md:10:5: warning: initialization of immutable value 'y' was never used
            /tmp/b/block1.swift:4:1: error: extraneous '}' at top level
            Sources/Kit/Kit.swift:9:1: error: something about the module itself
            """
        let (placed, unplaced) = files.place(output)
        #expect(
            placed == [
                .init(
                    block: 0, line: 1, column: 8, severity: .error,
                    message: "incorrect argument label in call (have 'x:', expected 'y:')"),
                .init(
                    block: 1, line: 0, column: 5, severity: .warning,
                    message: "initialization of immutable value 'y' was never used"),
                .init(block: 1, line: 1, column: 1, severity: .error, message: "extraneous '}' at top level"),
            ])
        #expect(unplaced.map(\.path) == ["Sources/Kit/Kit.swift"])
        // The caller turns a place into a chapter position, minding the block's indentation.
        #expect(files.blocks[1].location(ofLine: 0, offset: 5 - 1).description == "chapters/01-a.md:10:8")
    }
}
