import Foundation
import Literate

/// A place in the book that names its evidence.
///
/// The book's grammar has two forms (chapter 13, "Sources and citations"):
/// - in prose, a Markdown link whose destination is `source:KEY`:
///   `[Apple: Supporting associated domains](source:apple-supporting-associated-domains)`;
/// - in a test case, the string of its `source:` argument, which is an entry's label or key, or a
///   cross-reference to the book's own explanation, `this book: chapter NN, Section`:
///   `id: "trailing-slash", source: "this book: chapter 02, Patterns"`.
///   Hand-written code outside the tests may cite in a comment the same way.
public struct Citation: Sendable, Equatable {
    public enum Form: Sendable, Equatable {
        /// A link in prose; the text is the key.
        case link
        /// The string of a `source:` argument; the text is a label, a key or a cross-reference.
        case label
    }

    public var form: Form
    public var text: String
    public var location: SourceLocation

    public init(form: Form, text: String, location: SourceLocation) {
        (self.form, self.text, self.location) = (form, text, location)
    }
}

/// Finds the citations of the book's files: prose links, and `source:` strings in Swift.
enum CitationScanner {
    /// The link scheme of a citation in prose.
    static let scheme = "source"

    /// The prose links and code-block labels of one Markdown file, with its headings' texts.
    static func markdown(path: String, source: String, document: MarkdownNode?)
        -> (citations: [Citation], headings: [String], unlinked: [Citation])
    {
        let found = scannedMarkdown.value(
            for: ScannedFile(path: path, text: MemoText(source))
        ) {
            let (citations, headings, unlinked) = scanMarkdown(path: path, source: source, document: document)
            return MarkdownFindings(citations: citations, headings: headings, unlinked: unlinked)
        }
        return (found.citations, found.headings, found.unlinked)
    }

    /// What the files scanned lately held: a rebuild scans again only the files that changed.
    private static let scannedMarkdown = Memo<ScannedFile, MarkdownFindings>(capacity: 512, keeping: 4) {
        $0.path
    }

    private struct ScannedFile: Hashable, Sendable {
        var path: String
        var text: MemoText
    }

    private struct MarkdownFindings: Sendable {
        var citations: [Citation]
        var headings: [String]
        var unlinked: [Citation]
    }

    private static func scanMarkdown(path: String, source: String, document: MarkdownNode?)
        -> (citations: [Citation], headings: [String], unlinked: [Citation])
    {
        let tree = document.flatMap { $0.children.isEmpty ? nil : $0 } ?? MarkdownParser.parse(source)
        let lines = source.lines
        var walker = ProseWalker(path: path, lines: lines)
        tree.walk(&walker)
        return (walker.citations + walker.swift.citations, walker.headings, walker.unlinked)
    }

    /// The `source:` strings of a Swift file: anywhere in a test file, in comments only
    /// elsewhere (where `source:` is also an ordinary argument label). Its caller keeps each
    /// file's by the file's stamp (``BookCitations``).
    static func swift(path: String, text: String, commentsOnly: Bool) -> [Citation] {
        guard text.containsBytes("source:") else { return [] }
        return scanSwift(path: path, text: text, commentsOnly: commentsOnly)
    }

    private static func scanSwift(path: String, text: String, commentsOnly: Bool) -> [Citation] {
        var scope = SwiftLabels(commentsOnly: commentsOnly)
        for (index, line) in text.lines.enumerated() {
            scope.read(line, path: path, line: index + 1)
        }
        return scope.citations
    }

    /// The `source:` strings of one line; the column is the first character of the string,
    /// counted in bytes from 1 as the engine counts columns.
    static func labels(in line: Substring, path: String, line number: Int, commentsOnly: Bool) -> [Citation] {
        var citations: [Citation] = []
        let bytes = Array(line.utf8)
        let marker = Array("source:".utf8)
        let comment = commentsOnly ? commentStart(bytes) : nil
        if commentsOnly && comment == nil { return [] }
        var index = comment ?? 0
        while index + marker.count <= bytes.count {
            guard bytes[index..<(index + marker.count)].elementsEqual(marker),
                index == 0 || !isIdentifierByte(bytes[index - 1])
            else {
                index += 1
                continue
            }
            var cursor = index + marker.count
            while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\""),
                let (text, end) = stringLiteral(bytes, openingQuote: cursor)
            else {
                index = cursor
                continue
            }
            citations.append(
                Citation(
                    form: .label, text: text,
                    location: SourceLocation(path: path, line: number, column: cursor + 2)))
            index = end
        }
        return citations
    }

    /// The text of the Swift string literal opening at `openingQuote`, and the index after its
    /// closing quote; nil when it does not close on this line.
    static func stringLiteral(_ bytes: [UInt8], openingQuote: Int) -> (String, Int)? {
        var out: [UInt8] = []
        var index = openingQuote + 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { return (String(decoding: out, as: UTF8.self), index + 1) }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                let next = bytes[index + 1]
                switch next {
                case UInt8(ascii: "n"): out.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): out.append(UInt8(ascii: "\t"))
                default: out.append(next)
                }
                index += 2
                continue
            }
            out.append(byte)
            index += 1
        }
        return nil
    }

    /// Where a `//` comment starts on the line, outside string literals.
    static func commentStart(_ bytes: [UInt8]) -> Int? {
        var inString = false
        var index = 0
        while index + 1 < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
                return index
            }
            index += 1
        }
        return nil
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }

    /// What opens an attribution written in prose without its link: `(Apple: …`, `(Li2 guide)`.
    static let attributionStarts = [
        "(Apple:", "(Android:", "(AOSP:", "(Li2 guide", "(Li2SDK 0.2.0", "(RFC ", "(this book)",
        "(this book:",
        "(this book;", "(this book,", "(source:",
    ]
}

/// The citations of one Swift scope (a file, or a chapter's Swift blocks): each `source:` string,
/// and each constant a `source:` argument names (`source: componentsDoc`, `source:
/// Self.componentsDoc`) whose declaration in the scope holds a string (`static let componentsDoc =
/// "Apple: applinks.Details.Components"`): the label is checked where it is written.
struct SwiftLabels {
    let commentsOnly: Bool
    private(set) var direct: [Citation] = []
    /// String constants by name: the literal and where it is written.
    private var constants: [String: Citation] = [:]
    /// The names `source:` arguments use.
    private var namesUsed: Set<String> = []

    init(commentsOnly: Bool) { self.commentsOnly = commentsOnly }

    /// The literals, then the constants used as sources, in the order they were declared.
    var citations: [Citation] {
        direct
            + constants.filter { namesUsed.contains($0.key) }.values.sorted {
                ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column)
            }
    }

    mutating func read(_ line: Substring, path: String, line number: Int) {
        direct += CitationScanner.labels(in: line, path: path, line: number, commentsOnly: commentsOnly)
        guard !commentsOnly else { return }
        if let constant = Self.constant(in: line, path: path, line: number) {
            constants[constant.name] = constant.value
        }
        namesUsed.formUnion(Self.sourceNames(in: line))
    }

    /// `let NAME = "…"` (with `static`, `private` and a `: String` annotation allowed).
    static func constant(in line: Substring, path: String, line number: Int) -> (
        name: String, value: Citation
    )? {
        let bytes = Array(line.utf8)
        var index = 0
        func skipSpaces() { while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 } }
        func word() -> String {
            let start = index
            while index < bytes.count, isIdentifierByte(bytes[index]) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        skipSpaces()
        var keyword = word()
        while ["static", "private", "fileprivate", "public", "package", "internal"].contains(keyword) {
            skipSpaces()
            keyword = word()
        }
        guard keyword == "let" else { return nil }
        skipSpaces()
        let name = word()
        guard !name.isEmpty else { return nil }
        skipSpaces()
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
            skipSpaces()
            guard word() == "String" else { return nil }
            skipSpaces()
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        skipSpaces()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""),
            let (text, end) = CitationScanner.stringLiteral(bytes, openingQuote: index)
        else { return nil }
        // The whole initial value must be the literal.
        let rest = bytes[end...].drop { $0 == UInt8(ascii: " ") }
        guard rest.isEmpty || rest.starts(with: Array("//".utf8)) else { return nil }
        return (
            name,
            Citation(
                form: .label, text: text,
                location: SourceLocation(path: path, line: number, column: index + 2))
        )
    }

    /// The names after `source:` that are identifiers, not strings: `componentsDoc` in
    /// `source: Self.componentsDoc`.
    static func sourceNames(in line: Substring) -> [String] {
        // Most lines name none: a byte search says so before Foundation's search does.
        guard line.containsBytes("source:") else { return [] }
        var names: [String] = []
        var rest = line[...]
        while let range = rest.range(of: "source:") {
            var after = rest[range.upperBound...].drop { $0 == " " }
            if after.hasPrefix("Self.") { after = after.dropFirst(5) }
            let name = after.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if let first = name.first, first.isLetter || first == "_" { names.append(String(name)) }
            rest = rest[range.upperBound...]
        }
        return names
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }
}

/// Collects a Markdown tree's citation links, the `source:` strings of its Swift blocks, its
/// headings' texts, and attributions left unlinked in its prose.
private struct ProseWalker: MarkdownWalker {
    let path: String
    let lines: [Substring]
    var citations: [Citation] = []
    var headings: [String] = []
    var unlinked: [Citation] = []
    /// The chapter's Swift blocks, read as one scope: a constant may be declared in one block and
    /// used in another.
    var swift = SwiftLabels(commentsOnly: false)
    /// Inside a link, text is the link's own.
    private var linkDepth = 0
    /// The next search position per line, so that two citations of one key on a line are told apart.
    private var searchFrom: [Int: Int] = [:]

    init(path: String, lines: [Substring]) { (self.path, self.lines) = (path, lines) }

    mutating func visit(_ node: MarkdownNode, entering: Bool) {
        switch node.kind {
        case .heading:
            if entering { headings.append(node.plainText) }
        case .link(let destination, _):
            linkDepth += entering ? 1 : -1
            guard entering, destination.hasPrefix(CitationScanner.scheme + ":") else { return }
            let key = String(destination.dropFirst(CitationScanner.scheme.count + 1))
            citations.append(Citation(form: .link, text: key, location: locate(destination, from: node)))
        case .codeBlock(let fence):
            guard entering,
                fence.info.split(separator: " ").first.map({ $0.lowercased().hasPrefix("swift") }) == true
            else { return }
            let first = node.line + (fence.isFenced ? 1 : 0)
            for offset in fence.lines.indices {
                let number = first + offset
                guard number - 1 < lines.count else { continue }
                swift.read(lines[number - 1], path: path, line: number)
            }
        case .text(let text):
            guard entering, linkDepth == 0, text.containsBytes("(") else { return }
            for start in CitationScanner.attributionStarts where text.containsBytes(start) {
                unlinked.append(Citation(form: .label, text: start, location: locate(start, from: node)))
            }
        default:
            break
        }
    }

    /// The position of `needle` in the source at or after the node's line (cmark's inline columns
    /// do not count a paragraph's stripped indentation, so the text is searched instead).
    private mutating func locate(_ needle: String, from node: MarkdownNode) -> SourceLocation {
        let last = min(lines.count, max(node.endLine, node.line) + 3)
        var number = node.line
        while number >= 1, number <= last {
            let line = lines[number - 1]
            let start = searchFrom[number] ?? 0
            let bytes = Array(line.utf8)
            let target = Array(needle.utf8)
            if bytes.count >= target.count, start <= bytes.count - target.count {
                for index in start...(bytes.count - target.count)
                where bytes[index..<(index + target.count)].elementsEqual(target) {
                    searchFrom[number] = index + target.count
                    return SourceLocation(path: path, line: number, column: index + 1)
                }
            }
            number += 1
        }
        return SourceLocation(path: path, line: node.line, column: node.column)
    }
}
