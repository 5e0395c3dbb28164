import CCmark

/// Parses CommonMark with cmark into a `MarkdownNode` tree.
public enum MarkdownParser {
    /// Parses `source`. Never fails: CommonMark gives every input a meaning.
    ///
    /// With `inlines: false` the tree holds blocks only (paragraphs stay, empty): what the
    /// tangler needs, at a fraction of the cost for a large book.
    public static func parse(_ source: String, inlines: Bool = true) -> MarkdownNode {
        let sourceLines = SourceLines(source)
        var utf8 = source
        let root = utf8.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                cmark_parse_document($0.baseAddress, $0.count, CMARK_OPT_DEFAULT)
            }
        }
        guard let root else {
            return MarkdownNode(kind: .document, line: 1, column: 1, endLine: 1)
        }
        defer { cmark_node_free(root) }
        return convert(root, sourceLines: sourceLines, inlines: inlines)
    }

    private static func convert(_ root: OpaquePointer, sourceLines: SourceLines, inlines: Bool)
        -> MarkdownNode
    {
        // One walk with cmark's iterator; a stack of half-built Swift nodes mirrors the tree.
        var stack: [MarkdownNode] = []
        var result: MarkdownNode?
        guard let iterator = cmark_iter_new(root) else {
            return MarkdownNode(kind: .document, line: 1, column: 1, endLine: 1)
        }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let pointer = cmark_iter_get_node(iterator) else { continue }
            let type = NodeType(cmark_node_get_type(pointer))
            if !inlines, type.isInline { continue }
            if event == CMARK_EVENT_ENTER {
                let node = MarkdownNode(
                    kind: kind(of: pointer, type: type, sourceLines: sourceLines),
                    line: Int(cmark_node_get_start_line(pointer)),
                    column: Int(cmark_node_get_start_column(pointer)),
                    endLine: Int(cmark_node_get_end_line(pointer)))
                if type.isLeaf {
                    if stack.isEmpty { result = node } else { stack[stack.count - 1].children.append(node) }
                } else {
                    stack.append(node)
                }
            } else if event == CMARK_EVENT_EXIT {
                guard let finished = stack.popLast() else { continue }
                if stack.isEmpty {
                    result = finished
                } else {
                    stack[stack.count - 1].children.append(finished)
                }
            }
        }
        return result ?? MarkdownNode(kind: .document, line: 1, column: 1, endLine: 1)
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    private static func kind(of node: OpaquePointer, type: NodeType, sourceLines: SourceLines)
        -> MarkdownNode.Kind
    {
        switch type {
        case .document: return .document
        case .blockQuote: return .blockQuote
        case .list:
            return .list(
                ordered: cmark_node_get_list_type(node) == CMARK_ORDERED_LIST,
                start: Int(cmark_node_get_list_start(node)),
                tight: cmark_node_get_list_tight(node) != 0)
        case .item: return .item
        case .codeBlock: return .codeBlock(codeFence(node, sourceLines: sourceLines))
        case .htmlBlock: return .htmlBlock(string(cmark_node_get_literal(node)))
        case .paragraph: return .paragraph
        case .heading: return .heading(level: Int(cmark_node_get_heading_level(node)))
        case .thematicBreak: return .thematicBreak
        case .text: return .text(string(cmark_node_get_literal(node)))
        case .softBreak: return .softBreak
        case .lineBreak: return .lineBreak
        case .code: return .code(string(cmark_node_get_literal(node)))
        case .htmlInline: return .htmlInline(string(cmark_node_get_literal(node)))
        case .emphasis: return .emphasis
        case .strong: return .strong
        case .link:
            return .link(
                destination: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node)))
        case .image:
            return .image(
                source: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node)))
        case .other: return .custom
        }
    }

    /// Reads what cmark does not expose about a code block from its source lines: the fence
    /// character and length, where the info string starts, and whether a closing fence exists.
    private static func codeFence(_ node: OpaquePointer, sourceLines: SourceLines) -> CodeFence {
        let info = string(cmark_node_get_fence_info(node))
        var literal = string(cmark_node_get_literal(node))
        if literal.hasSuffix("\n") { literal.removeLast() }
        let lines =
            literal.isEmpty && cmark_node_get_start_line(node) == cmark_node_get_end_line(node)
            ? [] : splitLines(&literal)
        let startLine = Int(cmark_node_get_start_line(node))
        let startColumn = Int(cmark_node_get_start_column(node))
        guard startLine >= 1, startLine <= sourceLines.count else {
            return CodeFence(
                info: info, lines: lines, fenceCharacter: nil, fenceLength: 0, isUnclosed: false,
                infoColumn: startColumn)
        }
        let opening = sourceLines[startLine - 1]
        // cmark's column counts bytes from 1; tabs in container prefixes are rare in chapters.
        var index = opening.startIndex + max(0, min(opening.count, startColumn - 1))
        while index < opening.endIndex, opening[index] == UInt8(ascii: " ") { index += 1 }
        guard index < opening.endIndex,
            opening[index] == UInt8(ascii: "`") || opening[index] == UInt8(ascii: "~")
        else {
            return CodeFence(
                info: info, lines: lines, fenceCharacter: nil, fenceLength: 0, isUnclosed: false,
                infoColumn: startColumn)
        }
        let fenceByte = opening[index]
        var length = 0
        while index + length < opening.endIndex, opening[index + length] == fenceByte { length += 1 }
        var infoStart = index + length
        while infoStart < opening.endIndex, opening[infoStart] == UInt8(ascii: " ") { infoStart += 1 }
        let endLine = Int(cmark_node_get_end_line(node))
        let closed =
            endLine > startLine && endLine <= sourceLines.count
            && isClosingFence(sourceLines[endLine - 1], byte: fenceByte, length: length)
        return CodeFence(
            info: info, lines: lines, fenceCharacter: Character(UnicodeScalar(fenceByte)),
            fenceLength: length, isUnclosed: !closed, infoColumn: infoStart - opening.startIndex + 1)
    }

    /// The lines of `text`, split at `\n` on its UTF-8 bytes (the generic `split` on a string
    /// view costs several times more, and code blocks are the bulk of a book).
    private static func splitLines(_ text: inout String) -> [String] {
        text.withUTF8 { bytes in
            var lines: [String] = []
            var start = 0
            for index in 0..<bytes.count where bytes[index] == UInt8(ascii: "\n") {
                lines.append(
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                start = index + 1
            }
            lines.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
            return lines
        }
    }

    /// A closing fence is a run of the fence character at least as long as the opening one,
    /// after any container prefix (spaces, `>`, list markers are already consumed by cmark, so we
    /// accept leading spaces and `>`).
    private static func isClosingFence(_ line: ArraySlice<UInt8>, byte: UInt8, length: Int) -> Bool {
        let isBlank = { (character: UInt8) in
            character == UInt8(ascii: " ") || character == UInt8(ascii: "\t")
        }
        let trimmed = line.drop { isBlank($0) || $0 == UInt8(ascii: ">") }
        let run = trimmed.prefix { $0 == byte }
        return run.count >= length && trimmed.dropFirst(run.count).allSatisfy(isBlank)
    }
}

/// The source's lines as UTF-8 byte slices, found once with a byte scan.
struct SourceLines {
    private let bytes: [UInt8]
    private var starts: [Int] = [0]

    init(_ source: String) {
        bytes = Array(source.utf8)
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(offset + 1)
        }
    }

    var count: Int { starts.count }

    /// Line `index` (0-based) without its newline.
    subscript(index: Int) -> ArraySlice<UInt8> {
        let end = index + 1 < starts.count ? starts[index + 1] - 1 : bytes.count
        return bytes[starts[index]..<end]
    }
}

/// cmark's node type codes, mapped in one place.
private enum NodeType {
    case document, blockQuote, list, item, codeBlock, htmlBlock, paragraph, heading, thematicBreak
    case text, softBreak, lineBreak, code, htmlInline, emphasis, strong, link, image, other

    init(_ type: cmark_node_type) {
        switch type {
        case CMARK_NODE_DOCUMENT: self = .document
        case CMARK_NODE_BLOCK_QUOTE: self = .blockQuote
        case CMARK_NODE_LIST: self = .list
        case CMARK_NODE_ITEM: self = .item
        case CMARK_NODE_CODE_BLOCK: self = .codeBlock
        case CMARK_NODE_HTML_BLOCK: self = .htmlBlock
        case CMARK_NODE_PARAGRAPH: self = .paragraph
        case CMARK_NODE_HEADING: self = .heading
        case CMARK_NODE_THEMATIC_BREAK: self = .thematicBreak
        case CMARK_NODE_TEXT: self = .text
        case CMARK_NODE_SOFTBREAK: self = .softBreak
        case CMARK_NODE_LINEBREAK: self = .lineBreak
        case CMARK_NODE_CODE: self = .code
        case CMARK_NODE_HTML_INLINE: self = .htmlInline
        case CMARK_NODE_EMPH: self = .emphasis
        case CMARK_NODE_STRONG: self = .strong
        case CMARK_NODE_LINK: self = .link
        case CMARK_NODE_IMAGE: self = .image
        default: self = .other
        }
    }

    var isInline: Bool {
        switch self {
        case .text, .softBreak, .lineBreak, .code, .htmlInline, .emphasis, .strong, .link, .image: true
        default: false
        }
    }

    /// Nodes cmark's iterator visits once (no exit event).
    var isLeaf: Bool {
        switch self {
        case .codeBlock, .htmlBlock, .thematicBreak, .text, .softBreak, .lineBreak, .code, .htmlInline:
            return true
        default:
            return false
        }
    }
}
