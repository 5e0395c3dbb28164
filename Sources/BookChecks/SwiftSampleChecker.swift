import Foundation
import Literate
import ProcessRunner
import SystemErrors

/// `swift-sample`: type-checks the Swift an app developer writes against the book's SDK.
///
/// Each block is a program of its own, compiled as a main file (top-level code, top-level `try`
/// and `await`) with `swiftc -typecheck -swift-version 6 -I Modules`, where `Modules` is the
/// module folder of a build of the book's package: `.build/test/debug/Modules` (what `./wb test`
/// builds), else `.build/debug/Modules` (what `./wb serve` builds), the first that holds the
/// SDK's module. The file opens with a `#sourceLocation` directive, so errors and warnings land
/// on chapter lines. Without a built module every sample is an error that says what to run:
/// a sample that nothing checked must not pass for one that compiles.
///
/// ````markdown
/// ```swift {check=swift-sample}
/// import Li2SDK
///
/// Li2.configure(publishableKey: "li2_pk_x", deepLinkDomains: ["go.example"])
/// let lead = try await Li2.trackDirectLead(externalId: "user_42")
/// ```
/// ````
package struct SwiftSampleChecker: SnippetChecker {
    package var name: String { "swift-sample" }

    /// The module the samples are written against.
    var module: String
    /// Where built modules may be, in order of preference.
    var modulesFolders: [URL]
    /// How `modulesFolders` read in messages (relative to the book).
    var searchedFolders: [String]
    /// The compiler; nil makes every sample an error.
    var swiftc: String? = BookChecker.findExecutable("swiftc")

    /// The module folders of `./wb test`'s build and of `./wb serve`'s, inside the book folder.
    static let buildFolders = [".build/test/debug/Modules", ".build/debug/Modules"]

    init(bookFolder: URL, module: String) {
        self.module = module
        self.modulesFolders = Self.buildFolders.map { bookFolder.appendingPathComponent($0) }
        self.searchedFolders = Self.buildFolders
    }

    /// The first of `modulesFolders` that holds the module, if any.
    var modulesFolder: URL? {
        modulesFolders.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("\(module).swiftmodule").path)
        }
    }

    package func check(_ snippets: [Snippet]) -> [[SnippetFinding]] {
        guard !snippets.isEmpty else { return [] }
        guard let swiftc else {
            return snippets.map { _ in [SnippetFinding(.error, SwiftSampleMessage.noCompiler)] }
        }
        guard let modules = modulesFolder else {
            let message = SwiftSampleMessage.moduleNotBuilt(module: module, searched: searchedFolders)
            return snippets.map { _ in [SnippetFinding(.error, message)] }
        }
        // One compiler per core at a time; the results keep the samples' order.
        return ConcurrentMap.map(snippets) { snippet in
            Self.typecheck(snippet, swiftc: swiftc, modules: modules)
        }
    }

    /// One sample through the compiler: its errors and warnings at their lines in the sample.
    static func typecheck(_ snippet: Snippet, swiftc: String, modules: URL) -> [SnippetFinding] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "workbook-swift-sample-\(getpid())-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files: SwiftBlockFiles
        do {
            files = try SwiftBlockFiles.write([snippet.block], in: folder)
        } catch {
            return [SnippetFinding(.error, SwiftSampleMessage.cannotWrite(SystemError.message(for: error)))]
        }
        let run = Subprocess.run(
            swiftc, ["-typecheck", "-swift-version", "6", "-I", modules.path] + files.paths, timeout: 600,
            stopsOnInterrupt: false)
        guard !run.timedOut else {
            return [SnippetFinding(.error, SwiftSampleMessage.timedOut(seconds: 600))]
        }
        let (placed, unplaced) = files.place(run.output)
        var findings = placed.map { message in
            SnippetFinding(message.severity, line: message.line + 1, column: message.column, message.message)
        }
        findings += unplaced.map { message in
            SnippetFinding(
                message.severity,
                SwiftSampleMessage.elsewhere(
                    path: message.path, line: message.line, column: message.column, message: message.message))
        }
        if run.status != 0, !findings.contains(where: { $0.severity == .error }) {
            findings.append(
                SnippetFinding(
                    .error, SwiftSampleMessage.compilerFailed(status: run.status, output: run.output)))
        }
        return findings
    }
}
