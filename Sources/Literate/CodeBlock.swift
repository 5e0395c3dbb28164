import Foundation

/// A code block of the book with its attributes and where it stands.
public struct CodeBlock: Sendable, Equatable {
    /// The chapter's path relative to the book folder.
    public var chapter: String
    /// Position of the opening fence (or of the first line of indented code).
    public var location: SourceLocation
    /// The line of the block's first content line.
    public var contentLine: Int
    /// The column where content lines start in the source (after any container prefix).
    public var contentColumn: Int
    public var info: String
    public var attributes: BlockAttributes
    /// The content, kept as one UTF-8 buffer: the tangler reads it as bytes.
    var text: CodeText
    public var isFenced: Bool

    /// The content, one element per line, without the final newline.
    public var lines: [String] {
        get { text.strings }
        set { text = CodeText(lines: newValue) }
    }

    /// How many lines ``lines`` holds, without making them.
    public var lineCount: Int { text.count }

    public init(
        chapter: String, location: SourceLocation, contentLine: Int, contentColumn: Int, info: String,
        attributes: BlockAttributes, lines: [String], isFenced: Bool
    ) {
        self.init(
            chapter: chapter, location: location, contentLine: contentLine, contentColumn: contentColumn,
            info: info, attributes: attributes, text: CodeText(lines: lines), isFenced: isFenced)
    }

    init(
        chapter: String, location: SourceLocation, contentLine: Int, contentColumn: Int, info: String,
        attributes: BlockAttributes, text: CodeText, isFenced: Bool
    ) {
        (
            self.chapter, self.location, self.contentLine, self.contentColumn, self.info, self.attributes,
            self.text, self.isFenced
        ) = (chapter, location, contentLine, contentColumn, info, attributes, text, isFenced)
    }

    /// The source position of content line `index` (0-based) at `column` (0-based offset).
    public func location(ofLine index: Int, offset: Int = 0) -> SourceLocation {
        SourceLocation(path: chapter, line: contentLine + index, column: contentColumn + offset)
    }

    /// A short label for reports: the file target, the chunk name, or the language.
    public var label: String {
        if let file = attributes.file {
            return attributes.chunkName.map { "\(file) #\($0)" } ?? file
        }
        if let name = attributes.chunkName { return "#\(name)" }
        return "-"
    }
}

/// A code block's lines as one UTF-8 buffer with the offset where each line starts.
///
/// A book holds tens of thousands of code lines; one `String` per line would cost an allocation
/// each, and the tangler only ever copies their bytes.
struct CodeText: Sendable, Equatable {
    /// The lines joined with `\n`, without a final newline.
    let bytes: [UInt8]
    /// Where each line starts in `bytes`; empty for a block without lines.
    let lineStarts: [Int]

    /// Splits `bytes` (content without its final newline) at every `\n`. A block with no line
    /// at all (`hasLines` false) keeps no line, not one empty line.
    init(bytes: [UInt8], hasLines: Bool) {
        self.bytes = bytes
        guard hasLines else {
            lineStarts = []
            return
        }
        lineStarts = bytes.withUnsafeBytes { buffer in
            // Two passes with `memchr`: count the lines, then record them in an exact-size array.
            let newlines = Self.newlineOffsets(in: buffer) { _ in }
            var starts: [Int] = []
            starts.reserveCapacity(newlines + 1)
            starts.append(0)
            _ = Self.newlineOffsets(in: buffer) { starts.append($0 + 1) }
            return starts
        }
    }

    /// Calls `body` with the offset of every `\n` in `buffer`; returns how many there are.
    private static func newlineOffsets(in buffer: UnsafeRawBufferPointer, _ body: (Int) -> Void) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var count = 0
        var offset = 0
        while offset < buffer.count, let found = memchr(base + offset, 0x0A, buffer.count - offset) {
            let newline = UnsafeRawPointer(found) - base
            body(newline)
            count += 1
            offset = newline + 1
        }
        return count
    }

    init(lines: [String]) {
        var bytes: [UInt8] = []
        var starts: [Int] = []
        starts.reserveCapacity(lines.count)
        for (index, line) in lines.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "\n")) }
            starts.append(bytes.count)
            bytes.append(contentsOf: line.utf8)
        }
        self.bytes = bytes
        self.lineStarts = starts
    }

    var count: Int { lineStarts.count }

    /// The byte range of line `index` (0-based) in `bytes`, without its newline.
    func range(ofLine index: Int) -> Range<Int> {
        let end = index + 1 < lineStarts.count ? lineStarts[index + 1] - 1 : bytes.count
        return lineStarts[index]..<end
    }

    var strings: [String] {
        lineStarts.indices.map { String(decoding: bytes[range(ofLine: $0)], as: UTF8.self) }
    }
}

/// Collects the code blocks of chapters, with the diagnostics their info strings raise.
public struct CodeBlockCollector: MarkdownWalker {
    public private(set) var blocks: [CodeBlock] = []
    public private(set) var diagnostics: [Diagnostic] = []
    private let chapter: String

    public init(chapter: String) { self.chapter = chapter }

    /// The code blocks of every chapter of `book`, in book order.
    public static func collect(_ book: Book) -> (blocks: [CodeBlock], diagnostics: [Diagnostic]) {
        var blocks: [CodeBlock] = []
        var diagnostics: [Diagnostic] = []
        // Each chapter's blocks were collected when it was parsed.
        for chapter in book.chapters {
            blocks += chapter.scannedBlocks.blocks
            diagnostics += chapter.scannedBlocks.diagnostics
        }
        return (blocks, diagnostics)
    }

    public mutating func visit(_ node: MarkdownNode, entering: Bool) {
        guard entering, case .codeBlock(let fence) = node.kind else { return }
        add(
            line: node.line, column: node.column, info: fence.info, isFenced: fence.isFenced,
            isUnclosed: fence.isUnclosed, infoColumn: fence.infoColumn, text: CodeText(lines: fence.lines))
    }

    /// Adds one block: parses its info string and reports an unclosed fence.
    mutating func add(
        line: Int, column: Int, info: String, isFenced: Bool, isUnclosed: Bool, infoColumn: Int,
        text: CodeText
    ) {
        let location = SourceLocation(path: chapter, line: line, column: column)
        var attributes = BlockAttributes()
        if isFenced {
            switch BlockAttributes.parse(info) {
            case .success(let parsed):
                attributes = parsed
            case .failure(let error):
                let at = SourceLocation(path: chapter, line: line, column: infoColumn + error.offset)
                diagnostics.append(.error(error.message, at: at))
                // Keep the language so the site can still highlight it; tangle nothing from it.
                attributes.language = info.split(separator: " ").first.map(String.init)
                    .flatMap { $0.hasPrefix("{") ? nil : $0 }
            }
        }
        // A fence never closed takes the prose after it as code: an error in a block that
        // tangles (that prose would be written into a file), a warning in a display-only one.
        if isUnclosed {
            diagnostics.append(
                Diagnostic(attributes.isTangled ? .error : .warning, .unclosedFence, at: location))
        }
        blocks.append(
            CodeBlock(
                chapter: chapter, location: location, contentLine: isFenced ? line + 1 : line,
                contentColumn: column, info: info, attributes: attributes, text: text, isFenced: isFenced))
    }
}
