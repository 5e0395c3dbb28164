import Foundation
import TestSupport
import Testing

/// `workbook tangle`, `check` and `lint` as a user runs them.
@Suite(.serialized)
struct TangleCommandTests {
    static let chapter = """
        # Demo

        ```swift {file=Sources/Demo/Demo.swift}
        public struct Demo {
            <<demo-members>>
        }
        ```

        ```swift {#demo-members}
        public var count = 0
        ```

        ```json
        {"checked": true}
        ```

        ```kotlin
        val shown = true
        ```
        """

    @Test func tangleWritesTheFilesAndCheckFindsThemInSync() async throws {
        let folder = try TemporaryFolder()
        try folder.write("chapters/01-demo.md", Self.chapter)
        let tangle = try await CommandRunner.run("workbook", ["tangle", "--book", folder.url.path])
        #expect(tangle.status == 0, "\(tangle.stderr)")
        #expect(
            tangle.stdout == "created Sources/Demo/Demo.swift\ntangle: 1 files from the book, 1 changed\n")
        let check = try await CommandRunner.run("workbook", ["tangle", "--check"], in: folder.url)
        #expect(check.status == 0)
        #expect(check.stdout == "tangle: 1 files in sync with the book\n")
    }

    struct HostileCase: CustomTestStringConvertible, Sendable {
        var id: String
        var chapter: String
        var error: String
        var testDescription: String { id }
    }

    static let hostile: [HostileCase] = [
        HostileCase(
            id: "20,000 levels of nesting", chapter: HostileBooks.deepNesting(levels: 20_000),
            error:
                "chapters/01-hostile.md:4004:1: error: chunk nesting deeper than 1,000: c0 → c1 → … → c1000"),
        HostileCase(
            id: "a fan-out to 2^40 lines", chapter: HostileBooks.fanOut(levels: 41),
            error: "chapters/01-hostile.md:6:1: error: ⟨c0⟩ would expand to more than 50,000 lines "
                + "(the limit for one generated file)"),
    ]

    /// Both once crashed the process (a stack overflow, then an allocation of gigabytes).
    @Test(arguments: hostile)
    func aChapterThatWouldExhaustTheTanglerIsAnErrorFromTangleAndBuild(_ testCase: HostileCase) async throws {
        let folder = try TemporaryFolder()
        try folder.write("chapters/01-hostile.md", testCase.chapter)
        let tangle = try await CommandRunner.run("workbook", ["tangle", "--book", folder.url.path])
        #expect(tangle.status == 1)
        #expect(tangle.stdout == "")
        #expect(tangle.stderr == testCase.error + "\n")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Sources").path))
        let build = try await CommandRunner.run("workbook", ["build", "--book", folder.url.path])
        #expect(build.status == 1)
        #expect(build.stderr == testCase.error + "\n")
        #expect(build.stdout.hasSuffix("1 error\n"), "\(build.stdout)")
        #expect(
            FileManager.default.fileExists(
                atPath: folder.url.appendingPathComponent("build/site/chapters/01-hostile.html").path),
            "the rest of the site is still written")
    }

    @Test func checkPrintsADiffAndFailsWhenTheBookChanged() async throws {
        let folder = try TemporaryFolder()
        try folder.write("chapters/01-demo.md", Self.chapter)
        _ = try await CommandRunner.run("workbook", ["tangle"], in: folder.url)
        try folder.write(
            "chapters/01-demo.md", Self.chapter.replacingOccurrences(of: "count = 0", with: "count = 1"))
        let check = try await CommandRunner.run("workbook", ["tangle", "--check"], in: folder.url)
        #expect(check.status == 1)
        #expect(check.stdout.contains("--- a/Sources/Demo/Demo.swift\n+++ b/Sources/Demo/Demo.swift\n"))
        #expect(check.stdout.contains("-    public var count = 0\n+    public var count = 1\n"))
        #expect(
            check.stderr.hasPrefix(
                "Sources/Demo/Demo.swift:1:1: error: 'Sources/Demo/Demo.swift' is out of date with the book\n"
            ))
        #expect(
            folder.read("Sources/Demo/Demo.swift")?.contains("count = 0") == true, "--check writes nothing")
    }

    @Test func tangleRefusesToOverwriteAHandEdit() async throws {
        let folder = try TemporaryFolder()
        try folder.write("chapters/01-demo.md", Self.chapter)
        _ = try await CommandRunner.run("workbook", ["tangle"], in: folder.url)
        let edited = try #require(folder.read("Sources/Demo/Demo.swift")) + "// my fix\n"
        try folder.write("Sources/Demo/Demo.swift", edited)
        try folder.write(
            "chapters/01-demo.md", Self.chapter.replacingOccurrences(of: "count = 0", with: "count = 2"))
        let tangle = try await CommandRunner.run("workbook", ["tangle"], in: folder.url)
        #expect(tangle.status == 1)
        #expect(tangle.stderr.contains("'Sources/Demo/Demo.swift' was edited by hand"))
        #expect(folder.read("Sources/Demo/Demo.swift") == edited)
        let forced = try await CommandRunner.run("workbook", ["tangle", "--force"], in: folder.url)
        #expect(forced.status == 0)
        #expect(folder.read("Sources/Demo/Demo.swift")?.contains("count = 2") == true)
    }

    @Test func errorsNameTheChapterLineAndWriteNothing() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "chapters/01-demo.md",
            Self.chapter.replacingOccurrences(of: "<<demo-members>>", with: "<<demo-member>>"))
        let tangle = try await CommandRunner.run("literate", ["tangle"], in: folder.url)
        #expect(tangle.status == 1)
        #expect(
            tangle.stderr.hasPrefix(
                "chapters/01-demo.md:5:5: error: no chunk named 'demo-member'; did you mean 'demo-members'?\n"
            ))
        #expect(folder.read("Sources/Demo/Demo.swift") == nil)
    }

    @Test func checkReportListsEveryBlockWithItsStatus() async throws {
        let folder = try TemporaryFolder()
        try folder.write("chapters/01-demo.md", Self.chapter)
        _ = try await CommandRunner.run("workbook", ["tangle"], in: folder.url)
        let check = try await CommandRunner.run("workbook", ["check", "--report"], in: folder.url)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(
            check.stdout == """
                tangle: 1 files in sync with the book
                CHAPTER              LINE  LANGUAGE  CHUNK OR FILE            STATUS
                chapters/01-demo.md  3     swift     Sources/Demo/Demo.swift  compiled
                chapters/01-demo.md  9     swift     #demo-members            compiled
                chapters/01-demo.md  13    json      -                        checked (json)
                chapters/01-demo.md  17    kotlin    -                        display-only

                blocks by status: compiled: 2, checked: 1, display-only: 1
                check: 4 blocks, 0 errors

                """)
    }

    @Test func lintFindingsInGeneratedFilesNameChapterLines() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "chapters/01-demo.md",
            Self.chapter.replacingOccurrences(of: "public var count = 0", with: "public var count=0"))
        _ = try await CommandRunner.run("workbook", ["tangle"], in: folder.url)
        let lint = try await CommandRunner.run("workbook", ["lint"], in: folder.url)
        #expect(lint.status == 1)
        #expect(
            lint.stderr.contains("chapters/01-demo.md:10:"),
            "the finding points at the chunk's line: \(lint.stderr)")
        #expect(lint.stderr.contains("(generated Sources/Demo/Demo.swift:"))
    }

    @Test func aMissingBookIsBadInput() async throws {
        let folder = try TemporaryFolder()
        let tangle = try await CommandRunner.run(
            "workbook", ["tangle", "--book", folder.url.appendingPathComponent("nope").path])
        #expect(tangle.status == 2)
        #expect(
            tangle.stderr == "error: no book folder at '\(folder.url.appendingPathComponent("nope").path)'\n")
    }
}
