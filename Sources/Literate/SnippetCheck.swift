import Foundation
import ProcessRunner
import StrictJSON
import SystemErrors

/// A non-Swift snippet handed to a checker: the block and its text.
public struct Snippet: Sendable {
    public var block: CodeBlock
    public var text: String { block.lines.joined(separator: "\n") + (block.lines.isEmpty ? "" : "\n") }

    public init(block: CodeBlock) { self.block = block }
}

/// A checker's finding, positioned inside the snippet (1-based line and column), when it can be.
public struct SnippetFinding: Sendable, Equatable {
    public var severity: Diagnostic.Severity
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(_ severity: Diagnostic.Severity, line: Int? = nil, column: Int? = nil, _ message: String) {
        (self.severity, self.line, self.column, self.message) = (severity, line, column, message)
    }
}

/// Validates snippets of one kind, such as AASA files or console transcripts.
///
/// Checkers are registered by name; a block selects one with `check=NAME`. Later layers (the
/// subject modules, the mock server) register theirs with `workbook check`; the engine itself
/// ships only `json`.
public protocol SnippetChecker: Sendable {
    /// The name a block uses in `check=NAME`.
    var name: String { get }
    /// Checks every snippet that selected this checker; one array of findings per snippet, in
    /// order. Batching lets a checker share expensive set-up, such as starting a server.
    func check(_ snippets: [Snippet]) -> [[SnippetFinding]]
}

/// Checks that a snippet is well-formed JSON.
public struct JSONChecker: SnippetChecker {
    public init() {}

    public var name: String { "json" }

    /// Strict RFC 8259 syntax (Foundation on Linux accepts trailing commas), with the position of
    /// the first problem.
    public func check(_ snippets: [Snippet]) -> [[SnippetFinding]] {
        snippets.map { snippet in
            guard let problem = JSONSyntax.firstProblem(in: Data(snippet.text.utf8)) else { return [] }
            return [
                SnippetFinding(
                    .error, line: problem.line, column: problem.column,
                    LiterateMessage.invalidJSON(detail: problem.message).text)
            ]
        }
    }
}

/// The status a block shows on the site and in `check --report`.
public enum BlockStatus: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Tangled into a Swift file that the package compiles.
    case compiled
    /// Tangled into a file outside the package's sources (a fixture, a script, data).
    case tangled
    /// Apple-only Swift, parse-checked on this platform.
    case parseChecked(module: String)
    /// Validated by a named checker.
    case checked(by: String)
    /// Defined as a chunk but never included in a file.
    case unused
    /// Nothing checks it; the site says so.
    case displayOnly

    public var description: String {
        switch self {
        case .compiled: "compiled"
        case .tangled: "tangled"
        case .parseChecked(let module): "parse-checked (\(module))"
        case .checked(let checker): "checked (\(checker))"
        case .unused: "unused"
        case .displayOnly: "display-only"
        }
    }

    /// A short key for grouping in reports and for CSS classes on the site.
    public var key: String {
        switch self {
        case .compiled: "compiled"
        case .tangled: "tangled"
        case .parseChecked: "parse-checked"
        case .checked: "checked"
        case .unused: "unused"
        case .displayOnly: "display-only"
        }
    }
}

/// One row of the check report.
public struct BlockReport: Sendable, Equatable {
    public var block: CodeBlock
    public var status: BlockStatus
}

/// Runs every snippet check of a book.
public struct BookChecker: Sendable {
    public var checkers: [String: any SnippetChecker]
    /// The Swift compiler used for parse checks; nil disables them (reported as an error).
    public var swiftc: String?

    public init(checkers: [any SnippetChecker], swiftc: String? = BookChecker.findExecutable("swiftc")) {
        var table: [String: any SnippetChecker] = [:]
        for checker in [JSONChecker()] + checkers { table[checker.name] = checker }
        self.checkers = table
        self.swiftc = swiftc
    }

    /// The status of every block and the diagnostics of every check, for a tangled book.
    public func run(_ result: TangleResult) -> (reports: [BlockReport], diagnostics: [Diagnostic]) {
        var reports: [BlockReport] = []
        var diagnostics: [Diagnostic] = []
        var byChecker: [String: [Int]] = [:]
        var parseChecks: [Int] = []
        // Files whose every block is Apple-only: a chunk that lands only in them is too.
        var gated: [String: String?] = [:]
        for block in result.blocks {
            guard let file = block.attributes.file else { continue }
            let module = block.attributes.canImport
            gated[file] = gated[file].map { $0 == module ? module : nil } ?? module
        }
        for (index, block) in result.blocks.enumerated() {
            let attributes = block.attributes
            let language = attributes.language?.lowercased()
            var status = BlockStatus.displayOnly
            if let targets = result.blockTargets[index] {
                let compiled = targets.contains {
                    $0.hasSuffix(".swift") && ($0.hasPrefix("Sources/") || $0.hasPrefix("Tests/"))
                }
                status = compiled ? .compiled : .tangled
            } else if attributes.chunkName != nil {
                status = .unused
            }
            let inherited = result.blockTargets[index].flatMap { targets -> String? in
                let modules = Set(targets.map { gated[$0] ?? nil })
                return modules.count == 1 ? modules.first ?? nil : nil
            }
            if let module = attributes.canImport ?? inherited, language == "swift" {
                status = .parseChecked(module: module)
                parseChecks.append(index)
            }
            if let name = attributes.checker ?? (language == "json" ? "json" : nil) {
                if checkers[name] == nil {
                    let known = checkers.keys.sorted()
                    diagnostics.append(.error(.unknownChecker(name: name, known: known), at: block.location))
                } else {
                    status = .checked(by: name)
                    byChecker[name, default: []].append(index)
                }
            }
            reports.append(BlockReport(block: block, status: status))
        }
        for (name, indices) in byChecker.sorted(by: { $0.key < $1.key }) {
            guard let checker = checkers[name] else { continue }
            let findings = checker.check(indices.map { Snippet(block: result.blocks[$0]) })
            for (index, blockFindings) in zip(indices, findings) {
                let block = result.blocks[index]
                for finding in blockFindings {
                    let location =
                        finding.line.map {
                            block.location(ofLine: $0 - 1, offset: max(0, (finding.column ?? 1) - 1))
                        }
                        ?? block.location
                    diagnostics.append(Diagnostic(finding.severity, text: finding.message, at: location))
                }
            }
        }
        diagnostics += parseCheck(parseChecks.map { result.blocks[$0] })
        return (reports, diagnostics.sorted(by: Diagnostic.bookOrder))
    }

    /// Parse-checks Apple-only blocks with `swiftc -parse`, one compiler run for all of them.
    /// Each block is written with a `#sourceLocation` directive so the compiler's messages name
    /// chapter lines directly.
    func parseCheck(_ blocks: [CodeBlock]) -> [Diagnostic] {
        guard !blocks.isEmpty else { return [] }
        guard let swiftc else {
            return [
                .error(
                    .swiftParseFailed(
                        detail: "swiftc not found on PATH; cannot parse-check Apple-only blocks"),
                    at: blocks[0].location)
            ]
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "literate-parse-\(getpid())-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files: SwiftBlockFiles
        do {
            // References stay as they are: -parse checks syntax, and `<<name>>` lines are
            // replaced by a comment so they do not count as errors.
            files = try SwiftBlockFiles.write(blocks, in: folder) { line in
                ChunkReference(line) != nil ? "// " + line : line
            }
        } catch {
            return [
                .error(
                    .swiftParseFailed(
                        detail: "cannot write parse-check files: \(SystemError.message(for: error))"),
                    at: blocks[0].location)
            ]
        }
        let run = Subprocess.run(swiftc, ["-parse"] + files.paths, timeout: 600, stopsOnInterrupt: false)
        guard !run.timedOut else {
            return [
                .error(
                    .swiftParseFailed(detail: "swiftc -parse timed out after 600 s"), at: blocks[0].location)
            ]
        }
        guard run.status != 0 else { return [] }
        let (placed, unplaced) = files.place(run.output)
        var diagnostics = placed.map { message in
            Diagnostic(
                message.severity, text: message.message,
                at: blocks[message.block].location(ofLine: message.line, offset: message.column - 1))
        }
        diagnostics += unplaced.map { message in
            Diagnostic(
                message.severity, text: message.message,
                at: SourceLocation(path: message.path, line: message.line, column: message.column))
        }
        if diagnostics.isEmpty {
            diagnostics.append(
                .error(
                    .swiftParseFailed(detail: "swiftc -parse failed: \(run.output)"), at: blocks[0].location))
        }
        return diagnostics
    }

    /// The first executable named `name` on `PATH`.
    public static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// A `path:line:col: severity: message` line as compilers and linters print it.
public struct CompilerMessage: Equatable, Sendable {
    public var path: String
    public var line: Int
    public var column: Int
    public var severity: Diagnostic.Severity
    public var message: String

    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, let line = Int(parts[1]), let column = Int(parts[2]) else { return nil }
        let severityText = parts[3].trimmingCharacters(in: .whitespaces)
        guard let severity = Diagnostic.Severity(rawValue: severityText) else { return nil }
        self.path = String(parts[0])
        self.line = line
        self.column = column
        self.severity = severity
        self.message = parts[4].trimmingCharacters(in: .whitespaces)
    }
}
