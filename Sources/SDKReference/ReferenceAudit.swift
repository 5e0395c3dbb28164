import Foundation
import Literate

/// What `workbook reference` says about the symbol graphs and DocC's findings, as diagnostics at
/// the places a reader edits: the chapter lines the modules are tangled from.
///
/// A symbol graph (`Li2SDK.symbols.json`, and `Li2SDK@Swift.symbols.json` for extensions of
/// another module's types) lists every public declaration of a compiled module with its doc
/// comment and its place. Tangled files carry `#sourceLocation`, so that place is already a
/// chapter line, written as the directive wrote it (`file://chapters/19-inside-consent.md`) and
/// counted from 0:
///
/// ```json
/// {"kind": {"identifier": "swift.enum.case", "displayName": "Case"},
///  "pathComponents": ["Li2PasteboardContent", "text(_:)"],
///  "location": {"uri": "file://chapters/19-inside-consent.md", "position": {"line": 207, "character": 9}}}
/// ```
///
/// becomes `chapters/19-inside-consent.md:208:10: warning: public case
/// 'Li2PasteboardContent.text(_:)' has no doc comment`.
package enum ReferenceAudit {
    /// One module's count: its own public declarations, and how many have no doc comment.
    package struct ModuleCount: Equatable, Sendable {
        var module: String
        var declarations: Int
        var undocumented: Int
        /// Of the declarations, those only Apple platforms compile (read from the chapters).
        var appleOnly = 0
    }

    /// The module's declarations without a doc comment, sorted by place, and the counts.
    ///
    /// Only declarations with a place count: members a type gets from a protocol extension of
    /// another module (`!=` from `Equatable`) are in the graph without one, and their
    /// documentation is that module's business.
    static func undocumented(module: String, graphs: [Data], bookRoot: URL) throws -> (
        ModuleCount, [Diagnostic]
    ) {
        var declarations = 0
        var findings: [Diagnostic] = []
        var seen = Set<String>()
        for data in graphs {
            let graph = try JSONDecoder().decode(SymbolGraph.self, from: data)
            // An extension block is where members are, not a declaration of its own.
            for symbol in graph.symbols where symbol.kind.identifier != "swift.extension" {
                guard let location = symbol.location, seen.insert(symbol.identifier.precise).inserted else {
                    continue
                }
                declarations += 1
                guard !symbol.isDocumented else { continue }
                let place = SourceLocation(
                    path: bookPath(uri: location.uri, bookRoot: bookRoot),
                    line: location.position.line + 1, column: location.position.character + 1)
                findings.append(
                    Diagnostic(
                        .warning,
                        text: ReferenceMessage.undocumented(
                            kind: symbol.kind.displayName, name: symbol.pathComponents.joined(separator: ".")),
                        at: place))
            }
        }
        findings.sort { ($0.location!, $0.message) < ($1.location!, $1.message) }
        return (
            ModuleCount(module: module, declarations: declarations, undocumented: findings.count), findings
        )
    }

    /// The graphs' path components and identifiers: what the compiled module already lists.
    static func identifiers(in graphs: [Data]) throws -> [[String]: String] {
        var identifiers: [[String]: String] = [:]
        for data in graphs {
            for symbol in try JSONDecoder().decode(SymbolGraph.self, from: data).symbols
            where symbol.kind.identifier != "swift.extension" {
                identifiers[symbol.pathComponents] = symbol.identifier.precise
            }
        }
        return identifiers
    }

    /// DocC's warnings and errors from its `--diagnostics-file`, at book paths. Its positions
    /// count from 1 already.
    static func doccFindings(_ data: Data, bookRoot: URL) throws -> [Diagnostic] {
        let file = try JSONDecoder().decode(DoccDiagnostics.self, from: data)
        return file.diagnostics.compactMap { finding in
            let severity: Diagnostic.Severity
            switch finding.severity {
            case "error": severity = .error
            case "warning": severity = .warning
            default: return nil
            }
            let place = finding.source.map { source in
                SourceLocation(
                    path: bookPath(uri: source, bookRoot: bookRoot), line: finding.range?.start.line ?? 1,
                    column: finding.range?.start.column ?? 1)
            }
            let fixes = (finding.solutions ?? []).map(\.summary).filter { !$0.isEmpty }
            return Diagnostic(
                severity, text: ReferenceMessage.docc(finding.summary, fixes: fixes), at: place)
        }
    }

    /// A symbol graph's or DocC's `file://` URI as a path for the reader: relative to the book
    /// when it is inside it, as `#sourceLocation` writes tangled files' places.
    static func bookPath(uri: String, bookRoot: URL) -> String {
        var path = uri
        if path.hasPrefix("file://") { path.removeFirst("file://".count) }
        path = path.removingPercentEncoding ?? path
        let root = bookRoot.standardizedFileURL.path
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

/// The parts of a symbol graph file (SymbolKit's format) the audit reads.
private struct SymbolGraph: Decodable {
    struct Symbol: Decodable {
        struct Kind: Decodable {
            var identifier: String
            var displayName: String
        }
        struct Identifier: Decodable {
            var precise: String
        }
        struct Location: Decodable {
            struct Position: Decodable {
                var line: Int
                var character: Int
            }
            var uri: String
            var position: Position
        }
        struct DocComment: Decodable {
            struct Line: Decodable {
                var text: String
            }
            var lines: [Line]
        }

        var kind: Kind
        var identifier: Identifier
        var pathComponents: [String]
        var location: Location?
        var docComment: DocComment?

        /// A `///` with nothing after it documents nothing.
        var isDocumented: Bool {
            docComment?.lines.contains { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty } ?? false
        }
    }

    var symbols: [Symbol]
}

/// DocC's diagnostics file (`docc convert --diagnostics-file`).
private struct DoccDiagnostics: Decodable {
    struct Finding: Decodable {
        struct Range: Decodable {
            struct Position: Decodable {
                var line: Int
                var column: Int
            }
            var start: Position
        }
        struct Solution: Decodable {
            var summary: String
        }
        var summary: String
        var severity: String
        var source: String?
        var range: Range?
        var solutions: [Solution]?
    }

    var diagnostics: [Finding]
}
