import Foundation
import Literate

/// Everything rendering needs, shared read-only by the parallel page jobs.
struct SiteContext: Sendable, Equatable {
    var theme: Theme
    /// The words of every page (``SiteInput/words``), and the template filled with them.
    var words: SiteWords
    var template: PageTemplate
    var layout: Layout
    var directory: ChunkDirectory
    var badges: [BlockKey: Badge]
    var targets: [BlockKey: [String]]
    var linkTargets: [String: [String: LinkTarget]]
    var isHighlighted: Bool
    /// The book's name, which opens each page's description.
    var siteTitle: String
    /// What try-it panels say while no server answers; nil: the words' (`tryit.offline.html`).
    var tryItOfflineNote: String?
    var output: URL
    /// The pages' language (`<html lang>`), the other languages of the site, and the path the
    /// site is served at (`/`, `/vi/`), which the page for a missing path starts its links from.
    var language = "en"
    var otherLanguages: [SiteLanguage] = []
    var serverRoot = "/"

    /// Each chapter's output path with the prefix its ids take on the print page.
    var printPrefixes: [String: String]
    /// The same prefixes by the chapter page's file name (`03-x.html`), as links between
    /// chapters name them.
    var printPrefixesByName: [String: String]

    /// `chapters/03-x.html` takes the prefix `03-x--`.
    static func printPrefix(_ output: String) -> String {
        let name = output.split(separator: "/").last.map(String.init) ?? output
        return String(name.dropLast(".html".count)) + "--"
    }

    /// One page rendered: the file's bytes, and what the same parallel job gives back besides
    /// it: its part of the print page (chapters only) and of the search index.
    struct RenderedPage: Sendable, Equatable {
        var path: String
        var file: [UInt8]
        var printContent: [UInt8]?
        var search: SearchIndex.Part
    }

    /// Renders one page.
    func render(_ job: PageWriting.Job) -> RenderedPage {
        let page: SitePage
        let root: String
        var toc: [UInt8] = []
        var search = SearchIndex.Part.empty
        let body: [UInt8]
        switch job {
        case .page(let value):
            page = value
            root = Linker.root(from: page.output)
            toc = layout.toc(page.headings)
            let rendered = render(page, linker: Linker(from: page.output), indexed: true)
            body =
                page.readingMinutes.map {
                    ReadingTime.inserting(minutes: $0, into: rendered.html, words: words)
                }
                ?? rendered.html
            search = SearchIndex.part(
                rendered.sections, practice: page.kind == .exercise, synonyms: theme.synonyms)
        case .notFound(let value):
            // Served for any missing path, so its links start at the server's root.
            page = value
            root = serverRoot
            body = render(page, linker: Linker(from: page.output), indexed: false).html
        }
        let status = page.translation.map { Self.translationStatus($0, words: words) } ?? []
        let pieces = frame(page: page, root: root, content: [status[...], body[...]], toc: toc)
        var file: [UInt8] = []
        file.reserveCapacity(pieces.reduce(0) { $0 + $1.count })
        for piece in pieces { file += piece }
        var printContent: [UInt8]?
        if let prefix = printPrefixes[page.output] {
            var rewritten: [UInt8] = []
            rewritten.reserveCapacity(body.count + body.count / 16)
            PrintRewriter(prefix: prefix, chapterPrefixes: printPrefixesByName, folder: "chapters/")
                .rewrite(body, into: &rewritten)
            printContent = page.foldsCode ? CodeFold.openingAll(rewritten) : rewritten
        }
        return RenderedPage(path: page.output, file: file, printContent: printContent, search: search)
    }

    /// The context with what never shows on a page (the folder written to) left out, so that
    /// two builds' contexts compare equal when their pages would.
    var pageInputs: SiteContext {
        var inputs = self
        inputs.output = URL(fileURLWithPath: "/")
        return inputs
    }

    /// A page's rendered Markdown, its links written by `linker`, and (when `indexed`) its
    /// search sections, collected in the same walk.
    func render(_ page: SitePage, linker: Linker, indexed: Bool) -> (html: [UInt8], sections: [SearchSection])
    {
        var context = RenderContext(source: page.text)
        context.headingIDs = page.headings.map(\.id)
        context.headingAnchorLabel = words[.headingAnchorLabel]
        if let translation = page.translation {
            (context.fallbackLines, context.fallbackCells) = (
                translation.fallbackLines, translation.fallbackCells
            )
        }
        for block in page.blocks {
            context.codeViews[block.location.line] = codeView(block, page: page, linker: linker)
        }
        for (destination, target) in linkTargets[page.source] ?? [:] {
            context.hrefs[destination] = linker.href(target, original: destination)
            if case .citation(_, _, let url) = target { context.citationURLs[destination] = url ?? "" }
        }
        let renderer = HTMLRenderer(context: context, capacity: page.text.bytes.count * 2)
        guard indexed else {
            var walker = renderer
            page.document.traverse(&walker)
            return (walker.html.bytes, [])
        }
        let sections = SectionCollector(
            pageTitle: page.title, pageURL: page.output, headingIDs: context.headingIDs)
        var passes = WalkerPair(first: renderer, second: sections)
        page.document.traverse(&passes)
        return (passes.first.html.bytes, passes.second.finish())
    }

    private func codeView(_ block: CodeBlock, page: SitePage, linker: Linker) -> CodeBlockView {
        let key = BlockKey(chapter: page.source, line: block.location.line)
        let name = block.attributes.chunkName
        let first = name.flatMap { directory.firstDefinition[$0] }
        let isChapter = page.kind == .chapter
        var usedIn: [NamedLink] = []
        if isChapter, let name, first == key {
            for use in directory.uses[name] ?? [] {
                guard let entry = directory.entry(use), let href = directory.href(use, linker: linker) else {
                    continue
                }
                let label = entry.label ?? words.format(.codeAtLine, ["line": String(entry.line)])
                usedIn.append(NamedLink(label: label, href: href))
            }
        }
        var references: [String: String] = [:]
        if isChapter {
            for line in block.lines {
                guard let reference = ChunkReferenceLine(line),
                    let definition = directory.firstDefinition[reference.name],
                    let href = directory.href(definition, linker: linker)
                else { continue }
                references[reference.name] = href
            }
        }
        let files = targets[key] ?? block.attributes.file.map { [$0] } ?? []
        var fold: String?
        if page.foldsCode, CodeFold.folds(targets: files, lineCount: block.lineCount) {
            let label =
                name.map { "⟨\($0)⟩" } ?? block.attributes.file.map {
                    String($0.split(separator: "/").last ?? "")
                }
                ?? words[.codeFoldLabel]
            fold = CodeFold.summary(
                lines: block.lines, label: label, isTest: CodeFold.isTest(targets: files), words: words)
        }
        return CodeBlockView(
            id: page.codeIDs[block.location.line] ?? "code-\(block.location.line)",
            language: block.attributes.language, chunkName: name,
            chunkHref: isChapter ? first.flatMap { directory.href($0, linker: linker) } : nil,
            isContinuation: isChapter && first != nil && first != key,
            files: files,
            badge: badges[key] ?? .displayOnly, usedIn: usedIn, referenceHrefs: references,
            tryIt: tryItPanel(block), fold: fold, words: words)
    }

    /// The panel of a `try` block, saying the book's offline note.
    private func tryItPanel(_ block: CodeBlock) -> TryItPanel? {
        guard block.attributes.tryIt != nil, var panel = TryItPanel(httpLines: block.lines) else {
            return nil
        }
        panel.offlineNote = tryItOfflineNote
        return panel
    }

    /// The page in the theme's template, as pieces to write one after the other.
    private func frame(page: SitePage, root: String, content: [ArraySlice<UInt8>], toc: [UInt8])
        -> [ArraySlice<UInt8>]
    {
        func piece(_ text: String) -> [ArraySlice<UInt8>] { [Array(text.utf8)[...]] }
        let description =
            siteTitle.isEmpty
            ? page.title : words.format(.pageDescription, ["site": siteTitle, "title": page.title])
        var scriptKind: String?
        if case .theme(let kind) = page.kind { scriptKind = kind }
        return template.render(pieces: [
            "lang": piece(HTML.escape(language)),
            "alternates": [alternates(page: page, root: root)[...]],
            "language-switch": [languageSwitch(page: page, root: root)[...]],
            "title": piece(HTML.escape(page.title)),
            "description": piece(HTML.escape(description)),
            "root": piece(root),
            "page-kind": piece(page.kind.name),
            "sidebar": [layout.sidebar(for: page.output, root: root)[...]],
            "content": content,
            "toc": [toc[...]],
            "pager": [layout.pager(for: page.output, root: root)[...]],
            "scripts": [scripts(root: root)[...]],
            "source-path": piece(HTML.escape(page.source)),
            "words-json": piece(words.scriptJSON(theme.scriptWordKeys(kind: scriptKind))),
        ])
    }

    /// `<link rel="alternate" hreflang>` to the same page in each other language.
    private func alternates(page: SitePage, root: String) -> [UInt8] {
        var html = HTMLWriter()
        for other in otherLanguages {
            html.raw("<link rel=\"alternate\" hreflang=\"")
            html.text(other.code)
            html.raw("\" href=\"")
            html.url(Self.otherLanguagePath(root: root, other: other.root, page: page.output))
            html.raw("\">\n")
        }
        return html.bytes
    }

    /// A link to the same page in each other language, named in that language; the page's
    /// script keeps the anchor and remembers the choice.
    private func languageSwitch(page: SitePage, root: String) -> [UInt8] {
        var html = HTMLWriter()
        for other in otherLanguages {
            html.raw("<a class=\"language-switch\" hreflang=\"")
            html.text(other.code)
            html.raw("\" lang=\"")
            html.text(other.code)
            html.raw("\" href=\"")
            html.url(Self.otherLanguagePath(root: root, other: other.root, page: page.output))
            html.raw("\" title=\"")
            html.text(words.format(.languageSwitchTitle, ["language": other.name]))
            html.raw("\">")
            html.text(other.name)
            html.raw("</a>")
        }
        return html.bytes
    }

    /// The same page in another language's folder; from an absolute root (the page for a
    /// missing path), with its `..` steps taken: `/vi/` and `../` give `/404.html`.
    static func otherLanguagePath(root: String, other: String, page: String) -> String {
        let path = root + other + page
        guard path.hasPrefix("/") else { return path }
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == ".." {
                _ = segments.popLast()
            } else if segment != "." {
                segments.append(segment)
            }
        }
        return "/" + segments.joined(separator: "/")
    }

    /// On a translated page: how much of it is translated, and how the rest shows.
    static func translationStatus(_ translation: TranslatedMarkdown, words: SiteWords) -> [UInt8] {
        guard translation.messages > 0 else { return [] }
        let percent = translation.translated * 100 / translation.messages
        var html = HTMLWriter()
        html.raw("<p class=\"translation-status\">")
        html.text(
            words.format(
                translation.translated == translation.messages ? .translationComplete : .translationPartial,
                ["percent": String(percent)]))
        html.raw("</p>\n")
        return html.bytes
    }

    private func scripts(root: String) -> [UInt8] {
        var html = HTMLWriter()
        if isHighlighted {
            html.raw("<script src=\"")
            html.url(root + "assets/vendor/highlight.min.js")
            html.raw("\" defer></script>\n")
        }
        return html.bytes
    }

    /// Every chapter on one page, for printing and reading offline: each chapter's content as
    /// `PrintRewriter` made it (ids prefixed with the chapter's file name, links between chapters
    /// turned into links within the page), in a section of its own.
    func printPage(_ chapters: [(page: SitePage, content: [UInt8])]) -> [ArraySlice<UInt8>] {
        var content: [ArraySlice<UInt8>] = []
        var headings: [HeadingAnchor] = []
        for (chapter, body) in chapters {
            let prefix = printPrefixes[chapter.output] ?? ""
            content.append(Array("<section class=\"print-chapter\" id=\"\(prefix)top\">\n".utf8)[...])
            content.append(body[...])
            content.append(Array("</section>\n".utf8)[...])
            headings.append(HeadingAnchor(level: 2, title: chapter.title, id: prefix + "top", line: 1))
        }
        var page = SitePage(kind: .chapter, source: "print.md", output: "print.html", markdown: "")
        page.title = words[.printTitle]
        return frame(page: page, root: "", content: content, toc: layout.toc(headings))
    }
}
