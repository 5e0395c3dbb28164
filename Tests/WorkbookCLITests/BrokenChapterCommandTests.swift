import Foundation
import TestSupport
import Testing

/// Broken chapters as `literate` and `workbook` report them: one exact line per problem, at its
/// place in the chapter, exit 1, and nothing written.
@Suite(.serialized)
struct BrokenChapterCommandTests {
    /// Every command that reads the book stops on it the same way.
    static let commands: [(tool: String, arguments: [String])] = [
        ("literate", ["tangle"]), ("workbook", ["tangle"]), ("workbook", ["check"]), ("workbook", ["build"]),
    ]

    /// The octet FF never appears in UTF-8 (source: "RFC 3629 §1"). The column counts bytes, so
    /// `café ` is 6 of them (source: "this book: chapter 13, The commands you will use").
    @Test func aChapterThatIsNotUTF8IsOneErrorAtItsFirstBadByte() async throws {
        let folder = try TemporaryFolder()
        try folder.write("chapters/00-fine.md", "# Fine\n")
        try Data(Array("# T\n\ncafé ".utf8) + [0xFF] + Array(" here.\n".utf8)).write(
            to: folder.url.appendingPathComponent("chapters/01-demo.md"))
        for (tool, arguments) in Self.commands {
            let run = try await CommandRunner.run(tool, arguments, in: folder.url)
            #expect(run.status == 1, "\(tool) \(arguments)")
            #expect(
                run.stderr == "chapters/01-demo.md:3:7: error: invalid UTF-8 byte 0xFF\n",
                "\(tool) \(arguments)")
            #expect(run.stdout == "", "\(tool) \(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("build").path))
    }

    /// A file target that cannot be written is an error at the block that names it, with the
    /// system's reason, for `tangle` and `build` alike
    /// (source: "this book: chapter 13, The commands you will use").
    @Test func aTargetThatCannotBeWrittenIsAnErrorAtItsBlock() async throws {
        let long = String(repeating: "L", count: 300)
        let folder = try TemporaryFolder()
        try folder.write(
            "chapters/01-demo.md",
            """
            # Demo

            ```swift {file=Sources/Good.swift}
            let good = 1
            ```

            ```swift {file=Sources/Dir.swift}
            let dir = 1
            ```

            ```swift {file=Sources/\(long).swift}
            let long = 1
            ```

            """)
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("Sources/Dir.swift"), withIntermediateDirectories: true)
        let expected = """
            chapters/01-demo.md:7:1: error: cannot write 'Sources/Dir.swift': Is a directory
            chapters/01-demo.md:11:1: error: cannot write 'Sources/\(long).swift': File name too long

            """
        for (tool, arguments) in [("literate", ["tangle"]), ("workbook", ["tangle"])] {
            let tangle = try await CommandRunner.run(tool, arguments, in: folder.url)
            #expect(tangle.status == 1, "\(tool)")
            #expect(tangle.stderr == expected, "\(tool)")
            #expect(tangle.stdout == "", "\(tool)")
        }
        #expect(folder.read("Sources/Good.swift") == nil, "nothing is written")
        let build = try await CommandRunner.run("workbook", ["build"], in: folder.url)
        #expect(build.status == 1)
        #expect(build.stderr == expected)
    }

    /// An unclosed fence in a block that tangles is an error at the fence, and nothing is written;
    /// the prose after it never reaches a file (source: "this book: chapter 13, The commands you will use").
    @Test func anUnclosedFenceInATangledBlockFailsAndWritesNothing() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "chapters/01-demo.md",
            """
            # Demo

            ```swift {file=Sources/A.swift}
            let a = 1
            ```

            More.

            ```swift {file=Sources/A.swift}
            let b = 2

            ## Next section

            Prose that is not code.

            """)
        let expected =
            "chapters/01-demo.md:9:1: error: code fence is never closed; it swallows the rest of the chapter\n"
        let tangle = try await CommandRunner.run("literate", ["tangle"], in: folder.url)
        #expect(tangle.status == 1)
        #expect(tangle.stderr == expected)
        #expect(tangle.stdout == "")
        #expect(folder.read("Sources/A.swift") == nil)
        let build = try await CommandRunner.run("workbook", ["build"], in: folder.url)
        #expect(build.status == 1)
        #expect(build.stderr == expected)
    }
}
