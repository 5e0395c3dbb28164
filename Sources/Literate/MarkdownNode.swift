/// A CommonMark node as a Swift value: the one shape every pass over the book reads.
///
/// `MarkdownParser` builds the tree from cmark in a single walk and frees cmark's tree before
/// returning, so no C pointer escapes the parser.
public struct MarkdownNode: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case document
        case blockQuote
        case list(ordered: Bool, start: Int, tight: Bool)
        case item
        case codeBlock(CodeFence)
        case htmlBlock(String)
        case paragraph
        case heading(level: Int)
        case thematicBreak
        case text(String)
        case softBreak
        case lineBreak
        case code(String)
        case htmlInline(String)
        case emphasis
        case strong
        case link(destination: String, title: String)
        case image(source: String, title: String)
        case custom
    }

    public var kind: Kind
    public var children: [MarkdownNode]
    /// 1-based line and column where the node starts in its file (cmark's source positions).
    public var line: Int
    public var column: Int
    public var endLine: Int

    public init(kind: Kind, children: [MarkdownNode] = [], line: Int, column: Int, endLine: Int) {
        (self.kind, self.children, self.line, self.column, self.endLine) = (
            kind, children, line, column, endLine
        )
    }

    /// The plain text of the node's inline content (for headings, link texts, search).
    public var plainText: String {
        switch kind {
        case .text(let text), .code(let text): return text
        case .softBreak, .lineBreak: return " "
        default: return children.map(\.plainText).joined()
        }
    }
}

/// A code block's fence and content, as cmark reports it plus what cmark does not expose
/// (the fence character and length, read from the source line).
public struct CodeFence: Sendable, Equatable {
    /// The info string after the opening fence, trimmed; empty for indented code.
    public var info: String
    /// The content, one element per line, without the final newline.
    public var lines: [String]
    /// `` ` `` or `~` for fenced blocks, nil for indented code.
    public var fenceCharacter: Character?
    public var fenceLength: Int
    /// True when the block runs to the end of its container because no closing fence came.
    public var isUnclosed: Bool
    /// The 1-based column in the source line where the info string starts (for diagnostics).
    public var infoColumn: Int

    public init(
        info: String, lines: [String], fenceCharacter: Character?, fenceLength: Int,
        isUnclosed: Bool, infoColumn: Int
    ) {
        (self.info, self.lines, self.fenceCharacter, self.fenceLength, self.isUnclosed, self.infoColumn) = (
            info, lines, fenceCharacter, fenceLength, isUnclosed, infoColumn
        )
    }

    public var isFenced: Bool { fenceCharacter != nil }
}

/// A pass over a Markdown tree, called on entering and on leaving every node.
public protocol MarkdownWalker {
    mutating func visit(_ node: MarkdownNode, entering: Bool)
}

extension MarkdownNode {
    /// Walks the tree depth-first, in document order.
    public func walk<Walker: MarkdownWalker>(_ walker: inout Walker) {
        walker.visit(self, entering: true)
        for child in children { child.walk(&walker) }
        walker.visit(self, entering: false)
    }
}
