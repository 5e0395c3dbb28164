import Literate

/// A heading of a page and the id the site gives it.
public struct HeadingAnchor: Sendable, Equatable {
    public var level: Int
    public var title: String
    public var id: String
    public var line: Int

    public init(level: Int, title: String, id: String, line: Int) {
        (self.level, self.title, self.id, self.line) = (level, title, id, line)
    }
}

/// The ids a Markdown page gives its headings and raw HTML, as the site writes them: what a link
/// from outside the site (an exercise's test naming a section) may point at.
public enum PageAnchors {
    public static func ids(ofMarkdown text: String) -> Set<String> {
        let collector = AnchorCollector.collect(MarkdownParser.parse(text))
        return Set(collector.headings.map(\.id)).union(collector.htmlIDs)
    }

    /// The headings of a page with the ids the site gives them, in document order.
    public static func headings(ofMarkdown text: String) -> [HeadingAnchor] {
        AnchorCollector.collect(MarkdownParser.parse(text)).headings
    }

    /// The site page of a chapter: `chapters/02-routing.md` gives `chapters/02-routing.html`.
    public static func sitePage(ofChapter path: String) -> String { BookPages.chapterOutput(path) }
}

/// The pass that names a page's anchors: a slug for every heading, in document order, and the
/// `id`s written in raw HTML. The renderer, the link checker and the search index all read its
/// result, so a heading has one id everywhere.
struct AnchorCollector: MarkdownWalker {
    private(set) var headings: [HeadingAnchor] = []
    private(set) var htmlIDs: [String] = []
    private var slugger = Slugger()

    /// `reserved` ids (such as code blocks' ids) are never given to a heading.
    init(reserved: [String] = []) {
        for id in reserved { slugger.reserve(id) }
    }

    static func collect(_ document: MarkdownNode, reserved: [String] = []) -> AnchorCollector {
        var collector = AnchorCollector(reserved: reserved)
        document.traverse(&collector)
        return collector
    }

    mutating func visit(_ node: MarkdownNode, entering: Bool) {
        switch node.kind {
        case .heading(let level) where entering:
            let title = node.plainText
            headings.append(
                HeadingAnchor(level: level, title: title, id: slugger.slug(for: title), line: node.line))
        case .htmlBlock(let html), .htmlInline(let html):
            if entering { htmlIDs += Self.ids(in: html) }
        default:
            break
        }
    }

    /// The values of `id="..."` and `name="..."` attributes inside the tags of a piece of raw HTML.
    static func ids(in html: String) -> [String] {
        // Most raw HTML (`<details>`, `<kbd>`) has no ids: look for a `=` before anything else.
        guard html.utf8.contains(UInt8(ascii: "=")) else { return [] }
        var result: [String] = []
        let bytes = Array(html.utf8)
        let keys = [Array("id=".utf8), Array("name=".utf8)]
        var index = 0
        var inTag = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") { inTag = true }
            if byte == UInt8(ascii: ">") { inTag = false }
            let afterSpace =
                index > 0
                && [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t")].contains(bytes[index - 1])
            guard inTag, afterSpace,
                let key = keys.first(where: { bytes[index...].starts(with: $0) }),
                index + key.count < bytes.count
            else {
                index += 1
                continue
            }
            let valueStart = index + key.count
            let quote = bytes[valueStart]
            var end = valueStart
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                end += 1
                while end < bytes.count, bytes[end] != quote { end += 1 }
                result.append(String(decoding: bytes[(valueStart + 1)..<end], as: UTF8.self))
                index = end + 1
            } else {
                while end < bytes.count, bytes[end] != UInt8(ascii: " "), bytes[end] != UInt8(ascii: ">") {
                    end += 1
                }
                result.append(String(decoding: bytes[valueStart..<end], as: UTF8.self))
                index = end
            }
        }
        return result
    }
}
