import Literate

/// What the renderer needs besides the tree: decisions made by the passes before it.
struct RenderContext: Sendable {
    /// The page's source, for the tables cmark leaves as paragraphs; nil renders none.
    var source: SourceText?
    /// The id of each heading, in document order (from `AnchorCollector`, prefixed on the
    /// print-all page).
    var headingIDs: [String] = []
    /// The view of each code block, by the line of its opening fence.
    var codeViews: [Int: CodeBlockView] = [:]
    /// Link and image destinations as written, mapped to the hrefs the site uses.
    var hrefs: [String: String] = [:]
    /// The destinations that cite an entry (``CitationPages``), with the source's URL ("" for
    /// none): they get the class `citation`, and the print page shows the URL after them.
    var citationURLs: [String: String] = [:]
    /// In a translated page: the first lines of the paragraphs and headings shown in the source
    /// language, and the table cells (by their row's line), which get ``fallbackAttributes``.
    var fallbackLines: Set<Int> = []
    var fallbackCells: [Int: Set<Int>] = [:]
    /// The label a screen reader says for a heading's self-link (HTML-escaped when written).
    var headingAnchorLabel = "Link to this section"
    /// What marks a passage left in the source language: its language and a class.
    var fallbackAttributes = " lang=\"en\" class=\"untranslated\""
}

/// The pass that writes HTML: a driver (`visit`) and one function per node kind, each told
/// whether it is entering or leaving its node. The output follows cmark's HTML renderer byte
/// for byte for every CommonMark node (raw HTML passes through, as with cmark's `--unsafe`),
/// with three additions: headings carry ids and a self-link, code blocks carry a header with
/// their chunk, file and status, and pipe tables render as tables.
///
/// ```swift
/// HTMLRenderer.render(markdown: "# Hello *world*")
/// // <h1 id="hello-world">Hello <em>world</em><a class="heading-anchor" ...>#</a></h1>
/// ```
public struct HTMLRenderer: MarkdownWalker {
    private enum Container {
        case list(tight: Bool)
        case item
        case other
    }

    public private(set) var html: HTMLWriter
    private let context: RenderContext
    private var parents: [Container] = []
    private var headingIndex = 0
    private var headingID = ""
    /// Inside an image, children only contribute plain text to the `alt` attribute.
    private var imageDepth = 0
    /// Counts nodes being skipped (a paragraph already rendered as a table).
    private var skipDepth = 0

    init(context: RenderContext, capacity: Int = 0) {
        self.context = context
        self.html = HTMLWriter(capacity: capacity)
    }

    /// Renders a Markdown fragment with headings slugged in order and every code block
    /// display-only: for tests and small texts such as glossary definitions.
    public static func render(markdown: String) -> String {
        let document = MarkdownParser.parse(markdown)
        let anchors = AnchorCollector.collect(document)
        let context = RenderContext(source: SourceText(markdown), headingIDs: anchors.headings.map(\.id))
        return render(document, context: context).string
    }

    static func render(_ document: MarkdownNode, context: RenderContext, capacity: Int = 0) -> HTMLWriter {
        var renderer = HTMLRenderer(context: context, capacity: capacity)
        document.traverse(&renderer)
        return renderer.html
    }

    public mutating func visit(_ node: MarkdownNode, entering: Bool) {
        if skipDepth > 0 {
            skipDepth += entering ? 1 : -1
            return
        }
        if imageDepth > 0 {
            if case .image = node.kind {
            } else {
                altText(node, entering: entering)
                return
            }
        }
        if !entering, Self.container(node) != nil { parents.removeLast() }
        switch node.kind {
        case .document, .custom: break
        case .blockQuote: blockQuote(entering: entering)
        case .list(let ordered, let start, let tight):
            list(ordered: ordered, start: start, tight: tight, entering: entering)
        case .item: item(entering: entering)
        case .codeBlock(let fence): if entering { codeBlock(node, fence: fence) }
        case .htmlBlock(let literal): if entering { htmlBlock(literal) }
        case .paragraph: paragraph(node, entering: entering)
        case .heading(let level): heading(level: level, line: node.line, entering: entering)
        case .thematicBreak: if entering { thematicBreak() }
        case .text(let text): if entering { html.text(text) }
        case .softBreak: if entering { html.raw("\n") }
        case .lineBreak: if entering { html.raw("<br />\n") }
        case .code(let code): if entering { inlineCode(code) }
        case .htmlInline(let literal): if entering { html.raw(literal) }
        case .emphasis: html.raw(entering ? "<em>" : "</em>")
        case .strong: html.raw(entering ? "<strong>" : "</strong>")
        case .link(let destination, let title):
            link(destination: destination, title: title, entering: entering)
        case .image(let source, let title): image(source: source, title: title, entering: entering)
        }
        // A node rendered whole on entering (a table) skips its children and its leaving.
        if entering, skipDepth == 0, let container = Self.container(node) { parents.append(container) }
    }

    /// The container a node opens, for nodes with children.
    private static func container(_ node: MarkdownNode) -> Container? {
        switch node.kind {
        case .list(_, _, let tight): .list(tight: tight)
        case .item: .item
        case .document, .blockQuote, .paragraph, .heading, .emphasis, .strong, .link, .image, .custom: .other
        default: nil
        }
    }

    // MARK: Blocks

    private mutating func blockQuote(entering: Bool) {
        html.newlineIfNeeded()
        html.raw(entering ? "<blockquote>\n" : "</blockquote>\n")
    }

    private mutating func list(ordered: Bool, start: Int, tight: Bool, entering: Bool) {
        guard entering else {
            html.raw(ordered ? "</ol>\n" : "</ul>\n")
            return
        }
        html.newlineIfNeeded()
        if !ordered {
            html.raw("<ul>\n")
        } else if start == 1 {
            html.raw("<ol>\n")
        } else {
            html.raw("<ol start=\"\(start)\">\n")
        }
    }

    private mutating func item(entering: Bool) {
        if entering {
            html.newlineIfNeeded()
            html.raw("<li>")
        } else {
            html.raw("</li>\n")
        }
    }

    /// Paragraphs directly inside an item of a tight list have no `<p>`.
    private var inTightItem: Bool {
        guard parents.count >= 2, case .item = parents[parents.count - 1],
            case .list(let tight) = parents[parents.count - 2]
        else { return false }
        return tight
    }

    private mutating func paragraph(_ node: MarkdownNode, entering: Bool) {
        let tight = inTightItem
        if entering, node.endLine > node.line, let source = context.source,
            let table = GFMTable.recognize(
                line: node.line, column: node.column, endLine: node.endLine, in: source)
        {
            renderTable(table, paragraph: node, tight: tight)
            skipDepth = 1
            return
        }
        let fallback = context.fallbackLines.contains(node.line)
        if tight {
            // No element of its own: a span carries the mark.
            if fallback { html.raw(entering ? "<span\(context.fallbackAttributes)>" : "</span>") }
            return
        }
        if entering {
            html.newlineIfNeeded()
            html.raw(fallback ? "<p\(context.fallbackAttributes)>" : "<p>")
        } else {
            html.raw("</p>\n")
        }
    }

    private mutating func heading(level: Int, line: Int, entering: Bool) {
        if entering {
            headingID =
                headingIndex < context.headingIDs.count
                ? context.headingIDs[headingIndex] : "section-\(headingIndex)"
            headingIndex += 1
            html.newlineIfNeeded()
            html.raw("<h\(level) id=\"")
            html.text(headingID)
            html.raw(context.fallbackLines.contains(line) ? "\"\(context.fallbackAttributes)>" : "\">")
        } else {
            html.raw("<a class=\"heading-anchor\" href=\"#")
            html.url(headingID)
            html.raw("\" aria-label=\"")
            html.text(context.headingAnchorLabel)
            html.raw("\">#</a></h\(level)>\n")
        }
    }

    private mutating func codeBlock(_ node: MarkdownNode, fence: CodeFence) {
        let view = context.codeViews[node.line] ?? Self.displayView(fence: fence, line: node.line)
        view.render(lines: fence.lines, into: &html)
    }

    /// The view of a block no pass knows about: display-only, its language from the info string.
    static func displayView(fence: CodeFence, line: Int) -> CodeBlockView {
        var language: String?
        var tryIt: TryItPanel?
        if case .success(let attributes) = BlockAttributes.parse(fence.info) {
            language = attributes.language
            if attributes.tryIt != nil { tryIt = TryItPanel(httpLines: fence.lines) }
        } else {
            language = fence.info.split(separator: " ").first.map(String.init)
        }
        return CodeBlockView(
            id: "code-\(line)", language: language, chunkName: nil, chunkHref: nil, isContinuation: false,
            files: [], badge: .displayOnly, usedIn: [], referenceHrefs: [:], tryIt: tryIt)
    }

    private mutating func htmlBlock(_ literal: String) {
        html.newlineIfNeeded()
        html.raw(literal)
        html.newlineIfNeeded()
    }

    private mutating func thematicBreak() {
        html.newlineIfNeeded()
        html.raw("<hr />\n")
    }

    // MARK: Inlines

    private mutating func inlineCode(_ code: String) {
        html.raw("<code>")
        html.text(code)
        html.raw("</code>")
    }

    private mutating func link(destination: String, title: String, entering: Bool) {
        guard entering else {
            html.raw("</a>")
            return
        }
        html.raw("<a href=\"")
        let href = context.hrefs[destination] ?? destination
        if !HTML.isDangerousURL(href) { html.url(href) }
        if let url = context.citationURLs[destination] {
            html.raw("\" class=\"citation")
            if !url.isEmpty {
                html.raw("\" data-url=\"")
                html.text(url)
            }
        }
        if title.isEmpty {
            html.raw("\">")
        } else {
            html.raw("\" title=\"")
            html.text(title)
            html.raw("\">")
        }
    }

    private mutating func image(source: String, title: String, entering: Bool) {
        if entering {
            imageDepth += 1
            guard imageDepth == 1 else { return }
            html.raw("<img src=\"")
            let href = context.hrefs[source] ?? source
            if !HTML.isDangerousURL(href) { html.url(href) }
            html.raw("\" alt=\"")
            return
        }
        imageDepth -= 1
        guard imageDepth == 0 else { return }
        if !title.isEmpty {
            html.raw("\" title=\"")
            html.text(title)
        }
        html.raw("\" />")
    }

    /// Inside an image: text becomes the `alt` attribute, line breaks become spaces.
    private mutating func altText(_ node: MarkdownNode, entering: Bool) {
        guard entering else { return }
        switch node.kind {
        case .text(let text), .code(let text), .htmlInline(let text): html.text(text)
        case .softBreak, .lineBreak: html.raw(" ")
        default: break
        }
    }

    // MARK: Tables

    private mutating func renderTable(_ table: GFMTable, paragraph node: MarkdownNode, tight: Bool) {
        // Lines of the paragraph before the header row stay a paragraph of their own.
        let before = Self.children(of: node, before: table.startLine)
        if !before.isEmpty {
            if !tight {
                html.newlineIfNeeded()
                html.raw("<p>")
            }
            for child in before { child.traverse(&self) }
            if !tight { html.raw("</p>\n") }
        }
        let cells = Self.parseCells([table.header] + table.rows)
        html.newlineIfNeeded()
        html.raw("<div class=\"table-wrap\">\n<table>\n<thead>\n")
        tableRow(
            table.header, cells: cells?[0], alignments: table.alignments, cellTag: "th",
            fallback: context.fallbackCells[table.startLine] ?? [])
        html.raw("</thead>\n")
        if !table.rows.isEmpty {
            html.raw("<tbody>\n")
            for (index, row) in table.rows.enumerated() {
                tableRow(
                    row, cells: cells?[index + 1], alignments: table.alignments, cellTag: "td",
                    fallback: context.fallbackCells[table.startLine + 2 + index] ?? [])
            }
            html.raw("</tbody>\n")
        }
        html.raw("</table>\n</div>\n")
    }

    /// A marker that starts every cell when the cells of a table are parsed together: no block
    /// can start after it (a cell reading `- x` stays text), and the space after it keeps
    /// emphasis rules as at the start of a line.
    private static let cellMarker = "\u{E000} "

    /// The inline nodes of every cell, parsed in one cmark call (each cell becomes a paragraph
    /// of its own); nil when no cell holds Markdown syntax, so the text is written as it is.
    private static func parseCells(_ rows: [[GFMTable.Cell]]) -> [[[MarkdownNode]]]? {
        guard rows.contains(where: { $0.contains { isMarkdownSyntax($0.text) } }) else { return nil }
        var source = ""
        for row in rows {
            for cell in row { source += cellMarker + cell.text + "\n\n" }
        }
        let paragraphs = MarkdownParser.parse(source).children
        guard paragraphs.count == rows.reduce(0, { $0 + $1.count }),
            paragraphs.allSatisfy({ if case .paragraph = $0.kind { true } else { false } })
        else { return nil }
        var result: [[[MarkdownNode]]] = []
        var index = 0
        for row in rows {
            var cells: [[MarkdownNode]] = []
            for _ in row {
                var inlines = paragraphs[index].children
                if case .text(let text) = inlines.first?.kind {
                    let rest = String(text.unicodeScalars.dropFirst(2))
                    if rest.isEmpty { inlines.removeFirst() } else { inlines[0].kind = .text(rest) }
                }
                cells.append(inlines)
                index += 1
            }
            result.append(cells)
        }
        return result
    }

    private static func isMarkdownSyntax(_ text: String) -> Bool {
        text.utf8.contains {
            switch $0 {
            case UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["),
                UInt8(ascii: "<"),
                UInt8(ascii: "&"), UInt8(ascii: "\\"), UInt8(ascii: "!"):
                return true
            default:
                return false
            }
        }
    }

    /// The inline children on lines before `line`, without the soft break that ends them.
    private static func children(of paragraph: MarkdownNode, before line: Int) -> [MarkdownNode] {
        guard let first = paragraph.children.firstIndex(where: { $0.line >= line }) else {
            return paragraph.children
        }
        var end = first
        if end > 0, case .softBreak = paragraph.children[end - 1].kind { end -= 1 }
        return Array(paragraph.children[..<end])
    }

    private mutating func tableRow(
        _ row: [GFMTable.Cell], cells: [[MarkdownNode]]?, alignments: [GFMTable.Alignment], cellTag: String,
        fallback: Set<Int>
    ) {
        html.raw("<tr>\n")
        for (index, alignment) in alignments.enumerated() {
            html.raw("<\(cellTag)")
            switch alignment {
            case .none: break
            case .left: html.raw(" style=\"text-align: left\"")
            case .center: html.raw(" style=\"text-align: center\"")
            case .right: html.raw(" style=\"text-align: right\"")
            }
            if fallback.contains(index) { html.raw(context.fallbackAttributes) }
            html.raw(">")
            if let cells {
                for node in cells[index] { node.traverse(&self) }
            } else {
                html.text(row[index].text)
            }
            html.raw("</\(cellTag)>\n")
        }
        html.raw("</tr>\n")
    }
}
