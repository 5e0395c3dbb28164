import Foundation
import Testing

@testable import Literate

/// The tangler's fast paths must agree with the plain ones: a chapter read for tangling only
/// (code blocks collected straight from cmark) tangles exactly as a fully parsed chapter does,
/// and the byte-level helpers keep the string semantics they replace.
struct TangleFastPathTests {
    /// Blocks in every container cmark knows, an indented block, a block with nothing between its
    /// fences, one with an empty line, Windows line ends and a fence that never closes.
    static let chapter = """
        # Containers\r
        \r
        ```swift {file=Sources/M/A.swift}\r
        struct A {\r
            <<in-list>>\r
            <<in-quote>>\r
        }\r
        ```\r
        \r
        - item\r
        \r
          ```swift {#in-list}\r
          let a = 1\r
        \tlet tab = 2\r
          ```\r
        \r
        > ```swift {#in-quote}\r
        > let q = 1\r
        > ```\r
        \r
            indented {file=x}\r
        \r
        ```swift {file=Sources/M/Empty.swift}\r
        ```\r
        \r
        ```swift {file=Sources/M/Blank.swift}\r
        \r
        ```\r
        \r
        ~~~~ {.swift #open}\r
        let never = 1\r

        """

    @Test func scanningCodeBlocksMatchesWalkingTheTree() {
        let root = URL(fileURLWithPath: "/book")
        let full = Chapter(path: "chapters/01-a.md", source: Self.chapter, inlines: true)
        let scanned = Chapter(path: "chapters/01-a.md", source: Self.chapter, inlines: false)
        let fromTree = Tangler.tangle(Book(root: root, chapters: [full]))
        let fromScan = Tangler.tangle(Book(root: root, chapters: [scanned]))
        #expect(fromScan.blocks == fromTree.blocks)
        #expect(fromScan.files == fromTree.files)
        #expect(fromScan.diagnostics == fromTree.diagnostics)
        #expect(fromScan.blockTargets == fromTree.blockTargets)
        // A fenced block with nothing between its fences still spans two lines: one empty line.
        #expect(fromScan.blocks.map(\.lines.count) == [4, 2, 1, 1, 1, 1, 1])
    }

    @Test func blockLinesRoundTripThroughOneBuffer() {
        let cases: [[String]] = [[], [""], ["", ""], ["let a = 1", "", "  <<b>>"], ["é", "😀 x"]]
        for lines in cases {
            var block = CodeBlock(
                chapter: "c.md", location: SourceLocation(path: "c.md", line: 1), contentLine: 2,
                contentColumn: 1, info: "", attributes: BlockAttributes(), lines: lines, isFenced: true)
            #expect(block.lines == lines)
            block.lines = lines + ["more"]
            #expect(block.lines == lines + ["more"])
        }
        #expect(CodeText(lines: []) != CodeText(lines: [""]), "no line is not one empty line")
    }

    struct NameCase: CustomTestStringConvertible, Sendable {
        var id: String
        var source: String
        var name: String
        var isValid: Bool
        var testDescription: String { id }
    }

    static let names: [NameCase] = [
        NameCase(
            id: "kebab-case", source: "this book: chapter 13, Named chunks", name: "route-table",
            isValid: true),
        NameCase(
            id: "dots and underscores", source: "this book: chapter 13, Named chunks", name: "a.b_c-1",
            isValid: true),
        NameCase(id: "empty", source: "this book: chapter 13, Named chunks", name: "", isValid: false),
        NameCase(
            id: "digit first", source: "this book: chapter 13, Named chunks", name: "1abc", isValid: false),
        NameCase(
            id: "non-ASCII letter", source: "this book: chapter 13, Named chunks", name: "café",
            isValid: false),
        NameCase(id: "space", source: "this book: chapter 13, Named chunks", name: "a b", isValid: false),
    ]

    @Test(arguments: names)
    func chunkNamesAreCheckedOnBytes(_ example: NameCase) {
        #expect(ChunkName.isValid(example.name) == example.isValid)
    }

    @Test func aCombiningMarkAfterTheDotIsNotALanguage() {
        // ".́swift" does not start with the character "." (the mark joins it), as before.
        let result = BlockAttributes.parse("{.\u{301}swift}")
        #expect(
            result
                == .failure(
                    BlockAttributes.ParseError(
                        message: .malformedAttributes(
                            detail: "expected '.language', '#name' or 'key=value', got '.\u{301}swift'"),
                        offset: 1)))
    }

    @Test func generatedFilesAreFoundWithoutFollowingLinks() throws {
        let book = try TestBook(["01-a.md": TangleWriterTests.chapter])
        try book.tangleAndWrite()
        let generated = try #require(book.read("Sources/M/A.swift"))
        for path in [
            "Other/B.swift", "Other/Deep/C.swift", ".hidden/D.swift", "node_modules/E.swift",
            "Packages/F.swift", "Other/.G.swift", "Other/H.txt",
        ] {
            try book.write(path, generated)
        }
        try book.write("Other/Plain.swift", "let plain = 1\n")
        let fileManager = FileManager.default
        try fileManager.createSymbolicLink(
            atPath: book.root.appendingPathComponent("Linked").path, withDestinationPath: "Other")
        try fileManager.createSymbolicLink(
            atPath: book.root.appendingPathComponent("Other/Link.swift").path,
            withDestinationPath: "../Sources/M/A.swift")
        #expect(
            TangleWriter.generatedFiles(under: book.root) == [
                "Other/B.swift", "Other/Deep/C.swift", "Sources/M/A.swift",
            ])
    }
}
