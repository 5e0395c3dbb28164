import CCmark
import Foundation

/// Parses CommonMark with cmark into a `MarkdownNode` tree.
public enum MarkdownParser {
    /// Parses `source`. Never fails: CommonMark gives every input a meaning.
    ///
    /// With `inlines: false` the tree holds blocks only (paragraphs stay, empty).
    public static func parse(_ source: String, inlines: Bool = true) -> MarkdownNode {
        var utf8 = source
        return utf8.withUTF8 { bytes in
            guard let root = parseDocument(bytes) else {
                return MarkdownNode(kind: .document, line: 1, column: 1, endLine: 1)
            }
            defer { cmark_node_free(root) }
            var lines = LineCursor(bytes)
            return convert(root, lines: &lines, inlines: inlines)
        }
    }

    /// Collects the code blocks of a chapter straight from cmark's tree, without building a
    /// `MarkdownNode` tree: what tangling needs, at a fraction of the cost for a large book.
    /// Only container blocks are entered; paragraphs and headings are skipped whole.
    static func scanCodeBlocks(_ source: String, chapter: String) -> ScannedBlocks {
        var utf8 = source
        return utf8.withUTF8 { bytes in
            var collector = CodeBlockCollector(chapter: chapter)
            guard let root = parseDocument(bytes) else { return ScannedBlocks() }
            defer { cmark_node_free(root) }
            var lines = LineCursor(bytes)
            var next = cmark_node_first_child(root)
            while let node = next {
                let type = cmark_node_get_type(node)
                if type == CMARK_NODE_CODE_BLOCK {
                    let fence = fenceShape(node, lines: &lines)
                    collector.add(
                        line: Int(cmark_node_get_start_line(node)),
                        column: Int(cmark_node_get_start_column(node)),
                        info: string(cmark_node_get_fence_info(node)), isFenced: fence.byte != nil,
                        isUnclosed: fence.isUnclosed, infoColumn: fence.infoColumn, text: codeText(node))
                }
                // Depth-first, in document order: into block quotes, lists and items only.
                let isContainer =
                    type == CMARK_NODE_BLOCK_QUOTE || type == CMARK_NODE_LIST || type == CMARK_NODE_ITEM
                if isContainer, let child = cmark_node_first_child(node) {
                    next = child
                    continue
                }
                var current: OpaquePointer? = node
                next = nil
                while let here = current, here != root {
                    if let sibling = cmark_node_next(here) {
                        next = sibling
                        break
                    }
                    current = cmark_node_parent(here)
                }
            }
            return ScannedBlocks(blocks: collector.blocks, diagnostics: collector.diagnostics)
        }
    }

    private static func parseDocument(_ bytes: UnsafeBufferPointer<UInt8>) -> OpaquePointer? {
        bytes.withMemoryRebound(to: CChar.self) {
            cmark_parse_document($0.baseAddress, $0.count, CMARK_OPT_DEFAULT)
        }
    }

    /// A code block's content as bytes: cmark's literal without its final newline.
    private static func codeText(_ node: OpaquePointer) -> CodeText {
        var bytes: [UInt8] = []
        if let literal = cmark_node_get_literal(node) {
            var count = strlen(literal)
            // A final `\n` ends the last line; it is not an empty line of its own (`\r\n` would be
            // one character to the string comparison this replaces, so it stays).
            if count > 0, literal[count - 1] == 0x0A, count < 2 || literal[count - 2] != 0x0D { count -= 1 }
            bytes = literal.withMemoryRebound(to: UInt8.self, capacity: count) {
                Array(UnsafeBufferPointer(start: $0, count: count))
            }
        }
        let hasLines = !bytes.isEmpty || cmark_node_get_start_line(node) != cmark_node_get_end_line(node)
        return CodeText(bytes: bytes, hasLines: hasLines)
    }

    private static func convert(_ root: OpaquePointer, lines: inout LineCursor, inlines: Bool)
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
                    kind: kind(of: pointer, type: type, lines: &lines),
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

    private static func kind(of node: OpaquePointer, type: NodeType, lines: inout LineCursor)
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
        case .codeBlock: return .codeBlock(codeFence(node, lines: &lines))
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

    private static func codeFence(_ node: OpaquePointer, lines: inout LineCursor) -> CodeFence {
        let shape = fenceShape(node, lines: &lines)
        var literal = string(cmark_node_get_literal(node))
        if literal.hasSuffix("\n") { literal.removeLast() }
        let content =
            literal.isEmpty && cmark_node_get_start_line(node) == cmark_node_get_end_line(node)
            ? [] : splitLines(&literal)
        return CodeFence(
            info: string(cmark_node_get_fence_info(node)), lines: content,
            fenceCharacter: shape.byte.map { Character(UnicodeScalar($0)) }, fenceLength: shape.length,
            isUnclosed: shape.isUnclosed, infoColumn: shape.infoColumn)
    }

    /// What cmark does not expose about a code block's fence.
    struct FenceShape {
        /// `` ` `` or `~`; nil for indented code.
        var byte: UInt8?
        var length = 0
        var isUnclosed = false
        /// The 1-based column where the info string starts.
        var infoColumn: Int
    }

    /// Reads the fence character and length, where the info string starts, and whether a
    /// closing fence exists, from the block's first and last source lines.
    static func fenceShape(_ node: OpaquePointer, lines: inout LineCursor) -> FenceShape {
        let startLine = Int(cmark_node_get_start_line(node))
        let startColumn = Int(cmark_node_get_start_column(node))
        guard startLine >= 1, let opening = lines.line(startLine) else {
            return FenceShape(infoColumn: startColumn)
        }
        // cmark's column counts bytes from 1; tabs in container prefixes are rare in chapters.
        var index = max(0, min(opening.count, startColumn - 1))
        while index < opening.count, opening[index] == UInt8(ascii: " ") { index += 1 }
        guard index < opening.count,
            opening[index] == UInt8(ascii: "`") || opening[index] == UInt8(ascii: "~")
        else {
            return FenceShape(infoColumn: startColumn)
        }
        let fenceByte = opening[index]
        var length = 0
        while index + length < opening.count, opening[index + length] == fenceByte { length += 1 }
        var infoStart = index + length
        while infoStart < opening.count, opening[infoStart] == UInt8(ascii: " ") { infoStart += 1 }
        let endLine = Int(cmark_node_get_end_line(node))
        var closed = false
        if endLine > startLine, let closing = lines.line(endLine) {
            closed = isClosingFence(closing, byte: fenceByte, length: length)
        }
        return FenceShape(byte: fenceByte, length: length, isUnclosed: !closed, infoColumn: infoStart + 1)
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
    private static func isClosingFence(_ line: UnsafeBufferPointer<UInt8>, byte: UInt8, length: Int) -> Bool {
        let isBlank = { (character: UInt8) in
            character == UInt8(ascii: " ") || character == UInt8(ascii: "\t")
        }
        let trimmed = line.drop { isBlank($0) || $0 == UInt8(ascii: ">") }
        let run = trimmed.prefix { $0 == byte }
        return run.count >= length && trimmed.dropFirst(run.count).allSatisfy(isBlank)
    }
}

/// A chapter's code blocks and the diagnostics their info strings raise, collected at parse
/// time for chapters loaded for tangling only.
struct ScannedBlocks: Sendable {
    var blocks: [CodeBlock] = []
    var diagnostics: [Diagnostic] = []
}

/// Finds source lines by number, scanning forward from the last line asked for: code blocks
/// come in document order, so the whole chapter is scanned at most once.
struct LineCursor {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The 1-based number of the line starting at `start`.
    private var number = 1
    private var start = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Line `wanted` (1-based) without its newline, or nil past the last line.
    mutating func line(_ wanted: Int) -> UnsafeBufferPointer<UInt8>? {
        if wanted < number { (number, start) = (1, 0) }
        while number < wanted {
            guard let newline = find(UInt8(ascii: "\n"), from: start) else { return nil }
            start = newline + 1
            number += 1
        }
        let end = find(UInt8(ascii: "\n"), from: start) ?? bytes.count
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    private func find(_ byte: UInt8, from offset: Int) -> Int? {
        guard offset < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + offset, Int32(byte), bytes.count - offset)
        else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
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
