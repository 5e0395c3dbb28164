import Foundation
import Testing

@testable import Literate

/// Chapters the engine cannot take as they are: each is one exact error at its place, and
/// nothing is written.
struct BrokenChapterTests {
    struct EncodingCase: CustomTestStringConvertible, Sendable {
        var id: String
        var source: String
        var bytes: [UInt8]
        /// The whole diagnostic line for `chapters/01-a.md`.
        var expected: String
        var testDescription: String { "\(id): \(source)" }
    }

    /// Columns count bytes from 1, as cmark's do: `café ` is 6 bytes before the bad one.
    static let encodings: [EncodingCase] = [
        EncodingCase(
            id: "never-used-octet", source: "RFC 3629 §1",
            bytes: Array("# T\n\ncafé ".utf8) + [0xFF] + Array(" here.\n".utf8),
            expected: "chapters/01-a.md:3:7: error: invalid UTF-8 byte 0xFF"),
        EncodingCase(
            id: "overlong", source: "RFC 3629 §4",
            bytes: Array("ab".utf8) + [0xC0, 0xAF],
            expected: "chapters/01-a.md:1:3: error: invalid UTF-8 byte 0xC0"),
        EncodingCase(
            id: "surrogate", source: "RFC 3629 §3",
            bytes: Array("x\n".utf8) + [0xED, 0xA0, 0x80],
            expected: "chapters/01-a.md:2:1: error: invalid UTF-8 byte 0xED"),
        EncodingCase(
            id: "beyond-10FFFF", source: "RFC 3629 §3",
            bytes: [0xF4, 0x90, 0x80, 0x80], expected: "chapters/01-a.md:1:1: error: invalid UTF-8 byte 0xF4"),
        EncodingCase(
            id: "cut-short", source: "RFC 3629 §4",
            bytes: Array("ok\n12".utf8) + [0xE2, 0x82] + Array("\n".utf8),
            expected: "chapters/01-a.md:2:3: error: invalid UTF-8 byte 0xE2"),
        EncodingCase(
            id: "stray-continuation", source: "RFC 3629 §4",
            bytes: Array("a\r\nb\r\n".utf8) + [0x80],
            expected: "chapters/01-a.md:3:1: error: invalid UTF-8 byte 0x80"),
        EncodingCase(
            id: "lone-cr", source: "CommonMark: Line ending",
            bytes: Array("a\rb".utf8) + [0xC1],
            expected: "chapters/01-a.md:2:2: error: invalid UTF-8 byte 0xC1"),
        EncodingCase(
            id: "after-byte-order-mark", source: "RFC 3629 §6",
            bytes: [0xEF, 0xBB, 0xBF, 0x0E, 0xFE],
            expected: "chapters/01-a.md:1:2: error: invalid UTF-8 byte 0xFE"),
    ]

    @Test(arguments: encodings)
    func aChapterThatIsNotUTF8IsAnErrorAtItsFirstBadByte(_ testCase: EncodingCase) throws {
        let book = try TestBook(["00-fine.md": "# Fine\n"])
        try book.write("chapters/01-a.md", bytes: testCase.bytes)
        for inlines in [true, false] {
            do {
                _ = try Book.load(root: book.root, inlines: inlines)
                Issue.record("the chapter loaded")
            } catch {
                #expect(error.description == testCase.expected)
            }
        }
    }

    @Test func aValidChapterWithEveryLengthOfSequenceLoads() throws {
        let text = "# T\r\n\u{7F} \u{80} \u{7FF} \u{800} \u{D7FF} \u{E000} \u{FFFF} \u{10000} \u{10FFFF}\n"
        let book = try TestBook(["01-a.md": text])
        #expect(try Book.load(root: book.root).chapters.map(\.source) == [text])
        #expect(FileBytes.firstInvalidUTF8(Array(text.utf8)[...]) == nil)
    }

    struct TargetCase: CustomTestStringConvertible, Sendable {
        var id: String
        var target: String
        /// What stands in the book folder before tangling: a folder, or a file.
        var folder: String?
        var file: String?
        var reason: String
        var testDescription: String { id }
    }

    static let longName = String(repeating: "L", count: 300)

    /// A file target that cannot be written is an error at the block that names it, with the
    /// system's reason (source: "this book: chapter 13, The commands you will use"). No file system
    /// takes a 300-byte name.
    static let unwritable: [TargetCase] = [
        TargetCase(
            id: "a folder at the path", target: "Sources/Dir.swift", folder: "Sources/Dir.swift",
            reason: "Is a directory"),
        TargetCase(
            id: "a name too long in an existing folder", target: "Sources/\(longName).swift",
            folder: "Sources", reason: "File name too long"),
        TargetCase(
            id: "a name too long in a folder still to make", target: "Sources/New/\(longName).swift",
            reason: "File name too long"),
        TargetCase(
            id: "a folder name too long", target: "\(longName)/A.swift", reason: "File name too long"),
        TargetCase(
            id: "a file where a folder must be", target: "Sources/A.swift/B.swift", file: "Sources/A.swift",
            reason: "Not a directory"),
    ]

    @Test(arguments: unwritable)
    func aFileTargetThatCannotBeWrittenIsAnErrorAtItsBlock(_ testCase: TargetCase) throws {
        let chapter = """
            # T

            ```swift {file=Sources/Good.swift}
            let good = 1
            ```

            ```swift {file=\(testCase.target)}
            let bad = 1
            ```

            """
        let book = try TestBook(["01-a.md": chapter])
        if let folder = testCase.folder {
            try FileManager.default.createDirectory(
                at: book.root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        if let file = testCase.file { try book.write(file, "mine\n") }
        #expect(
            lines(try book.tangle().diagnostics) == [
                "chapters/01-a.md:7:1: error: cannot write '\(testCase.target)': \(testCase.reason)"
            ])
        #expect(try book.tangleAndWriteRefused())
        #expect(book.read("Sources/Good.swift") == nil, "nothing is written")
        if let file = testCase.file { #expect(book.read(file) == "mine\n") }
    }

    /// A folder that appears at a target after tangling makes the write fail before any target
    /// changes: the other file keeps its old text, and no temporary file is left.
    @Test func aWriteThatFailsChangesNoFileAndNamesTheBlock() throws {
        let chapter = { (value: Int) in
            "# T\n\n```swift {file=Sources/M/A.swift}\nlet a = \(value)\n```\n\n"
                + "```swift {file=Sources/M/B.swift}\nlet b = \(value)\n```\n"
        }
        let book = try TestBook(["01-a.md": chapter(1)])
        try book.tangleAndWrite()
        let old = try #require(book.read("Sources/M/A.swift"))
        try book.write("chapters/01-a.md", chapter(2))
        let result = try book.tangle()
        #expect(result.diagnostics.isEmpty)
        try FileManager.default.removeItem(at: book.root.appendingPathComponent("Sources/M/B.swift"))
        try FileManager.default.createDirectory(
            at: book.root.appendingPathComponent("Sources/M/B.swift"), withIntermediateDirectories: false)
        let plan = TangleWriter.plan(result, root: book.root, force: false)
        do {
            try TangleWriter.apply(plan, root: book.root)
            Issue.record("the write succeeded")
        } catch {
            #expect(
                error.description
                    == "chapters/01-a.md:7:1: error: cannot write 'Sources/M/B.swift': Is a directory")
        }
        #expect(book.read("Sources/M/A.swift") == old)
        let names = try FileManager.default.contentsOfDirectory(
            atPath: book.root.appendingPathComponent("Sources/M").path)
        #expect(names.sorted() == ["A.swift", "B.swift"])
    }

    /// A folder made for a write that then failed is removed again.
    @Test func aFailedWriteRemovesTheFoldersItMade() throws {
        let book = try TestBook([
            "01-a.md":
                "```swift {file=New/Deep/A.swift}\nlet a = 1\n```\n\n```swift {file=Other/B.swift}\nlet b = 1\n```\n"
        ])
        let result = try book.tangle()
        #expect(result.diagnostics.isEmpty)
        try book.write("Other", "a file where a folder must be\n")
        do {
            try TangleWriter.apply(TangleWriter.plan(result, root: book.root, force: false), root: book.root)
            Issue.record("the write succeeded")
        } catch {
            #expect(
                error.description
                    == "chapters/01-a.md:5:1: error: cannot write 'Other/B.swift': Not a directory")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: book.root.path)
        #expect(names.sorted() == ["Other", "chapters"])
    }

    struct FenceCase: CustomTestStringConvertible, Sendable {
        var id: String
        var info: String
        /// What the first block holds after its own line: a reference to the unclosed chunk.
        var reference: String
        var testDescription: String { id }
    }

    /// An unclosed fence in a block that tangles is an error
    /// (source: "this book: chapter 13, The commands you will use").
    static let tangledFences: [FenceCase] = [
        FenceCase(id: "a file target", info: "swift {file=Sources/B.swift}", reference: "let c = 3"),
        FenceCase(id: "a named chunk", info: "swift {#more}", reference: "<<more>>"),
        FenceCase(id: "a named chunk, Entangled style", info: "{.swift #more}", reference: "<<more>>"),
    ]

    @Test(arguments: tangledFences)
    func anUnclosedFenceInABlockThatTanglesIsAnErrorAndNothingIsWritten(_ testCase: FenceCase) throws {
        let book = try TestBook([
            "01-a.md": """
            # T

            ```swift {file=Sources/A.swift}
            let a = 1
            \(testCase.reference)
            ```

            ```\(testCase.info)
            let b = 2

            ## Next section

            Prose that is not code.

            """
        ])
        #expect(
            lines(try book.tangle().diagnostics) == [
                "chapters/01-a.md:8:1: error: code fence is never closed; it swallows the rest of the chapter"
            ])
        #expect(try book.tangleAndWriteRefused())
        #expect(book.read("Sources/A.swift") == nil && book.read("Sources/B.swift") == nil)
    }

    /// In a display-only block an unclosed fence stays a warning, and the book is written
    /// (source: "this book: chapter 13, The commands you will use").
    @Test func anUnclosedFenceInADisplayOnlyBlockIsAWarning() throws {
        let book = try TestBook([
            "01-a.md": "```swift {file=Sources/A.swift}\nlet a = 1\n```\n\n```kotlin\nval b = 2\n\n## Next\n"
        ])
        #expect(
            lines(try book.tangle().diagnostics) == [
                "chapters/01-a.md:5:1: warning: code fence is never closed; it swallows the rest of the chapter"
            ])
        #expect(try !book.tangleAndWriteRefused())
        #expect(
            book.body("Sources/A.swift") == "#sourceLocation(file:\"chapters/01-a.md\",line:2)\nlet a = 1\n")
    }
}
