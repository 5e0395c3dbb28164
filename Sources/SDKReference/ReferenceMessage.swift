import Foundation

/// Every message of `workbook reference` and of `serve --reference`, in one place so tests can
/// pin them.
package enum ReferenceMessage {
    static func undocumented(kind: String, name: String) -> String {
        "public \(kind.lowercased()) '\(name)' has no doc comment"
    }

    /// One of DocC's findings, with the fixes it proposes.
    static func docc(_ summary: String, fixes: [String]) -> String {
        "\(summary) (docc" + (fixes.isEmpty ? ")" : "; \(fixes.joined(separator: "; ")))")
    }

    static func toolMissing(_ tool: String) -> String {
        "\(tool) not found on PATH or beside swift: it comes with the Swift toolchain (6.0 or newer); "
            + "put the toolchain's usr/bin on PATH"
    }

    static func noPackage(_ path: String) -> String {
        "no Package.swift in \(path): the reference is built from the book's Swift package"
    }

    static func outputNotOurs(_ path: String) -> String {
        "\(path) is not empty and was not written by workbook reference; choose another --out"
    }

    static func stepFailed(_ step: String, status: Int32, output: String) -> String {
        let shown = lastLines(output, count: 40)
        return "\(step) failed (exit status \(status))" + (shown.isEmpty ? "" : ":\n\(shown)")
    }

    static func timedOut(_ step: String, seconds: Double) -> String {
        "\(step) did not finish within \(Int(seconds)) s and was stopped"
    }

    static func moduleMissing(_ module: String, folder: String) -> String {
        "the build left no \(module).swiftmodule in \(folder): is \(module) a target of the package?"
    }

    static func notWritten(_ path: String) -> String {
        "docc wrote no \(path): the reference is incomplete"
    }

    static func cannotWrite(_ path: String, reason: String) -> String {
        "cannot write \(path): \(reason)"
    }

    static func unreadable(_ path: String, reason: String) -> String {
        "cannot read \(path): \(reason)"
    }

    /// The command's closing lines: the counts, then where the reference is and how to see it.
    package static func summary(
        counts: [ReferenceAudit.ModuleCount], doccWarnings: Int, files: Int, bytes: Int, folder: String,
        seconds: Double
    ) -> [String] {
        let declarations = counts.map(\.declarations).reduce(0, +)
        let undocumented = counts.map(\.undocumented).reduce(0, +)
        let perModule = counts.map { "\($0.module) \($0.undocumented) of \($0.declarations)" }
            .joined(separator: ", ")
        let megabytes = Double(bytes) / 1_000_000
        let appleOnly = counts.map(\.appleOnly).reduce(0, +)
        let appleNote = appleOnly == 0 ? "" : " (\(appleOnly) of them Apple-only, read from the chapters)"
        return [
            "reference: \(declarations) public declarations\(appleNote), \(undocumented) without a doc comment "
                + "(\(perModule)); \(doccWarnings) docc \(doccWarnings == 1 ? "warning" : "warnings")",
            "reference: \(files) files, \(String(format: "%.1f", megabytes)) MB in \(folder) in "
                + "\(String(format: "%.1f", seconds)) s; served at /reference/documentation/li2sdk/ by ./wb serve",
        ]
    }

    // MARK: workbook serve --reference

    static func serveStarted(address: String, log: String) -> String {
        "reference: \(address)\(entryPath) (the SDK's API reference, built once in the background; log in \(log))"
    }

    static func serveReady(address: String) -> String {
        "reference: ready at \(address)\(entryPath)"
    }

    static func serveFailed(status: Int32, log: String) -> String {
        "reference: workbook reference failed (exit status \(status)); see \(log)"
    }

    /// Where a reader starts: the SDK's module page.
    static let entryPath = "/reference/documentation/li2sdk/"

    /// The last `count` non-empty lines of a tool's output.
    static func lastLines(_ output: String, count: Int) -> String {
        output.split(separator: "\n").suffix(count).joined(separator: "\n")
    }
}
