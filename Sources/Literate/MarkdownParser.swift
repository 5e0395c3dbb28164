import CCmark

/// Parses CommonMark with cmark into a `MarkdownNode` tree.
public enum MarkdownParser {
    /// Parses `source`. Never fails: CommonMark gives every input a meaning.
    public static func parse(_ source: String) -> MarkdownNode {
        let sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false)
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
        return convert(root, sourceLines: sourceLines)
    }

    private static func convert(_ root: OpaquePointer, sourceLines: [Substring]) -> MarkdownNode {
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

    private static func kind(of node: OpaquePointer, type: NodeType, sourceLines: [Substring])
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
    private static func codeFence(_ node: OpaquePointer, sourceLines: [Substring]) -> CodeFence {
        let info = string(cmark_node_get_fence_info(node))
        var literal = string(cmark_node_get_literal(node))
        if literal.hasSuffix("\n") { literal.removeLast() }
        let lines =
            literal.isEmpty && cmark_node_get_start_line(node) == cmark_node_get_end_line(node)
            ? [] : literal.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let startLine = Int(cmark_node_get_start_line(node))
        let startColumn = Int(cmark_node_get_start_column(node))
        guard startLine >= 1, startLine <= sourceLines.count else {
            return CodeFence(
                info: info, lines: lines, fenceCharacter: nil, fenceLength: 0, isUnclosed: false,
                infoColumn: startColumn)
        }
        let opening = Array(sourceLines[startLine - 1].utf8)
        // cmark's column counts bytes from 1; tabs in container prefixes are rare in chapters.
        var index = max(0, min(opening.count, startColumn - 1))
        while index < opening.count, opening[index] == UInt8(ascii: " ") { index += 1 }
        guard index < opening.count,
            opening[index] == UInt8(ascii: "`") || opening[index] == UInt8(ascii: "~")
        else {
            return CodeFence(
                info: info, lines: lines, fenceCharacter: nil, fenceLength: 0, isUnclosed: false,
                infoColumn: startColumn)
        }
        let fenceByte = opening[index]
        var length = 0
        while index + length < opening.count, opening[index + length] == fenceByte { length += 1 }
        var infoStart = index + length
        while infoStart < opening.count, opening[infoStart] == UInt8(ascii: " ") { infoStart += 1 }
        let endLine = Int(cmark_node_get_end_line(node))
        let closed =
            endLine > startLine && endLine <= sourceLines.count
            && isClosingFence(sourceLines[endLine - 1], byte: fenceByte, length: length)
        return CodeFence(
            info: info, lines: lines, fenceCharacter: Character(UnicodeScalar(fenceByte)),
            fenceLength: length, isUnclosed: !closed, infoColumn: infoStart + 1)
    }

    /// A closing fence is a run of the fence character at least as long as the opening one,
    /// after any container prefix (spaces, `>`, list markers are already consumed by cmark, so we
    /// accept leading spaces and `>`).
    private static func isClosingFence(_ line: Substring, byte: UInt8, length: Int) -> Bool {
        let trimmed = line.drop { $0 == " " || $0 == ">" || $0 == "\t" }
        let run = trimmed.prefix { $0.asciiValue == byte }
        return run.count >= length && trimmed.dropFirst(run.count).allSatisfy { $0 == " " || $0 == "\t" }
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
