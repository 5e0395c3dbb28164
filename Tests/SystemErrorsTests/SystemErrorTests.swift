import Foundation
import SystemErrors
import Testing

/// Every file-system failure reads `path: what went wrong (strerror text)`: the errno found behind
/// whichever wrapper Foundation put it in, never an error dump.
struct SystemErrorTests {
    struct ErrorCase: Sendable, CustomTestStringConvertible {
        var id: String
        var source: String
        var error: any Error & Sendable
        var expected: String
        var testDescription: String { id }
    }

    static let errorCases: [ErrorCase] = [
        ErrorCase(
            id: "posix-error", source: "GNU: The GNU C Library, Error Codes", error: POSIXError(.EACCES),
            expected: "Permission denied"),
        ErrorCase(
            id: "posix-domain", source: "GNU: The GNU C Library, Error Codes",
            error: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOTDIR)), expected: "Not a directory"),
        ErrorCase(
            id: "cocoa-underlying", source: "Apple: NSUnderlyingErrorKey",
            error: CocoaError(
                .fileWriteUnknown,
                userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))]),
            expected: "No space left on device"),
        ErrorCase(
            id: "cocoa-code-alone",
            source: "this book: a Foundation file error without an errno is told in the C library's words",
            error: CocoaError(.fileNoSuchFile), expected: "No such file or directory"),
        ErrorCase(
            id: "cocoa-no-permission",
            source: "this book: a Foundation file error without an errno is told in the C library's words",
            error: CocoaError(.fileWriteNoPermission), expected: "Permission denied"),
    ]

    @Test(arguments: errorCases)
    func theErrnoIsFoundBehindEveryWrapper(_ errorCase: ErrorCase) {
        #expect(SystemError.describe(errorCase.error) == errorCase.expected)
    }

    @Test func anErrorWithoutAnErrnoKeepsItsOwnDescription() {
        let error = NSError(
            domain: "Elsewhere", code: 7, userInfo: [NSLocalizedDescriptionKey: "Gone fishing"])
        #expect(SystemError.code(of: error) == nil)
        #expect(SystemError.describe(error) == "Gone fishing")
    }

    struct PackageError: Error, CustomStringConvertible {
        var description: String { "the report cannot be written as JSON" }
    }

    /// What reaches the command line's catch-all: never "The operation could not be completed".
    @Test func aSwiftErrorOfThePackageSaysItsDescription() {
        #expect(SystemError.describe(PackageError()) == "the report cannot be written as JSON")
        #expect(SystemError.message(for: PackageError()) == "the report cannot be written as JSON")
    }

    @Test func foundationsOwnFailureGivesItsErrno() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "system-error-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("a file".utf8).write(to: folder.appendingPathComponent("plain.txt"))
        let inside = folder.appendingPathComponent("plain.txt/folder")
        #expect {
            try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
        } throws: { error in
            SystemError.describe(error) == "Not a directory"
        }
    }

    @Test func aMessageNamesTheFileAndWhatFailed() {
        let write = CocoaError(
            .fileWriteNoPermission, userInfo: [NSFilePathErrorKey: "out/page.html"])
        #expect(SystemError.message(for: write) == "out/page.html: cannot write the file (Permission denied)")
        let read = CocoaError(
            .fileReadNoSuchFile, userInfo: [NSURLErrorKey: URL(fileURLWithPath: "/book/chapters/01.md")])
        #expect(
            SystemError.message(for: read)
                == "/book/chapters/01.md: cannot read the file (No such file or directory)")
        #expect(SystemError.message(for: POSIXError(.EROFS)) == "Read-only file system")
    }

    @Test func aRealFailureReadsAsOneLine() throws {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/file.txt")
        #expect {
            _ = try String(contentsOf: missing, encoding: .utf8)
        } throws: { error in
            SystemError.message(for: error)
                == "\(missing.path): cannot read the file (No such file or directory)"
        }
    }
}
