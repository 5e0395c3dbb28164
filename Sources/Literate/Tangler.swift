import Foundation

/// A file the book generates, with the chapter line behind each of its lines.
public struct TangledFile: Sendable, Equatable {
    /// Relative to the book folder.
    public var path: String
    /// The chapters its blocks come from, in order of first appearance.
    public var chapters: [String]
    /// The whole file: header and body.
    public var content: String
    /// How many lines the header takes: they come from no chapter.
    let headerLineCount: Int
    /// Where each body line comes from, compactly (a file has thousands of lines).
    let origins: [LineOrigin]

    /// `lineMap[n]` is the chapter position of physical line `n + 1`; nil for lines the tangler
    /// wrote itself (header, directives, chunk comments).
    public var lineMap: [SourceLocation?] {
        Array(repeating: nil, count: headerLineCount) + origins.map(location)
    }

    /// The chapter position of a 1-based physical line, if it comes from the book.
    public func chapterLocation(ofLine line: Int, column: Int = 1) -> SourceLocation? {
        let index = line - 1 - headerLineCount
        guard line >= 1, index < origins.count else { return nil }
        guard index >= 0, var location = location(origins[index]) else { return nil }
        location.column += column - 1
        return location
    }

    private func location(_ origin: LineOrigin) -> SourceLocation? {
        guard origin.chapter >= 0 else { return nil }
        return SourceLocation(
            path: chapters[Int(origin.chapter)], line: Int(origin.line), column: Int(origin.column))
    }
}

/// Where a generated line comes from: an index into its file's `chapters` (-1 for lines the
/// tangler wrote), a line and a column.
struct LineOrigin: Sendable, Equatable {
    var chapter: Int32
    var line: Int32
    var column: Int32

    static let none = LineOrigin(chapter: -1, line: 0, column: 0)
}

/// What tangling a book produced: the files, every block, and the diagnostics.
public struct TangleResult: Sendable {
    public var files: [TangledFile]
    public var blocks: [CodeBlock]
    public var diagnostics: [Diagnostic]
    let reach: BlockReach

    /// For each block (by index into `blocks`), the files its lines reach.
    public var blockTargets: [Int: Set<String>] { reach.targets }

    public var hasErrors: Bool { diagnostics.hasErrors }
}

/// Which blocks reached which files, kept as the lists tangling made; the dictionary the checks
/// and the site read is built on first use (writing files does not need it).
final class BlockReach: @unchecked Sendable {
    /// For each file, the indices of the blocks whose lines reached it.
    private let files: [(path: String, blocks: [Int])]
    private let lock = NSLock()
    private var built: [Int: Set<String>]?

    init(files: [(path: String, blocks: [Int])]) { self.files = files }

    var targets: [Int: Set<String>] {
        lock.withLock {
            if let built { return built }
            var targets: [Int: Set<String>] = [:]
            for file in files {
                for block in file.blocks { targets[block, default: []].insert(file.path) }
            }
            built = targets
            return targets
        }
    }
}

/// Turns a book's chunks into files. Writes nothing, and reads nothing but the book and what
/// the file system says about the targets' paths.
public enum Tangler {
    public static func tangle(_ book: Book) -> TangleResult {
        let (blocks, collectDiagnostics) = CodeBlockCollector.collect(book)
        let graph = ChunkGraph(blocks: blocks)
        // Checked before the parallel part: files in one folder share the file system work.
        var targets = FileTarget(root: book.root)
        let jobs = graph.fileBlocks.map {
            FileJob(path: $0.path, blocks: $0.blocks, problem: targets.problem($0.path))
        }
        // Files are independent: expand and render them on all cores.
        let outcomes = ConcurrentMap.map(jobs) { job in tangleFile(job, graph: graph) }
        var files: [TangledFile] = []
        var diagnostics = collectDiagnostics
        var used = [Bool](repeating: false, count: graph.chunkNames.count)
        var reach: [(path: String, blocks: [Int])] = []
        for (job, outcome) in zip(jobs, outcomes) {
            if let file = outcome.file { files.append(file) }
            diagnostics += outcome.diagnostics
            for chunk in outcome.usedChunks { used[chunk] = true }
            reach.append((job.path, outcome.reachedBlocks))
        }
        let unused = graph.chunkNames.indices.filter { !used[$0] }.sorted {
            graph.chunkNames[$0] < graph.chunkNames[$1]
        }
        for chunk in unused {
            if let first = graph.chunkBlocks[chunk].first.map({ blocks[$0] }), first.attributes.file == nil {
                diagnostics.append(.warning(.unusedChunk(name: graph.chunkNames[chunk]), at: first.location))
            }
        }
        return TangleResult(
            files: files, blocks: blocks, diagnostics: Self.unique(diagnostics),
            reach: BlockReach(files: reach))
    }

    private struct FileJob: Sendable {
        var path: String
        /// Indices into the book's blocks.
        var blocks: [Int]
        var problem: LiterateMessage?
    }

    private struct FileOutcome: Sendable {
        var file: TangledFile?
        var diagnostics: [Diagnostic] = []
        /// Chunk numbers included, possibly repeated.
        var usedChunks: [Int] = []
        /// Indices of the blocks whose lines reached the file, possibly repeated.
        var reachedBlocks: [Int] = []
    }

    private static func tangleFile(_ job: FileJob, graph: ChunkGraph) -> FileOutcome {
        let path = job.path
        let fileBlocks = job.blocks.map { graph.blocks[$0] }
        let location = fileBlocks[0].location
        if let problem = job.problem {
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
        let output = TangledBody(comment: comment, isSwift: path.hasSuffix(".swift"))
        var expander = Expander(graph: graph, output: output)
        for block in job.blocks { expander.expand(block, chunk: nil) }
        let body = expander.output
        let header = GeneratedFileHeader(
            comment: comment, chapters: body.chapters, bodyHash: GeneratedFileHeader.hash(bytes: body.bytes))
        let file = TangledFile(
            path: path, chapters: body.chapters, content: joined(header.text, body.bytes),
            headerLineCount: 3 + body.chapters.count, origins: body.origins)
        return FileOutcome(
            file: file, diagnostics: expander.diagnostics, usedChunks: expander.usedChunks,
            reachedBlocks: expander.reachedBlocks)
    }

    /// The header and the body as one string, copied once.
    private static func joined(_ header: String, _ body: [UInt8]) -> String {
        var header = header
        return header.withUTF8 { head in
            body.withUnsafeBufferPointer { tail in
                String(unsafeUninitializedCapacity: head.count + tail.count) { buffer in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[..<head.count]).initialize(from: head)
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[head.count...]).initialize(from: tail)
                    return head.count + tail.count
                }
            }
        }
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

/// Expands one file's blocks into its output, detecting undefined names and cycles.
struct Expander {
    let graph: ChunkGraph
    private(set) var output: TangledBody
    private(set) var diagnostics: [Diagnostic] = []
    /// Chunk numbers included, and blocks (indices) whose lines reached the file.
    private(set) var usedChunks: [Int] = []
    private(set) var reachedBlocks: [Int] = []
    /// The chunks being expanded, outermost first, to detect a cycle.
    private var stack: [Int] = []
    /// The indentation the current place adds to every line: each inclusion appends its
    /// reference's indentation and removes it when done, so no line copies it.
    private var indentation: [UInt8] = []

    init(graph: ChunkGraph, output: TangledBody) {
        (self.graph, self.output) = (graph, output)
    }

    /// Writes block `index` (of the book's blocks), included as `chunk` (nil for a file's own
    /// blocks) at the current indentation.
    mutating func expand(_ index: Int, chunk: String?) {
        reachedBlocks.append(index)
        // Read the fields it needs: copying a whole block would retain every string it holds.
        let canImport = graph.blocks[index].attributes.canImport
        let text = graph.blocks[index].text
        let chapter = graph.blocks[index].chapter
        let contentLine = graph.blocks[index].contentLine
        let contentColumn = graph.blocks[index].contentColumn
        output.blockStart(chunk: chunk, indentation: indentation, canImport: canImport)
        // Inside `#if canImport(...)` the block is indented one level, as swift-format expects.
        let outerCount = indentation.count
        if canImport != nil { indentation.append(contentsOf: TangledBody.oneLevel) }
        text.bytes.withUnsafeBufferPointer { bytes in
            for offset in 0..<text.count {
                let line = UnsafeBufferPointer(rebasing: bytes[text.range(ofLine: offset)])
                guard let reference = ChunkReference(line) else {
                    output.code(
                        indentation: line.isEmpty ? [] : indentation, line: line, chapter: chapter,
                        number: contentLine + offset, column: contentColumn)
                    continue
                }
                let at = graph.blocks[index].location(
                    ofLine: offset, offset: reference.indentation.utf8.count)
                let name = reference.name
                guard ChunkName.isValid(name) else {
                    diagnostics.append(.error(.invalidChunkName(name), at: at))
                    continue
                }
                guard let number = graph.chunkNumbers[name] else {
                    diagnostics.append(
                        .error(.undefinedChunk(name: name, suggestion: graph.suggestion(for: name)), at: at))
                    continue
                }
                usedChunks.append(number)
                if let start = stack.firstIndex(of: number) {
                    let cycle = stack[start...].map { graph.chunkNames[$0] } + [name]
                    diagnostics.append(.error(.referenceCycle(path: cycle), at: at))
                    continue
                }
                stack.append(number)
                let innerCount = indentation.count
                indentation.append(contentsOf: reference.indentation.utf8)
                for included in graph.chunkBlocks[number] { expand(included, chunk: name) }
                indentation.removeLast(indentation.count - innerCount)
                stack.removeLast()
                if offset + 1 < text.count { output.resume() }
            }
        }
        indentation.removeLast(indentation.count - outerCount)
        if let canImport {
            output.blockEnd(indentation: indentation, canImport: canImport)
        }
    }
}
