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
    public var lines: [String]
    public var isFenced: Bool

    public init(
        chapter: String, location: SourceLocation, contentLine: Int, contentColumn: Int, info: String,
        attributes: BlockAttributes, lines: [String], isFenced: Bool
    ) {
        self.chapter = chapter
        self.location = location
        self.contentLine = contentLine
        self.contentColumn = contentColumn
        self.info = info
        self.attributes = attributes
        self.lines = lines
        self.isFenced = isFenced
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
        for chapter in book.chapters {
            var collector = CodeBlockCollector(chapter: chapter.path)
            chapter.document.walk(&collector)
            blocks += collector.blocks
            diagnostics += collector.diagnostics
        }
        return (blocks, diagnostics)
    }

    public mutating func visit(_ node: MarkdownNode, entering: Bool) {
        guard entering, case .codeBlock(let fence) = node.kind else { return }
        let location = SourceLocation(path: chapter, line: node.line, column: node.column)
        if fence.isUnclosed {
            diagnostics.append(.warning(.unclosedFence, at: location))
        }
        var attributes = BlockAttributes()
        if fence.isFenced {
            switch BlockAttributes.parse(fence.info) {
            case .success(let parsed):
                attributes = parsed
            case .failure(let error):
                let at = SourceLocation(
                    path: chapter, line: node.line, column: fence.infoColumn + error.offset)
                diagnostics.append(.error(error.message, at: at))
                // Keep the language so the site can still highlight it; tangle nothing from it.
                attributes.language = fence.info.split(separator: " ").first.map(String.init)
                    .flatMap { $0.hasPrefix("{") ? nil : $0 }
            }
        }
        blocks.append(
            CodeBlock(
                chapter: chapter, location: location,
                contentLine: fence.isFenced ? node.line + 1 : node.line,
                contentColumn: node.column, info: fence.info, attributes: attributes, lines: fence.lines,
                isFenced: fence.isFenced))
    }
}
