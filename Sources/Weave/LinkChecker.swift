import Foundation
import Literate

/// A link or image of a page, with the position of its `[` (or `!`) in the source.
struct PageLink: Sendable, Equatable {
    var destination: String
    var line: Int
    var column: Int
}

/// The pass that collects a page's links and images.
struct LinkCollector: MarkdownWalker {
    private(set) var links: [PageLink] = []
    private let source: SourceText?
    /// The first line of the paragraph or heading being read.
    private var blockLine = 0

    init(source: SourceText?) { self.source = source }

    static func collect(_ document: MarkdownNode, source: SourceText? = nil) -> [PageLink] {
        var collector = LinkCollector(source: source)
        document.traverse(&collector)
        return collector.links
    }

    mutating func visit(_ node: MarkdownNode, entering: Bool) {
        guard entering else { return }
        switch node.kind {
        case .paragraph, .heading:
            blockLine = node.line
        case .link(let destination, _), .image(let destination, _):
            var column = node.column
            if node.line != blockLine, let source {
                column = Self.sourceColumn(column, line: source.line(node.line))
            }
            links.append(PageLink(destination: destination, line: node.line, column: column))
        default:
            break
        }
    }

    /// cmark counts inline columns on a paragraph's continuation lines from after the
    /// indentation (and `>` markers) it stripped. Finds the `[` or `!` in the source line that
    /// the column means, so that a diagnostic points at the link.
    static func sourceColumn(_ column: Int, line: ArraySlice<UInt8>) -> Int {
        let prefix = line.prefix {
            $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: ">")
        }.count
        for shift in stride(from: prefix, through: 0, by: -1) {
            let index = line.startIndex + column - 1 + shift
            guard index >= line.startIndex, index < line.endIndex else { continue }
            if line[index] == UInt8(ascii: "!") { return column + shift }
            if line[index] == UInt8(ascii: "[") {
                // An image's position is its `!`.
                let isImage = index > line.startIndex && line[index - 1] == UInt8(ascii: "!")
                return column + shift - (isImage ? 1 : 0)
            }
        }
        return column
    }
}

/// Where a link leads once resolved.
enum LinkTarget: Sendable, Equatable {
    /// Another site (or a `mailto:`): left alone, never fetched.
    case external
    /// A page of the site built from Markdown, by its output path, and an anchor on it.
    case page(output: String, anchor: String?)
    /// A file of the book that is not a page (an image, a source file): copied into the site at
    /// the same relative path.
    case file(path: String, fragment: String?)
    /// An entry of a page of what the book cites (``CitationPages``), and the source's URL.
    case citation(output: String, key: String, url: String?)
}

/// Resolves the links of Markdown pages the way GitHub does (relative to the Markdown file) and
/// checks them against the pages and anchors the site will have.
struct LinkResolver: Sendable {
    struct PageAnchors: Sendable {
        var output: String
        var anchors: Set<String>
    }

    /// Pages by the book-relative path of their Markdown source.
    var pages: [String: PageAnchors]
    /// Does a regular file exist at this book-relative path?
    var fileExists: @Sendable (String) -> Bool
    /// The pages of what the book cites: `SCHEME:KEY` links lead to their entries.
    var citations: CitationPages? {
        didSet { citationTargets = citations?.targets ?? [:] }
    }
    private var citationTargets: [String: (page: String, url: String?)] = [:]

    init(pages: [String: PageAnchors], fileExists: @escaping @Sendable (String) -> Bool) {
        (self.pages, self.fileExists) = (pages, fileExists)
    }

    /// Resolves `destination`, written in the Markdown file `source` (book-relative).
    func resolve(_ destination: String, from source: String) -> Result<LinkTarget, WeaveMessage> {
        if let key = citations?.key(of: destination) {
            guard let target = citationTargets[key], let page = pages[target.page] else {
                return .failure(.unknownCitation(key: key, scheme: citations?.scheme ?? ""))
            }
            return .success(.citation(output: page.output, key: key, url: target.url))
        }
        if destination.isEmpty || Self.hasScheme(destination) || destination.hasPrefix("//") {
            return .success(.external)
        }
        if destination.hasPrefix("/") { return .failure(.absoluteLink(destination: destination)) }
        // `#`, `?` and `/` are ASCII: a link's parts are found over its UTF-8 bytes, as RFC 3986
        // splits a URI, without walking it by grapheme.
        var pathPart = Substring(destination)
        var fragment: String?
        if let hash = destination.utf8.firstIndex(of: UInt8(ascii: "#")) {
            let raw = String(destination[destination.utf8.index(after: hash)...])
            fragment = raw.utf8.contains(UInt8(ascii: "%")) ? raw.removingPercentEncoding ?? raw : raw
            pathPart = destination[..<hash]
        }
        if let question = pathPart.utf8.firstIndex(of: UInt8(ascii: "?")) { pathPart = pathPart[..<question] }
        var decoded = String(pathPart)
        if decoded.utf8.contains(UInt8(ascii: "%")) { decoded = decoded.removingPercentEncoding ?? decoded }
        let target: String
        if decoded.isEmpty {
            target = source
        } else {
            guard let joined = Self.join(Self.folder(of: source), decoded) else {
                return .failure(.linkLeavesBook(destination: destination))
            }
            target = joined
        }
        let page = pages[target] ?? pages[target.isEmpty ? "README.md" : target + "/README.md"]
        if let page {
            if let fragment, !fragment.isEmpty, !page.anchors.contains(fragment) {
                let name = pages[target] != nil ? target : target + "/README.md"
                return .failure(.missingAnchor(destination: destination, page: name, anchor: fragment))
            }
            return .success(.page(output: page.output, anchor: fragment.flatMap { $0.isEmpty ? nil : $0 }))
        }
        if !target.hasSuffix(".md"), fileExists(target) {
            return .success(.file(path: target, fragment: fragment))
        }
        return .failure(.brokenLink(destination: destination, missing: target))
    }

    /// `scheme:` per RFC 3986 (a letter, then letters, digits, `+`, `-`, `.`).
    static func hasScheme(_ destination: String) -> Bool {
        var sawLetter = false
        for byte in destination.utf8 {
            if byte == UInt8(ascii: ":") { return sawLetter }
            let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            if !sawLetter {
                guard isLetter else { return false }
                sawLetter = true
                continue
            }
            guard
                isLetter || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            else { return false }
        }
        return false
    }

    /// The folder part of a book-relative path (`chapters` for `chapters/03-x.md`).
    static func folder(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }

    /// `relative` resolved against `folder`, normalised; nil when `..` climbs above the book.
    static func join(_ folder: String, _ relative: String) -> String? {
        // Most links name a file beside the page, or below it: nothing to normalise.
        if isNormal(folder), isNormal(relative) {
            return folder.isEmpty ? relative : relative.isEmpty ? folder : folder + "/" + relative
        }
        var parts = folder.slashSeparated
        for component in relative.slashSeparated {
            switch component {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(component)
            }
        }
        return parts.joined(separator: "/")
    }

    /// Whether `path` has no empty, `.` or `..` component, and no slash at either end (a
    /// component starting with a dot counts as `.`: such paths take the long way).
    private static func isNormal(_ path: String) -> Bool {
        let (slash, dot) = (UInt8(ascii: "/"), UInt8(ascii: "."))
        var previous = slash
        for byte in path.utf8 {
            if previous == slash, byte == slash || byte == dot { return false }
            previous = byte
        }
        return previous != slash || path.isEmpty
    }
}

/// Builds hrefs from one page of the site to another, relative so that the site works when
/// opened from files.
struct Linker: Sendable {
    /// The output path of the page being written (`chapters/03-x.html`).
    var from: String

    func href(page: String, anchor: String?) -> String {
        if page == from, let anchor { return "#" + anchor }
        return Self.relative(from: from, to: page) + (anchor.map { "#" + $0 } ?? "")
    }

    /// The path from the folder of `from` to `to`, both relative to the site root.
    static func relative(from: String, to: String) -> String {
        // Most links stay in their folder (chapter to chapter): no need to split the paths.
        let fromSlash = from.lastIndex(of: "/")
        let toSlash = to.lastIndex(of: "/")
        if let fromSlash, let toSlash, from[..<fromSlash] == to[..<toSlash] {
            return String(to[to.index(after: toSlash)...])
        }
        if fromSlash == nil, toSlash == nil { return to }
        let fromFolder = from.split(separator: "/").dropLast()
        let toParts = to.split(separator: "/")
        var common = 0
        while common < fromFolder.count, common < toParts.count - 1,
            fromFolder[fromFolder.startIndex + common] == toParts[common]
        {
            common += 1
        }
        let ups = Array(repeating: "..", count: fromFolder.count - common)
        return (ups + toParts[common...].map(String.init)).joined(separator: "/")
    }

    /// The prefix from the page to the site root (`../` for `chapters/03-x.html`).
    static func root(from page: String) -> String {
        String(repeating: "../", count: page.split(separator: "/").count - 1)
    }

    /// The href of a resolved target.
    func href(_ target: LinkTarget, original: String) -> String {
        switch target {
        case .external: return original
        case .page(let output, let anchor): return href(page: output, anchor: anchor)
        case .citation(let output, let key, _): return href(page: output, anchor: key)
        case .file(let path, let fragment):
            return Self.relative(from: from, to: path) + (fragment.map { "#" + $0 } ?? "")
        }
    }
}
