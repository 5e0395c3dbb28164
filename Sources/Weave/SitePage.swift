import Literate

/// One page of the site. Every page, generated or not, is Markdown first: the chapters and
/// exercises as written, the home page from the theme, and the glossary, snippet index and API
/// reference as Markdown the builder writes. So every page gets the same anchors, link checks,
/// search entries and rendering.
struct SitePage: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case home, chapter, exercise, glossary, snippets, api, notFound
        /// A page of the theme's own (``ThemePage``), with the kind the template shows.
        case theme(String)
        /// A page of entries that links cite (``CitationPages``), with the kind the template shows.
        case citations(String)

        /// The kind as the template's `{{page-kind}}` shows it: `chapter`, `not-found`.
        var name: String {
            switch self {
            case .home: return "home"
            case .chapter: return "chapter"
            case .exercise: return "exercise"
            case .glossary: return "glossary"
            case .snippets: return "snippets"
            case .api: return "api"
            case .notFound: return "not-found"
            case .theme(let name), .citations(let name): return name
            }
        }
    }

    /// A file appended to a page's Markdown: its path, the page line it starts at, and the
    /// file's line that is.
    struct Appendix: Sendable, Equatable {
        var source: String
        var fromLine: Int
        var firstLine: Int
    }

    var kind: Kind
    /// The Markdown's book-relative path (virtual for generated pages: `glossary.md`).
    var source: String
    /// The page's path in the site: `chapters/03-universal-links.html`.
    var output: String
    var title: String
    /// The chapter or exercise number from the file name (`03-...` gives 3).
    var number: Int?
    var document: MarkdownNode
    var text: SourceText
    var blocks: [CodeBlock] = []
    /// The id of each code block, by the line of its opening fence.
    var codeIDs: [Int: String] = [:]
    var headings: [HeadingAnchor] = []
    var htmlIDs: [String] = []
    var links: [PageLink] = []
    /// Whether the page folds its test and long code blocks (chapters after the first part).
    var foldsCode = false
    /// The estimated reading time of a chapter, in minutes (see ``ReadingTime``).
    var readingMinutes: Int?
    /// A second file appended to the page's Markdown (an exercise's `HINTS.md`): from page line
    /// `fromLine` on, page line `fromLine + k` is line `firstLine + k` of `source`.
    var appendix: Appendix?
    /// In a build in another language: what of the page is translated, and what is shown in
    /// the source language (marked so on the page).
    var translation: TranslatedMarkdown?
    /// An exercise page's Markdown in the source language, whose heading ids the translated
    /// page keeps.
    var sourceMarkdown: String?

    /// Where a line of the page's Markdown comes from, for diagnostics.
    func location(line: Int, column: Int) -> SourceLocation {
        if let appendix, line >= appendix.fromLine {
            return SourceLocation(
                path: appendix.source, line: line - appendix.fromLine + appendix.firstLine, column: column)
        }
        return SourceLocation(path: source, line: line, column: column)
    }

    /// The pages parsed lately (the generated ones are written again on every build).
    private static let parsed = Memo<ParsedPage, MarkdownNode>(capacity: 256, keeping: 4) { $0.source }

    /// Their texts with their lines' starts, likewise.
    private static let texts = Memo<ParsedPage, SourceText>(capacity: 256, keeping: 4) { $0.source }

    private struct ParsedPage: Hashable, Sendable {
        var source: String
        var markdown: MemoText
    }

    init(kind: Kind, source: String, output: String, markdown: String, document: MarkdownNode? = nil) {
        self.kind = kind
        self.source = source
        self.output = output
        let key = ParsedPage(source: source, markdown: MemoText(markdown))
        self.document = document ?? Self.parsed.value(for: key) { MarkdownParser.parse(markdown) }
        // An unchanged page keeps its text's storage, and comparing it with the previous
        // build's costs nothing.
        self.text = Self.texts.value(for: key) { SourceText(markdown) }
        let name =
            source.split(separator: "/").dropLast(kind == .exercise ? 1 : 0).last.map(String.init) ?? source
        let digits = name.prefix { $0.isNumber }
        self.number = digits.isEmpty ? nil : Int(digits)
        self.title = ""
        self.title = Self.firstHeading(self.document) ?? name
    }

    /// Every id a link may name on this page.
    var anchors: Set<String> {
        Set(headings.map(\.id)).union(htmlIDs).union(codeIDs.values).union(["top"])
    }

    /// The text of the first level-1 heading, if any.
    static func firstHeading(_ document: MarkdownNode) -> String? {
        for child in document.children {
            if case .heading(let level) = child.kind, level == 1 { return child.plainText }
        }
        return nil
    }

    /// Names the page's code blocks and headings, and collects its links, in one walk. Chapter
    /// blocks take their ids from the chunk directory (`chunk-NAME` for a chunk's first
    /// definition); the others `code-LINE`.
    mutating func collectAnchors(blocks: [CodeBlock], directory: ChunkDirectory?, reserved: [String]) {
        self.blocks = blocks
        for block in blocks {
            let line = block.location.line
            codeIDs[line] =
                directory?.entry(BlockKey(chapter: source, line: line))?.id ?? "code-\(line)"
        }
        let codeIDs = Array(codeIDs.values)
        let key = WalkKey(
            source: source, markdown: MemoBytes(text.bytes),
            reserved: codeIDs.sorted() + reserved)
        let walked = Self.walks.value(for: key) {
            var passes = WalkerPair(
                first: AnchorCollector(reserved: codeIDs + reserved), second: LinkCollector(source: text))
            document.traverse(&passes)
            return Walk(
                headings: passes.first.headings, htmlIDs: passes.first.htmlIDs, links: passes.second.links)
        }
        (headings, htmlIDs, links) = (walked.headings, walked.htmlIDs, walked.links)
    }

    /// What the walk found on the pages walked lately, by their Markdown and the ids kept from
    /// their headings: a save walks the pages it changed. (The tree is the Markdown's, parsed
    /// the one way every page is, so the text stands for it.)
    private static let walks = Memo<WalkKey, Walk>(capacity: 512, keeping: 4) { $0.source }

    private struct WalkKey: Hashable, Sendable {
        var source: String
        var markdown: MemoBytes
        var reserved: [String]
    }

    private struct Walk: Sendable {
        var headings: [HeadingAnchor]
        var htmlIDs: [String]
        var links: [PageLink]
    }
}
