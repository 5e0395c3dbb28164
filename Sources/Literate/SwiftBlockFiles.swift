import Foundation

/// Swift blocks written out for the compiler, one file each, and the compiler's messages placed
/// back on the blocks.
///
/// Each file opens with a `#sourceLocation` directive naming the block's chapter and first content
/// line, so the compiler's messages already name chapter lines; ``place(_:)`` turns them into
/// positions inside the blocks (which callers turn into chapter positions with
/// ``CodeBlock/location(ofLine:offset:)``, minding indented blocks).
///
/// ```swift
/// let files = try SwiftBlockFiles.write(blocks, in: folder)
/// let run = Subprocess.run(swiftc, ["-parse"] + files.paths, timeout: 600)
/// for message in files.place(run.output).placed {
///     print(blocks[message.block].location(ofLine: message.line, offset: message.column - 1))
/// }
/// ```
public struct SwiftBlockFiles: Sendable {
    /// The blocks, in the order of ``paths``.
    public var blocks: [CodeBlock]
    /// The file written for each block.
    public var paths: [String]

    /// A compiler message placed on a block.
    public struct PlacedMessage: Sendable, Equatable {
        /// The index of the block in ``SwiftBlockFiles/blocks``.
        public var block: Int
        /// The block's content line, 0-based.
        public var line: Int
        /// The column in that line, 1-based, as the compiler counts it.
        public var column: Int
        public var severity: Diagnostic.Severity
        public var message: String
    }

    /// Writes block `i` to `folder/block<i>.swift` behind its directive; `transform` may rewrite
    /// each content line (one line in, one line out, so lines keep their numbers).
    public static func write(
        _ blocks: [CodeBlock], in folder: URL, transform: (String) -> String = { $0 }
    ) throws -> SwiftBlockFiles {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var paths: [String] = []
        for (index, block) in blocks.enumerated() {
            let url = folder.appendingPathComponent("block\(index).swift")
            var text = "#sourceLocation(file: \"\(block.chapter)\", line: \(block.contentLine))\n"
            for line in block.lines { text += transform(line) + "\n" }
            try Data(text.utf8).write(to: url)
            paths.append(url.path)
        }
        return SwiftBlockFiles(blocks: blocks, paths: paths)
    }

    /// The errors and warnings in a compiler's `output`, each placed on its block; the messages
    /// that name no line of these blocks (a file of another module, say) come back unplaced.
    /// Notes are dropped: each follows the error or warning it explains.
    public func place(_ output: String) -> (placed: [PlacedMessage], unplaced: [CompilerMessage]) {
        var placed: [PlacedMessage] = []
        var unplaced: [CompilerMessage] = []
        for text in output.split(separator: "\n") {
            guard let message = CompilerMessage(String(text)), message.severity != .note else { continue }
            guard let (block, line) = position(of: message) else {
                unplaced.append(message)
                continue
            }
            placed.append(
                PlacedMessage(
                    block: block, line: line, column: message.column, severity: message.severity,
                    message: message.message))
        }
        return (placed, unplaced)
    }

    /// The block and its 0-based line for a message, through the directive's chapter line or,
    /// for a message the directive does not cover (such as one at the end of the file), through
    /// the written file's own line (line 1 is the directive).
    private func position(of message: CompilerMessage) -> (block: Int, line: Int)? {
        if let index = paths.firstIndex(of: message.path) {
            return (index, clamp(message.line - 2, in: blocks[index]))
        }
        for (index, block) in blocks.enumerated() where block.chapter == message.path {
            // One past the last line still belongs to the block: "expected '}'" lands there.
            let lines = block.contentLine...(block.contentLine + block.lineCount)
            if lines.contains(message.line) {
                return (index, clamp(message.line - block.contentLine, in: block))
            }
        }
        return nil
    }

    private func clamp(_ line: Int, in block: CodeBlock) -> Int {
        min(max(0, line), max(0, block.lineCount - 1))
    }
}
