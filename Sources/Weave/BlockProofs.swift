import Foundation
import Literate
import SystemErrors

/// The second stage: what proves each code block. The book is tangled, the snippet checkers run
/// (or only named, for a fast rebuild), and coverage data measured, and each block gets its badge
/// and the files it ends up in.
struct BlockProofs: Sendable {
    var reports: [BlockReport]
    var blocks: [CodeBlock]
    /// Chunk ids and uses across the book, for links between definitions and uses.
    var directory: ChunkDirectory
    var badges: [BlockKey: Badge]
    /// The files each block is tangled into.
    var targets: [BlockKey: [String]]
    var testedCount: Int
    /// The coverage data used, relative to the book when inside it; nil when there was none.
    var coverageName: String?
    /// The tangle's findings, then a warning each for failed checks and unreadable coverage data.
    var diagnostics: [Diagnostic]

    static func measure(_ input: SiteInput) -> BlockProofs {
        let options = input.options
        var diagnostics: [Diagnostic] = []
        let tangle = Tangler.tangle(input.book)
        diagnostics += tangle.diagnostics
        let checker =
            options.runsSnippetChecks
            ? BookChecker(checkers: options.checkers, swiftc: options.swiftc)
            : BookChecker(checkers: options.checkers.map(NamedOnly.init), swiftc: nil)
        let (reports, found) = checker.run(tangle)
        // Without the checks, the only findings would be the parse check's "no swiftc": drop them.
        let checkDiagnostics = options.runsSnippetChecks ? found : []
        let failedChecks = checkDiagnostics.filter { $0.severity == .error }
        if !failedChecks.isEmpty {
            diagnostics.append(
                Diagnostic(
                    .warning, text: WeaveMessage.snippetCheckErrors(count: failedChecks.count).text, at: nil))
        }
        var coverageName: String?
        var testedLines: Set<SourceLocation> = []
        if let url = options.coverageFile ?? newestCoverageFile(in: options.bookRoot) {
            coverageName = relativePath(of: url, in: options.bookRoot)
            switch loadCoverage(url, files: tangle.files) {
            case .success(let lines):
                testedLines = lines
            case .failure(let error):
                var detail = error.text
                if case .invalidCoverage(_, let reason) = error { detail = reason }
                let message = WeaveMessage.invalidCoverage(path: coverageName ?? url.path, detail: detail)
                diagnostics.append(Diagnostic(.warning, text: message.text, at: nil))
                coverageName = nil
            }
        }
        var proofs = BlockProofs(
            reports: reports, blocks: tangle.blocks,
            directory: directories.value(for: tangle.blocks) {
                ChunkDirectory(blocks: tangle.blocks, pageOutput: BookPages.chapterOutput)
            },
            badges: [:], targets: [:], testedCount: 0, coverageName: coverageName, diagnostics: diagnostics)
        for (index, report) in reports.enumerated() {
            let block = report.block
            let key = BlockKey(chapter: block.chapter, line: block.location.line)
            let lines = block.contentLine..<(block.contentLine + block.lineCount)
            let tested = lines.contains {
                testedLines.contains(SourceLocation(path: block.chapter, line: $0))
            }
            let failed = failedChecks.contains {
                guard let location = $0.location, location.path == block.chapter else { return false }
                return location.line >= block.location.line
                    && location.line <= block.contentLine + block.lineCount
            }
            let badge = Badge(report.status, tested: tested, failed: failed)
            if badge == .tested { proofs.testedCount += 1 }
            proofs.badges[key] = badge
            proofs.targets[key] =
                block.attributes.file.map { [$0] } ?? tangle.blockTargets[index].map { $0.sorted() } ?? []
        }
        return proofs
    }

    /// The chunk directories of the last builds, by their blocks (a prose edit keeps the blocks,
    /// so a save reuses the directory; an unchanged chapter's blocks share their storage with
    /// the previous build's, so comparing them costs little).
    private static let directories = RecentValues<[CodeBlock], ChunkDirectory>(capacity: 4)

    /// The chapter lines that coverage data shows running, or what is wrong with the data.
    private static func loadCoverage(_ url: URL, files: [TangledFile]) -> Result<
        Set<SourceLocation>, WeaveMessage
    > {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            return .failure(.invalidCoverage(path: url.path, detail: SystemError.describe(error)))
        }
        do throws(WeaveMessage) {
            return .success(try LineCoverage(json: data).chapterLines(of: files))
        } catch {
            return .failure(error)
        }
    }

    /// The newest `*.json` in `BOOK/.build/debug/codecov/`, where `swift test
    /// --enable-code-coverage` leaves its export.
    static func newestCoverageFile(in root: URL) -> URL? {
        let folder = root.appendingPathComponent(".build/debug/codecov")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let candidates = names.filter { $0.hasSuffix(".json") }.map { folder.appendingPathComponent($0) }
        return candidates.max { modificationDate($0) < modificationDate($1) }
    }

    private static func modificationDate(_ url: URL) -> Date {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
            ?? .distantPast
    }

    private static func relativePath(of url: URL, in root: URL) -> String {
        let path = url.standardizedFileURL.path
        let prefix = root.standardizedFileURL.path + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

/// A checker that answers to a checker's name and finds nothing: with it, a build gives every
/// block its status without running the check.
private struct NamedOnly: SnippetChecker {
    let name: String

    init(_ checker: any SnippetChecker) { name = checker.name }

    func check(_ snippets: [Snippet]) -> [[SnippetFinding]] { snippets.map { _ in [] } }
}
