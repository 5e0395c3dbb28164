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
    public static func tangle(_ book: Book, limits: TangleLimits = .standard) -> TangleResult {
        let (blocks, collectDiagnostics) = CodeBlockCollector.collect(book)
        let graph = ChunkGraph(blocks: blocks)
        // Checked before the parallel part: files in one folder share the file system work.
        var targets = FileTarget(root: book.root)
        let jobs = graph.fileBlocks.map {
            FileJob(path: $0.path, blocks: $0.blocks, problem: targets.problem($0.path))
        }
        // What follows depends on nothing else: a save that changed prose only tangles nothing.
        let key = TangleKey(
            root: book.root, blocks: blocks, diagnostics: collectDiagnostics, problems: jobs.map(\.problem),
            limits: limits)
        return recent.value(for: key) {
            tangle(blocks: blocks, graph: graph, jobs: jobs, diagnostics: collectDiagnostics, limits: limits)
        }
    }

    /// The tangles of the last few books (the live site's languages share their code blocks).
    private static let recent = RecentValues<TangleKey, TangleResult>(capacity: 2)

    /// Everything a tangle is made from: the blocks and, for each file, why it may not be written.
    private struct TangleKey: Equatable, Sendable {
        var root: URL
        var blocks: [CodeBlock]
        var diagnostics: [Diagnostic]
        var problems: [LiterateMessage?]
        var limits: TangleLimits
    }

    private static func tangle(
        blocks: [CodeBlock], graph: ChunkGraph, jobs: [FileJob], diagnostics collectDiagnostics: [Diagnostic],
        limits: TangleLimits
    ) -> TangleResult {
        // Files are independent: expand and render them on all cores.
        let outcomes = ConcurrentMap.map(jobs) { job in tangleFile(job, graph: graph, limits: limits) }
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

    private static func tangleFile(_ job: FileJob, graph: ChunkGraph, limits: TangleLimits) -> FileOutcome {
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
        let output = TangledBody(path: path, comment: comment, isSwift: path.hasSuffix(".swift"))
        var expander = Expander(graph: graph, output: output, limits: limits)
        for block in job.blocks { expander.expand(block) }
        guard !expander.stopped else {
            // Half a file is no file: report, and count every chunk it names as used, so that
            // the cut does not also bring a warning for each chunk it did not reach.
            return FileOutcome(
                diagnostics: expander.diagnostics, usedChunks: graph.chunksReachable(from: job.blocks),
                reachedBlocks: expander.reachedBlocks)
        }
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
        diagnostics.removingRepeats().sorted(by: Diagnostic.bookOrder)
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

/// Expands one file's blocks into its output, detecting undefined names and cycles, and stopping
/// at ``TangleLimits``.
///
/// The walk keeps its own stack of blocks and inclusions instead of recursing, so a chapter whose
/// chunks nest thousands deep costs heap, not the thread's stack.
struct Expander {
    let graph: ChunkGraph
    let limits: TangleLimits
    private(set) var output: TangledBody
    private(set) var diagnostics: [Diagnostic] = []
    /// Chunk numbers included, and blocks (indices) whose lines reached the file.
    private(set) var usedChunks: [Int] = []
    private(set) var reachedBlocks: [Int] = []
    /// Set when a limit stopped the expansion: the output is incomplete and must not be written.
    private(set) var stopped = false
    /// The blocks and inclusions in progress, outermost first.
    private var work: [Step] = []
    /// The chunks being expanded, outermost first, for the messages; `active` answers "is this
    /// chunk being expanded?" in constant time, to detect a cycle.
    private var inclusions: [Inclusion] = []
    private var active: [Bool]
    /// Blocks begun in this file, each at least a line's worth of work.
    private var steps = 0
    /// The indentation the current place adds to every line: each inclusion appends its
    /// reference's indentation and removes it when done, so no line copies it.
    private var indentation: [UInt8] = []

    /// A block being written, line by line.
    private struct BlockFrame {
        var index: Int
        var next = 0
        /// The indentation before the block began.
        var outerCount: Int
        var canImport: String?
    }

    /// A chunk being included: its blocks, one after the other.
    private struct Inclusion {
        var number: Int
        var name: String
        var next = 0
        /// The indentation before the reference's own was added.
        var innerCount: Int
        /// Whether the including block has lines after the reference.
        var resumes: Bool
        /// The reference, for the messages.
        var at: SourceLocation
    }

    private enum Step {
        case block(BlockFrame)
        case inclusion
    }

    init(graph: ChunkGraph, output: TangledBody, limits: TangleLimits = .standard) {
        (self.graph, self.output, self.limits) = (graph, output, limits)
        active = Array(repeating: false, count: graph.chunkNames.count)
    }

    /// Writes block `index` (of the book's blocks), a file's own, with everything it includes.
    mutating func expand(_ index: Int) {
        guard !stopped else { return }
        begin(index, chunk: nil)
        while !stopped, let step = work.last {
            switch step {
            case .block(var frame):
                let count = graph.blocks[frame.index].text.count
                guard frame.next < count else {
                    work.removeLast()
                    end(frame)
                    continue
                }
                let offset = frame.next
                frame.next += 1
                work[work.count - 1] = .block(frame)
                writeLine(offset, of: frame.index, isLast: offset + 1 == count)
            case .inclusion:
                var inclusion = inclusions[inclusions.count - 1]
                let blocks = graph.chunkBlocks[inclusion.number]
                guard inclusion.next < blocks.count else {
                    work.removeLast()
                    inclusions.removeLast()
                    active[inclusion.number] = false
                    indentation.removeLast(indentation.count - inclusion.innerCount)
                    if inclusion.resumes { output.resume() }
                    continue
                }
                inclusion.next += 1
                inclusions[inclusions.count - 1] = inclusion
                begin(blocks[inclusion.next - 1], chunk: inclusion.name)
            }
        }
        work.removeAll()
    }

    /// Starts a block, included as `chunk` (nil for a file's own) at the current indentation.
    private mutating func begin(_ index: Int, chunk: String?) {
        steps += 1
        guard steps <= limits.lines else { return stop(.inclusions(limits.lines)) }
        reachedBlocks.append(index)
        // Read the fields it needs: copying a whole block would retain every string it holds.
        let canImport = graph.blocks[index].attributes.canImport
        output.blockStart(chunk: chunk, indentation: indentation, canImport: canImport)
        let outerCount = indentation.count
        // Inside `#if canImport(...)` the block is indented one level, as swift-format expects.
        if canImport != nil { indentation.append(contentsOf: TangledBody.oneLevel) }
        work.append(.block(BlockFrame(index: index, outerCount: outerCount, canImport: canImport)))
    }

    private mutating func end(_ frame: BlockFrame) {
        indentation.removeLast(indentation.count - frame.outerCount)
        if let canImport = frame.canImport {
            output.blockEnd(indentation: indentation, canImport: canImport)
            checkSize()
        }
    }

    /// Stops when the file has passed a size limit.
    private mutating func checkSize() {
        if output.lineCount > limits.lines {
            stop(.lines(limits.lines))
        } else if output.byteCount > limits.bytes {
            stop(.bytes(limits.bytes))
        }
    }

    /// Writes line `offset` of block `index`, or starts the inclusion it names.
    private mutating func writeLine(_ offset: Int, of index: Int, isLast: Bool) {
        let text = graph.blocks[index].text
        let reference: ChunkReference? = text.bytes.withUnsafeBufferPointer { bytes in
            let line = UnsafeBufferPointer(rebasing: bytes[text.range(ofLine: offset)])
            guard let reference = ChunkReference(line) else {
                output.code(
                    indentation: line.isEmpty ? [] : indentation, line: line,
                    chapter: graph.blocks[index].chapter,
                    number: graph.blocks[index].contentLine + offset,
                    column: graph.blocks[index].contentColumn)
                return nil
            }
            return reference
        }
        guard let reference else { return checkSize() }
        let at = graph.blocks[index].location(ofLine: offset, offset: reference.indentation.utf8.count)
        let name = reference.name
        guard ChunkName.isValid(name) else {
            diagnostics.append(.error(.invalidChunkName(name), at: at))
            return
        }
        guard let number = graph.chunkNumbers[name] else {
            diagnostics.append(
                .error(.undefinedChunk(name: name, suggestion: graph.suggestion(for: name)), at: at))
            return
        }
        usedChunks.append(number)
        if active[number] {
            let start = inclusions.firstIndex { $0.number == number } ?? 0
            let cycle = inclusions[start...].map(\.name) + [name]
            diagnostics.append(.error(.referenceCycle(path: cycle), at: at))
            return
        }
        guard inclusions.count < limits.depth else {
            diagnostics.append(
                .error(.nestingTooDeep(path: inclusions.map(\.name) + [name], limit: limits.depth), at: at))
            stopped = true
            return
        }
        active[number] = true
        inclusions.append(
            Inclusion(number: number, name: name, innerCount: indentation.count, resumes: !isLast, at: at))
        indentation.append(contentsOf: reference.indentation.utf8)
        work.append(.inclusion)
    }

    /// Gives up on the file: a limit was passed. The message names the outermost inclusion, the
    /// line of the file's own block that started it all.
    private mutating func stop(_ exceeded: TangleLimits.Exceeded) {
        let location = inclusions.first?.at ?? firstBlockLocation
        diagnostics.append(
            .error(
                .expansionTooLarge(chunk: inclusions.first?.name, path: output.path, limit: exceeded),
                at: location))
        stopped = true
    }

    /// The file's own block in progress, for a limit passed outside any inclusion.
    private var firstBlockLocation: SourceLocation? {
        for step in work {
            if case .block(let frame) = step { return graph.blocks[frame.index].location }
        }
        return nil
    }
}
