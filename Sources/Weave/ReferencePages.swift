import Foundation
import Literate
import SystemErrors

/// The fourth stage: the pages the builder writes itself, which need the other pages' anchors —
/// the glossary, the snippet index, the API reference when the options ask for one — and the
/// page served for a missing path. Every page is Markdown first, so these get the same anchors,
/// link checks and rendering as the book's.
struct ReferencePages: Sendable {
    /// The book's pages followed by the generated ones.
    var all: [SitePage]
    var notFound: SitePage
    /// Every page's anchors by its Markdown source, for checking links.
    var resolver: LinkResolver
    /// Broken glossary links, an unreadable OpenAPI document.
    var diagnostics: [Diagnostic]

    static func add(to pages: [SitePage], input: SiteInput, proofs: BlockProofs) -> ReferencePages {
        let theme = input.theme
        let words = input.words
        var diagnostics: [Diagnostic] = []
        var resolver = SiteLinks.resolver(for: pages, bookRoot: input.options.bookRoot)
        if let citations = input.citations {
            diagnostics += citations.diagnostics
            resolver.citations = citations
        }
        let (glossaryMarkdown, glossaryDiagnostics) = glossaryPage(
            theme.glossary, pages: pages, resolver: resolver, words: words)
        diagnostics += glossaryDiagnostics
        var generated = [
            SitePage(
                kind: .glossary, source: "glossary.md", output: "glossary.html", markdown: glossaryMarkdown),
            SitePage(
                kind: .snippets, source: "snippets.md", output: "snippets.html",
                markdown: snippetMarkdown(proofs, pages: pages, words: words)),
        ]
        if let api = input.options.apiReference {
            let note = input.options.tryItOfflineNote
            let (apiMarkdown, apiDiagnostic) = openAPIMarkdown(
                api, bookRoot: input.options.bookRoot,
                offlineNote: note == SiteOptions.plainTryItOfflineNote ? nil : note, words: words)
            if let apiDiagnostic { diagnostics.append(apiDiagnostic) }
            generated.append(
                SitePage(kind: .api, source: "api.md", output: "api.html", markdown: apiMarkdown))
        }
        if let citations = input.citations {
            let citedIn = citations.citingSections(pages)
            generated += citations.pages.map { page in
                SitePage(
                    kind: .citations(page.kind), source: page.file,
                    output: BookPages.chapterOutput(page.file),
                    markdown: citationMarkdown.value(
                        for: CitationPageKey(page: page, citedIn: citedIn, words: words)
                    ) {
                        CitationPages.markdown(page, citedIn: citedIn, words: words)
                    })
            }
        }
        for index in generated.indices {
            generated[index].collectAnchors(
                blocks: BookPages.blocks(of: generated[index]), directory: nil, reserved: theme.reservedIDs)
            resolver.pages[generated[index].source] = .init(
                output: generated[index].output, anchors: generated[index].anchors)
        }
        var notFound = SitePage(
            kind: .notFound, source: "404.md", output: "404.html", markdown: theme.notFound)
        notFound.collectAnchors(
            blocks: BookPages.blocks(of: notFound), directory: nil, reserved: theme.reservedIDs)
        if let source = input.sourceNotFound {
            notFound.keepHeadingIDs(ofSource: source, reserved: theme.reservedIDs)
            notFound.translation = input.translations["site/404.md"]
        }
        return ReferencePages(
            all: pages + generated, notFound: notFound, resolver: resolver, diagnostics: diagnostics)
    }

    /// The glossary's Markdown, and a diagnostic (at its line in `glossary.json`) for each
    /// `see` link that does not resolve.
    private static func glossaryPage(
        _ glossary: Glossary, pages: [SitePage], resolver: LinkResolver, words: SiteWords
    ) -> (String, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var explained: [String: [(text: String, link: String)]] = [:]
        let byOutput = Dictionary(pages.map { ($0.output, $0) }, uniquingKeysWith: { first, _ in first })
        for term in glossary.terms {
            for see in term.see ?? [] {
                switch resolver.resolve(see, from: "glossary.md") {
                case .success(.page(let output, let anchor)):
                    guard let page = byOutput[output] else { continue }
                    // A link to the chapter's own title names the chapter alone.
                    let section = anchor.flatMap { id in
                        page.headings.first { $0.id == id && $0.level > 1 }?.title
                    }
                    let number = page.number.map { "\($0). " } ?? ""
                    let text = number + page.title + (section.map { " › " + $0 } ?? "")
                    explained[term.term, default: []].append((text, see))
                case .success:
                    explained[term.term, default: []].append((see, see))
                case .failure(let message):
                    let position = glossary.position(of: "\"\(see)\"")
                    diagnostics.append(
                        Diagnostic(
                            .error, text: message.text,
                            at: SourceLocation(
                                path: "site/glossary.json", line: position.line, column: position.column)))
                }
            }
        }
        return (GeneratedPages.glossary(glossary, explainedIn: explained, words: words), diagnostics)
    }

    private static func snippetMarkdown(_ proofs: BlockProofs, pages: [SitePage], words: SiteWords) -> String
    {
        let bySource = Dictionary(pages.map { ($0.source, $0) }, uniquingKeysWith: { first, _ in first })
        var tangled: [GeneratedPages.SnippetRow] = []
        var others: [GeneratedPages.SnippetRow] = []
        for report in proofs.reports {
            let block = report.block
            let key = BlockKey(chapter: block.chapter, line: block.location.line)
            let page = bySource[block.chapter]
            let row = GeneratedPages.SnippetRow(
                block: block, chapterTitle: page?.title ?? block.chapter, chapterNumber: page?.number,
                anchor: page?.codeIDs[block.location.line] ?? "code-\(block.location.line)",
                files: proofs.targets[key] ?? [], badge: proofs.badges[key] ?? .displayOnly)
            if block.attributes.isTangled { tangled.append(row) } else { others.append(row) }
        }
        let key = SnippetIndexKey(
            tangled: tangled, others: others, coverage: proofs.coverageName, words: words)
        return snippetIndexes.value(for: key) {
            GeneratedPages.snippetIndex(
                tangled: tangled, others: others, coverage: key.coverage, words: words)
        }
    }

    /// The snippet index's Markdown of the last builds, by its rows: a prose edit leaves every
    /// row as it was. The rows are compared, not hashed: an unchanged chapter's blocks share
    /// their text with the previous build's.
    private static let snippetIndexes = RecentValues<SnippetIndexKey, String>(capacity: 4)

    /// Each page of what the book cites, by its entries and the sections citing them.
    private static let citationMarkdown = RecentValues<CitationPageKey, String>(capacity: 8)

    private struct CitationPageKey: Equatable, Sendable {
        var page: CitationPages.Page
        var citedIn: [String: [CitationPages.CitingSection]]
        var words: SiteWords
    }

    private struct SnippetIndexKey: Equatable, Sendable {
        var tangled: [GeneratedPages.SnippetRow]
        var others: [GeneratedPages.SnippetRow]
        var coverage: String?
        var words: SiteWords
    }

    /// The API pages written lately, by everything they are written from.
    private static let apiPages = Memo<APIPageKey, Result<String, WeaveMessage>>(capacity: 8)

    private struct APIPageKey: Hashable, Sendable {
        var document: Data
        var page: OpenAPIPage
        var offlineNote: String?
        var words: SiteWords
    }

    /// The API reference's Markdown; a missing document gives a page saying so, an unreadable or
    /// invalid one that page and an error at the document.
    private static func openAPIMarkdown(
        _ api: OpenAPIPage, bookRoot: URL, offlineNote: String?, words: SiteWords
    )
        -> (String, Diagnostic?)
    {
        let url = bookRoot.appendingPathComponent(api.documentPath)
        let missing = OpenAPIReference.missingMarkdown(
            documentPath: api.documentPath, title: api.title, words: words)
        guard FileManager.default.fileExists(atPath: url.path) else { return (missing, nil) }
        do {
            let data = try Data(contentsOf: url)
            let key = APIPageKey(document: data, page: api, offlineNote: offlineNote, words: words)
            let markdown = try apiPages.value(
                for: key,
                catching: { () throws(WeaveMessage) in
                    try OpenAPIReference.markdown(
                        json: data, page: api, offlineNote: offlineNote, words: words)
                })
            return (markdown, nil)
        } catch let error as WeaveMessage {
            return (
                missing,
                Diagnostic(.error, text: error.text, at: SourceLocation(path: api.documentPath, line: 1))
            )
        } catch {
            let message = WeaveMessage.fileFailed(
                path: api.documentPath, operation: .read, reason: SystemError.describe(error))
            return (missing, Diagnostic(.error, text: message.text, at: nil))
        }
    }
}
