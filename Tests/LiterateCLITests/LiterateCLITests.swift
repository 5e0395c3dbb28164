import CommandLineKit
import Foundation
import Literate
import LiterateCLI
import TestSupport
import Testing

/// The engine's commands as a library, run in process
/// (source: "this book: chapter 13, The commands you will use"). Their behaviour as a user sees it
/// (the `workbook` and `literate` executables) is in WorkbookCLITests; these are what a host
/// program relies on when it builds its own tool from them, as `workbook` does.
struct LiterateCLITests {
    /// What a command printed, and how it ended.
    final class Run: @unchecked Sendable {
        private let lock = NSLock()
        private var outText = ""
        private var errText = ""
        var out: String { lock.withLock { outText } }
        var err: String { lock.withLock { errText } }
        private(set) var code = ExitCode.success

        init(_ commands: [Command], _ arguments: [String]) {
            let console = Console(
                out: { [unowned self] text in lock.withLock { outText += text } },
                err: { [unowned self] text in lock.withLock { errText += text } })
            let tool = CommandLineTool(
                root: Command(CommandSpec(name: "host", abstract: "A host program."), subcommands: commands),
                version: workbookVersion)
            code = tool.run(arguments, console: console)
        }
    }

    /// `host where --book DIR` prints the book folder the engine would use.
    static let whereCommand = Command(
        CommandSpec(name: "where", abstract: "Print the book.", options: [bookOption])
    ) {
        arguments, console in
        console.print(try bookRoot(arguments).path)
        return .success
    }

    @Test func bookNamesAFolderAndAMissingOneIsBadInput() throws {
        let folder = try TemporaryFolder()
        try folder.write("chapters/01-a.md", "# A\n")
        let found = Run([Self.whereCommand], ["where", "--book", folder.url.path + "/chapters/.."])
        #expect(found.code == .success)
        #expect(found.out == folder.url.path + "\n")

        let missing = Run([Self.whereCommand], ["where", "--book", folder.url.path + "/nowhere"])
        #expect(missing.code == .badInput)
        #expect(missing.err == "error: no book folder at '\(folder.url.path)/nowhere'\n")
    }

    /// A checker the host registers: it gets every snippet that names it, and its findings are
    /// reported at the snippet's own lines in the chapter.
    struct ShoutChecker: SnippetChecker {
        var name: String { "shout" }

        func check(_ snippets: [Snippet]) -> [[SnippetFinding]] {
            snippets.map { snippet in
                snippet.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap
                {
                    index, line in
                    line == line.uppercased()
                        ? nil : SnippetFinding(.error, line: index + 1, "'\(line)' is not shouted")
                }
            }
        }
    }

    @Test func checkRunsTheHostsCheckersAndNamesChapterLines() throws {
        let folder = try TemporaryFolder()
        try folder.write("chapters/01-a.md", "# A\n\n```text {check=shout}\nHELLO\nquiet\n```\n")
        let check = checkCommand { _ in [ShoutChecker()] }
        let run = Run([check], ["check", "--book", folder.url.path])
        #expect(run.code == .failure)
        #expect(run.err == "chapters/01-a.md:5:1: error: 'quiet' is not shouted\n")
        #expect(run.out == "tangle: 0 files in sync with the book\ncheck: 1 block, 1 error\n")

        try folder.write("chapters/01-a.md", "# A\n\n```text {check=shout}\nHELLO\n```\n")
        let clean = Run([check], ["check", "--book", folder.url.path])
        #expect(clean.code == .success)
        #expect(clean.err == "")
    }

    @Test func aFindingWithAPlaceIsPrintedAndOneWithoutIsBadInput() {
        let placed = Diagnostic.error(
            .noChapters(path: "chapters"), at: SourceLocation(path: "chapters/01-a.md", line: 3))
        let run = Run(
            [
                Command(CommandSpec(name: "fail", abstract: "Fail.")) { _, console in
                    throw commandFailure(placed, console: console)
                }
            ], ["fail"])
        #expect(run.code == .failure)
        #expect(run.err == "chapters/01-a.md:3:1: error: no Markdown chapters (*.md) in 'chapters'\n")

        let unplaced = Diagnostic.error(.noChaptersFolder(path: "/book/chapters"), at: nil)
        let run2 = Run(
            [
                Command(CommandSpec(name: "fail", abstract: "Fail.")) { _, console in
                    throw commandFailure(unplaced, console: console)
                }
            ], ["fail"])
        #expect(run2.code == .badInput)
        #expect(run2.err == "error: no chapters folder at '/book/chapters'\n")
    }
}
