import Foundation
import Literate
import SystemErrors
import Testing

@testable import Weave

/// Every file-system failure reads `path: what went wrong (strerror text)`: the errno found behind
/// whichever wrapper Foundation put it in, never an error dump.
struct FileErrorTests {
    @Test func aFolderWhereAFileIsExpectedIsNamedWithItsReason() throws {
        let book = try TemporaryBook(files: ["out/page.html/keep.txt": "in the way"])
        let folder = book.root.appendingPathComponent("out")
        #expect {
            try SiteFiles.write("page.html", pieces: [Array("<p>".utf8)[...]], into: folder)
        } throws: { error in
            (error as? Diagnostic)?.description
                == "error: \(folder.path)/page.html: cannot write the file (Is a directory)"
        }
    }

    @Test func aFileWhereAFolderIsExpectedIsNamedWithItsReason() throws {
        let book = try TemporaryBook(files: ["out/chapters": "a file, not a folder"])
        let folder = book.root.appendingPathComponent("out")
        let reason = SystemError.describe(POSIXError(.ENOTDIR))
        let created = Self.createFolderReason(at: folder.appendingPathComponent("chapters"))
        #expect(created == reason || created == SystemError.describe(POSIXError(.EEXIST)))
        #expect {
            try SiteFiles.write("chapters/01-a.html", pieces: [], into: folder)
        } throws: { error in
            (error as? Diagnostic)?.description
                == "error: \(folder.path)/chapters: cannot create the folder (\(created))"
        }
    }

    @Test func aMissingSourceOfACopyIsNamedWithItsReason() throws {
        let book = try TemporaryBook()
        let folder = book.root.appendingPathComponent("out")
        let source = book.root.appendingPathComponent("images/missing.svg")
        #expect {
            try SiteFiles.copy(source, to: "images/missing.svg", into: folder)
        } throws: { error in
            (error as? Diagnostic)?.description
                == "error: \(folder.path)/images/missing.svg: cannot copy '\(source.path)' here "
                + "(No such file or directory)"
        }
    }

    @Test func anOutputFolderUnderAFileStopsTheBuildWithItsReason() throws {
        let book = try TemporaryBook(chapters: ["01-a.md": "# A\n"], files: ["plain.txt": "a file"])
        let output = book.root.appendingPathComponent("plain.txt/site")
        let created = Self.createFolderReason(at: output)
        #expect {
            try book.build { $0.outputFolder = output }
        } throws: { error in
            (error as? Diagnostic)?.description
                == "error: \(output.path): cannot create the folder (\(created))"
        }
    }

    /// Writing into a read-only folder; root writes anyway, so only for other users.
    @Test(.enabled(if: getuid() != 0, "root may write into a read-only folder"))
    func aReadOnlyFolderIsPermissionDenied() throws {
        let book = try TemporaryBook(files: ["out/.keep": ""])
        let folder = book.root.appendingPathComponent("out")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        }
        #expect {
            try SiteFiles.write("index.html", pieces: [], into: folder)
        } throws: { error in
            (error as? Diagnostic)?.description
                == "error: \(folder.path)/index.html: cannot write the file (Permission denied)"
        }
    }

    @Test func unreadableCoverageDataIsAWarningWithItsReason() throws {
        let book = try TemporaryBook(chapters: ["01-a.md": "# A\n"], files: ["coverage.json/inside": ""])
        let report = try book.build(coverage: book.root.appendingPathComponent("coverage.json"))
        #expect(
            report.diagnostics.filter { $0.message.hasPrefix("cannot read coverage") }.map(\.description) == [
                "warning: cannot read coverage data 'coverage.json': Is a directory"
            ])
    }

    /// What Foundation says when a folder cannot be made at `url` (the platforms differ between
    /// "Not a directory" and "File exists" for a file in the way).
    static func createFolderReason(at url: URL) -> String {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return "created"
        } catch {
            return SystemError.describe(error)
        }
    }
}
