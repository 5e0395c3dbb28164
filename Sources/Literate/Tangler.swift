import Foundation

/// A file the book generates, with the chapter line behind each of its lines.
public struct TangledFile: Sendable, Equatable {
    /// Relative to the book folder.
    public var path: String
    /// The chapters its blocks come from, in order of first appearance.
    public var chapters: [String]
    /// The whole file: header and body.
    public var content: String
    /// `lineMap[n]` is the chapter position of physical line `n + 1`; nil for lines the tangler
    /// wrote itself (header, directives, chunk comments).
    public var lineMap: [SourceLocation?]

    /// The chapter position of a 1-based physical line, if it comes from the book.
    public func chapterLocation(ofLine line: Int, column: Int = 1) -> SourceLocation? {
        guard line >= 1, line <= lineMap.count, var location = lineMap[line - 1] else { return nil }
        location.column += column - 1
        return location
    }
}

/// What tangling a book produced: the files, every block, and the diagnostics.
public struct TangleResult: Sendable {
    public var files: [TangledFile]
    public var blocks: [CodeBlock]
    public var diagnostics: [Diagnostic]
    /// For each block (by index into `blocks`), the files its lines reach.
    public var blockTargets: [Int: Set<String>]

    public var hasErrors: Bool { diagnostics.hasErrors }
}

/// Turns a book's chunks into files. Pure: reads nothing but the book, writes nothing.
public enum Tangler {
    public static func tangle(_ book: Book) -> TangleResult {
        let (blocks, collectDiagnostics) = CodeBlockCollector.collect(book)
        let graph = ChunkGraph(blocks: blocks)
        let blockIndex = Expander.index(blocks)
        // Files are independent: expand and render them on all cores.
        let outcomes = ConcurrentMap.map(graph.files.map { FileJob(path: $0.path, blocks: $0.blocks) }) {
            job in
            tangleFile(job, graph: graph, blockIndex: blockIndex, root: book.root)
        }
        var files: [TangledFile] = []
        var diagnostics = collectDiagnostics
        var usedChunks: Set<String> = []
        var blockTargets: [Int: Set<String>] = [:]
        for outcome in outcomes {
            if let file = outcome.file { files.append(file) }
            diagnostics += outcome.diagnostics
            usedChunks.formUnion(outcome.usedChunks)
            blockTargets.merge(outcome.blockTargets) { $0.union($1) }
        }
        for (name, chunkBlocks) in graph.chunks.sorted(by: { $0.key < $1.key })
        where !usedChunks.contains(name) {
            if let first = chunkBlocks.first, first.attributes.file == nil {
                diagnostics.append(.warning(.unusedChunk(name: name), at: first.location))
            }
        }
        return TangleResult(
            files: files, blocks: blocks, diagnostics: Self.unique(diagnostics), blockTargets: blockTargets)
    }

    private struct FileJob: Sendable {
        var path: String
        var blocks: [CodeBlock]
    }

    private struct FileOutcome: Sendable {
        var file: TangledFile?
        var diagnostics: [Diagnostic] = []
        var usedChunks: Set<String> = []
        var blockTargets: [Int: Set<String>] = [:]
    }

    private static func tangleFile(
        _ job: FileJob, graph: ChunkGraph, blockIndex: [SourceLocation: Int], root: URL
    ) -> FileOutcome {
        let (path, fileBlocks) = (job.path, job.blocks)
        let location = fileBlocks[0].location
        if let problem = FileTarget.problem(path, root: root) {
            return FileOutcome(diagnostics: [.error(problem, at: location)])
        }
        guard let comment = CommentSyntax(path: path) else {
            return FileOutcome(diagnostics: [.error(.fileTargetNotSupported(path: path), at: location)])
        }
        let languages = fileBlocks.compactMap { $0.attributes.language }
        if let first = languages.first, let other = languages.first(where: { $0 != first }) {
            let block = fileBlocks.first { $0.attributes.language == other } ?? fileBlocks[0]
            return FileOutcome(
                diagnostics: [
                    .error(.conflictingLanguages(path: path, first: first, other: other), at: block.location)
                ])
        }
        var expander = Expander(graph: graph, blockIndex: blockIndex)
        let lines = expander.expandFile(path: path, blocks: fileBlocks)
        var renderer = Renderer(comment: comment, isSwift: path.hasSuffix(".swift"))
        renderer.render(lines)
        var chapters: [String] = []
        for line in lines {
            if case .code(_, _, let origin) = line, chapters.last != origin.path,
                !chapters.contains(origin.path)
            {
                chapters.append(origin.path)
            }
        }
        let header = GeneratedFileHeader(
            comment: comment, chapters: chapters, bodyHash: GeneratedFileHeader.hash(bytes: renderer.bytes))
        let headerLines = header.text.utf8.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let file = TangledFile(
            path: path, chapters: chapters, content: header.text + renderer.body,
            lineMap: Array(repeating: nil, count: headerLines) + renderer.lineMap)
        return FileOutcome(
            file: file, diagnostics: expander.diagnostics, usedChunks: expander.usedChunks,
            blockTargets: expander.blockTargets)
    }

    private static func unique(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var seen: Set<Diagnostic> = []
        return diagnostics.filter { seen.insert($0).inserted }.sorted(by: Diagnostic.bookOrder)
    }
}

extension Diagnostic {
    /// Orders diagnostics by position (those without one first), then by message.
    public static func bookOrder(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
        switch (lhs.location, rhs.location) {
        case (nil, nil): return lhs.message < rhs.message
        case (nil, _): return true
        case (_, nil): return false
        case (let left?, let right?):
            return left == right ? lhs.message < rhs.message : left < right
        }
    }
}

/// A line of expanded output before rendering.
enum ExpandedLine: Equatable {
    /// A line of the book, and the indentation its place adds (kept apart: joining them for
    /// every line would cost an allocation each).
    case code(indentation: String, line: String, origin: SourceLocation)
    /// A block starts: its chunk name (nil for a file's own blocks).
    case blockStart(chunk: String?, indentation: String, canImport: String?)
    /// A block with `canImport` ends.
    case blockEnd(indentation: String, canImport: String)
    /// Back in an enclosing block after an inclusion.
    case resume
}

/// Expands chunk references, detecting undefined names and cycles.
struct Expander {
    let graph: ChunkGraph
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var usedChunks: Set<String> = []
    private(set) var blockTargets: [Int: Set<String>] = [:]
    private let blockIndex: [SourceLocation: Int]

    init(graph: ChunkGraph, blockIndex: [SourceLocation: Int]) {
        self.graph = graph
        self.blockIndex = blockIndex
    }

    /// Each block's index in book order, by its position.
    static func index(_ blocks: [CodeBlock]) -> [SourceLocation: Int] {
        var index: [SourceLocation: Int] = [:]
        for (offset, block) in blocks.enumerated() { index[block.location] = offset }
        return index
    }

    mutating func expandFile(path: String, blocks: [CodeBlock]) -> [ExpandedLine] {
        var output: [ExpandedLine] = []
        for block in blocks {
            expand(block, chunk: nil, indentation: "", stack: [], file: path, into: &output)
        }
        return output
    }

    private mutating func expand(
        _ block: CodeBlock, chunk: String?, indentation: String, stack: [String], file: String,
        into output: inout [ExpandedLine]
    ) {
        if let index = blockIndex[block.location] { blockTargets[index, default: []].insert(file) }
        let canImport = block.attributes.canImport
        output.append(.blockStart(chunk: chunk, indentation: indentation, canImport: canImport))
        let outerIndentation = indentation
        // Inside `#if canImport(...)` the block is indented one level, as swift-format expects.
        let indentation = canImport == nil ? indentation : indentation + "    "
        for (offset, line) in block.lines.enumerated() {
            guard let reference = ChunkReference(line) else {
                output.append(
                    .code(
                        indentation: line.isEmpty ? "" : indentation, line: line,
                        origin: block.location(ofLine: offset)))
                continue
            }
            let at = block.location(ofLine: offset, offset: reference.indentation.count)
            let name = reference.name
            guard ChunkName.isValid(name) else {
                diagnostics.append(.error(.invalidChunkName(name), at: at))
                continue
            }
            guard let blocks = graph.chunks[name] else {
                diagnostics.append(
                    .error(.undefinedChunk(name: name, suggestion: graph.suggestion(for: name)), at: at))
                continue
            }
            usedChunks.insert(name)
            if let start = stack.firstIndex(of: name) {
                diagnostics.append(.error(.referenceCycle(path: Array(stack[start...]) + [name]), at: at))
                continue
            }
            for included in blocks {
                expand(
                    included, chunk: name, indentation: indentation + reference.indentation,
                    stack: stack + [name], file: file, into: &output)
            }
            if offset + 1 < block.lines.count { output.append(.resume) }
        }
        if let canImport {
            output.append(.blockEnd(indentation: outerIndentation, canImport: canImport))
        }
    }
}

/// Writes expanded lines as file text, adding chunk comments and, for Swift, `#sourceLocation`
/// directives where Swift allows them.
struct Renderer {
    let comment: CommentSyntax
    let isSwift: Bool
    /// The body as UTF-8: appending bytes costs a fraction of appending strings.
    private(set) var bytes: [UInt8] = []
    var body: String { String(decoding: bytes, as: UTF8.self) }
    private(set) var lineMap: [SourceLocation?] = []
    private var layout = SwiftLayout()
    /// The chapter line the compiler would assign to the next physical line, once a directive
    /// has been written.
    private var mappedNext: (path: String, line: Int)?
    /// Set at each block start and after each inclusion: the next code line needs a directive.
    private var needsDirective = false
    /// A chunk's name comment, written just before its first line, once its indentation is known.
    private var pendingComment: (indentation: String, text: String)?

    init(comment: CommentSyntax, isSwift: Bool) {
        self.comment = comment
        self.isSwift = isSwift
    }

    mutating func render(_ lines: [ExpandedLine]) {
        for line in lines {
            switch line {
            case .blockStart(let chunk, let indentation, let canImport):
                if let canImport {
                    emit(indentation + "#if canImport(\(canImport))", origin: nil)
                }
                if let chunk {
                    let inside = canImport == nil ? indentation : indentation + "    "
                    pendingComment = (inside, comment.wrap("chunk: \(chunk)"))
                }
                needsDirective = isSwift
            case .resume:
                needsDirective = isSwift
            case .blockEnd(let indentation, _):
                emit(indentation + "#endif", origin: nil)
            case .code(let indentation, let text, let origin):
                if let (commentIndentation, commentText) = pendingComment {
                    pendingComment = nil
                    emit(commentIndentation + extraIndentation(before: text) + commentText, origin: nil)
                }
                if needsDirective, !text.isEmpty {
                    placeDirective(before: indentation + text, origin: origin)
                }
                emit(indentation, text, origin: origin)
            }
        }
    }

    private static let importPrefixes = [
        "import ", "@testable import ", "@preconcurrency import ", "@_exported import ",
    ].map { Array($0.utf8) }
    private static let caseLabelPrefixes = ["case ", "default:", "@unknown"].map { Array($0.utf8) }

    /// A line written just before a closing brace, or before a case label that follows another
    /// case's body, still belongs to the block above, so swift-format wants it one level deeper.
    private func extraIndentation(before text: String) -> String {
        let bytes = Array(text.utf8)
        let trimmed = bytes.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        if trimmed.first == UInt8(ascii: "}") { return "    " }
        let isCaseLabel = Self.caseLabelPrefixes.contains { trimmed.hasBytePrefix($0) }
        return isCaseLabel && layout.isAfterACase ? "    " : ""
    }

    /// Writes the pending `#sourceLocation` before `text` when Swift allows one there and the
    /// compiler's count does not already agree; otherwise keeps it pending for the next line
    /// (imports stay first, a `switch` gets it inside its first case).
    private mutating func placeDirective(before text: String, origin: SourceLocation) {
        if let mapped = mappedNext, mapped.path == origin.path, mapped.line == origin.line {
            needsDirective = false
            return
        }
        let bytes = Array(text.utf8)
        let indentationCount = bytes.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.count
        let trimmed = bytes[indentationCount...]
        let isImport = Self.importPrefixes.contains { trimmed.hasBytePrefix($0) }
        guard !isImport, layout.allowsDirective(before: text) else { return }
        needsDirective = false
        var indentation = String(decoding: bytes[..<indentationCount], as: UTF8.self)
        indentation += extraIndentation(before: text)
        // swift-format's canonical spelling of the directive has no spaces.
        emit(
            indentation + "#sourceLocation(file:\"\(origin.path)\",line:\(origin.line))", origin: nil,
            directive: true)
        mappedNext = (origin.path, origin.line)
    }

    private mutating func emit(_ text: String, origin: SourceLocation?, directive: Bool = false) {
        emit("", text, origin: origin, directive: directive)
    }

    private mutating func emit(
        _ indentation: String, _ text: String, origin: SourceLocation?, directive: Bool = false
    ) {
        bytes.append(contentsOf: indentation.utf8)
        bytes.append(contentsOf: text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        lineMap.append(origin)
        guard isSwift else { return }
        // A directive names the line after it, so it does not advance the compiler's count.
        if directive { return }
        layout.consume(text)
        if let mapped = mappedNext { mappedNext = (mapped.path, mapped.line + 1) }
    }
}

/// Where a file target may be written.
enum FileTarget {
    /// Why `path` may not be written inside `root`, or nil when it may.
    static func problem(_ path: String, root: URL) -> LiterateMessage? {
        if path.hasPrefix("/") { return .fileTargetOutsideBook(path: path, reason: "absolute path") }
        if path.hasPrefix("~") { return .fileTargetOutsideBook(path: path, reason: "home-relative path") }
        if path.hasSuffix("/") || path.isEmpty {
            return .fileTargetOutsideBook(path: path, reason: "not a file name")
        }
        var depth = 0
        for component in path.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": depth -= 1
            default: depth += 1
            }
            if depth < 0 { return .fileTargetOutsideBook(path: path, reason: "'..' leaves the book folder") }
        }
        // A symlink inside the book may point outside it: resolve the deepest existing ancestor.
        let rootPath = root.resolvingSymlinksInPath().standardizedFileURL.path
        var candidate = root.appendingPathComponent(path).deletingLastPathComponent()
        let fileManager = FileManager.default
        while !fileManager.fileExists(atPath: candidate.path), candidate.path.count > rootPath.count {
            candidate = candidate.deletingLastPathComponent()
        }
        let resolved = candidate.resolvingSymlinksInPath().standardizedFileURL.path
        if resolved != rootPath, !resolved.hasPrefix(rootPath + "/") {
            return .fileTargetOutsideBook(path: path, reason: "a symbolic link leads outside it")
        }
        let target = root.appendingPathComponent(path)
        if let attributes = try? fileManager.attributesOfItem(atPath: target.path),
            attributes[.type] as? FileAttributeType == .typeSymbolicLink
        {
            let destination = target.resolvingSymlinksInPath().standardizedFileURL.path
            if !destination.hasPrefix(rootPath + "/") {
                return .fileTargetOutsideBook(path: path, reason: "a symbolic link leads outside it")
            }
        }
        return nil
    }
}
