import Foundation
import ProcessRunner
import TestSupport
import Testing

/// `workbook build` run as a user runs it: exit codes and what it prints.
struct BuildCommandTests {
    /// Runs the built `workbook` beside this test bundle, as the CLI tests do.
    static func workbook(_ arguments: [String]) throws -> CommandRunner.Output {
        let result = Subprocess.run(
            CommandRunner.productsDirectory.appendingPathComponent("workbook").path, arguments, timeout: 600,
            separateErrors: true, stopsOnInterrupt: false)
        return CommandRunner.Output(status: result.status, stdout: result.output, stderr: result.errors)
    }

    /// The file count in a `build: N pages, M files in ...` line, so the test need not hard-code
    /// how many theme assets there are.
    static func fileCount(in text: String) -> String {
        guard let range = text.range(of: #"pages, (\d+) files"#, options: .regularExpression) else {
            return "?"
        }
        return String(text[range].dropFirst("pages, ".count).prefix { $0.isNumber })
    }

    /// The lines of `text` that name a place in the book: whether highlight.js is installed, and
    /// so warned about, depends on the machine.
    static func bookLines(_ text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix("chapters/") }.map(String.init)
    }

    @Test func buildingTheFixtureBookSucceeds() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        let output = try Self.workbook(["build", "--book", book.root.path, "--out", book.output.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout
                == "build: no coverage data, so no block is claimed as tested (run 'swift test "
                + "--enable-code-coverage' to measure it)\nbuild: 9 pages, \(Self.fileCount(in: output.stdout)) files "
                + "in out, 0 errors\n")
        #expect(book.output("chapters/01-greeting.html") != nil)
        #expect(
            Self.bookLines(output.stderr) == [
                "chapters/02-farewell.md:17:1: warning: chunk 'never-used' is never included in a file"
            ])
    }

    @Test func theDefaultOutputIsTheBooksBuildFolder() throws {
        let book = try TemporaryBook(chapters: ["01-a.md": "# A\n"])
        let output = try Self.workbook(["build", "--book", book.root.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            FileManager.default.fileExists(
                atPath: book.root.appendingPathComponent("build/site/index.html").path))
    }

    @Test func aBrokenLinkExitsOneNamingItsPlace() throws {
        let book = try TemporaryBook(chapters: ["01-a.md": "# A\n\nSee [b](02-b.md).\n"])
        let output = try Self.workbook(["build", "--book", book.root.path, "--out", book.output.path])
        #expect(output.status == 1)
        #expect(
            Self.bookLines(output.stderr) == [
                "chapters/01-a.md:3:5: error: broken link '02-b.md': no page or file 'chapters/02-b.md' in the book"
            ])
        #expect(
            output.stdout
                == "build: no coverage data, so no block is claimed as tested (run 'swift test "
                + "--enable-code-coverage' to measure it)\nbuild: 7 pages, \(Self.fileCount(in: output.stdout)) files "
                + "in out, 1 error\n")
    }

    /// Each language's build reads the same chapters and finds the same broken link: it is
    /// printed, and counted, once.
    @Test func aTranslatedBookReportsEachFindingOnce() throws {
        let book = try TemporaryBook(chapters: ["01-a.md": "# A\n\nSee [b](02-b.md).\n"])
        try FileManager.default.createDirectory(
            at: book.root.appendingPathComponent("po"), withIntermediateDirectories: true)
        try Data(
            """
            msgid ""
            msgstr ""
            "Content-Type: text/plain; charset=UTF-8\\n"
            "Language: vi\\n"

            msgid "A"
            msgstr "Chữ A"

            """.utf8
        ).write(to: book.root.appendingPathComponent("po/vi.po"))
        let output = try Self.workbook(["build", "--book", book.root.path, "--out", book.output.path])
        #expect(output.status == 1)
        #expect(book.output("vi/chapters/01-a.html") != nil)
        #expect(
            Self.bookLines(output.stderr) == [
                "chapters/01-a.md:3:5: error: broken link '02-b.md': no page or file 'chapters/02-b.md' in the book"
            ])
        #expect(output.stdout.hasSuffix(" files in out, 1 error\n"), "\(output.stdout)")
    }

    @Test func aForeignOutputFolderIsBadInput() throws {
        let book = try TemporaryBook(chapters: ["01-a.md": "# A\n"], files: ["out/notes.txt": "mine"])
        let output = try Self.workbook(["build", "--book", book.root.path, "--out", book.output.path])
        #expect(output.status == 2)
        #expect(
            output.stderr
                == "error: '\(book.output.path)' exists and was not written by 'workbook build'; remove it "
                + "or choose another --out folder\n")
    }

    @Test func aBookWithoutChaptersIsBadInput() throws {
        let book = try TemporaryBook()
        try FileManager.default.removeItem(at: book.root.appendingPathComponent("chapters"))
        let output = try Self.workbook(["build", "--book", book.root.path])
        #expect(output.status == 2)
    }

    @Test func anUnknownOptionIsAUsageError() throws {
        let output = try Self.workbook(["build", "--colour"])
        #expect(output.status == 64)
        #expect(output.stderr.hasPrefix("error: unknown option '--colour'\n"))
    }

    @Test func theHelpNamesEveryOption() throws {
        let output = try Self.workbook(["build", "--help"])
        #expect(output.status == 0)
        for option in ["--book DIR", "--out DIR", "--solutions", "--theme DIR", "--coverage FILE"] {
            #expect(output.stdout.contains(option), "\(option)")
        }
    }
}
