import Foundation
import Literate

/// The sixth stage: every page rendered into the theme's template and written, side by side on
/// all cores. Each page's job also gives back its part of the print page (chapters) and of the
/// search index, which the last stage writes.
struct PageWriting: Sendable {
    /// The pages written, relative to the output folder, in job order.
    var paths: [String]
    /// Each chapter's content for the print page, in book order.
    var printParts: [(page: SitePage, content: [UInt8])]
    var searchParts: [SearchIndex.Part]
    /// What rendered the pages, for the print page.
    var site: SiteContext
    /// highlight.js, when it was found.
    var highlight: URL?
    /// A warning when highlight.js is missing.
    var diagnostics: [Diagnostic]

    /// One unit of rendering work.
    enum Job: Sendable {
        case page(SitePage)
        case notFound(SitePage)

        var page: SitePage {
            switch self {
            case .page(let page), .notFound(let page): return page
            }
        }
    }

    static func write(_ pages: ReferencePages, input: SiteInput, proofs: BlockProofs, links: SiteLinks)
        throws(Diagnostic) -> PageWriting
    {
        let options = input.options
        let words = input.words
        // Every word the pages say must exist: the generator's, the template's and the scripts'.
        if let missing = words.missingDiagnostic(
            WeaveWord.allCases.map(\.rawValue), usedBy: "the site generator")
        {
            throw missing
        }
        if let missing = words.missingDiagnostic(
            input.theme.scriptKeys.values.joined(), usedBy: "the theme's scripts")
        {
            throw missing
        }
        let template = try input.theme.template(with: words)
        var diagnostics: [Diagnostic] = []
        let highlight = options.highlightFolder.appendingPathComponent("highlight.min.js")
        let isHighlighted = FileManager.default.fileExists(atPath: highlight.path)
        if !isHighlighted {
            diagnostics.append(
                Diagnostic(
                    .warning, text: WeaveMessage.highlightMissing(folder: options.highlightFolder.path).text,
                    at: nil))
        }
        var printPrefixes: [String: String] = [:]
        var printPrefixesByName: [String: String] = [:]
        for page in pages.all where page.kind == .chapter {
            printPrefixes[page.output] = SiteContext.printPrefix(page.output)
            printPrefixesByName[String(page.output.split(separator: "/").last ?? "")] =
                printPrefixes[page.output]
        }
        let site = SiteContext(
            theme: input.theme, words: words, template: template,
            layout: Layout(pages.all, parts: input.book.parts, words: words),
            directory: proofs.directory,
            badges: proofs.badges, targets: proofs.targets, linkTargets: links.targets,
            isHighlighted: isHighlighted, siteTitle: options.siteTitle,
            // The plain note is the theme's word, in the build's language.
            tryItOfflineNote: options.tryItOfflineNote == SiteOptions.plainTryItOfflineNote
                ? nil : options.tryItOfflineNote,
            output: options.outputFolder,
            language: options.language, otherLanguages: options.otherLanguages,
            serverRoot: options.serverRoot,
            printPrefixes: printPrefixes, printPrefixesByName: printPrefixesByName)
        let jobs: [Job] = pages.all.map { .page($0) } + [.notFound(pages.notFound)]
        // A page equal to the previous build's, in an equal context, takes its previous bytes.
        let cache = options.cache
        let (previous, previousFolder) = cache?.pages(renderedIn: site.pageInputs) ?? ([:], nil)
        let folder = options.outputFolder
        let written = ConcurrentMap.map(jobs) { job -> Result<(SiteContext.RenderedPage, Bool), Diagnostic> in
            let page = job.page
            let rendered: SiteContext.RenderedPage
            let reused: Bool
            if let hit = previous[page.output], hit.page == page {
                (rendered, reused) = (hit.rendered, true)
            } else {
                (rendered, reused) = (site.render(job), false)
            }
            do throws(Diagnostic) {
                // A page rendered the same is linked from the previous build's folder when it is
                // still there (a new name for the same file, not megabytes written again).
                if !reused || !SiteFiles.link(rendered.path, from: previousFolder, into: folder) {
                    try SiteFiles.write(rendered.path, pieces: [rendered.file[...]], into: folder)
                }
            } catch {
                return .failure(error)
            }
            return .success((rendered, reused))
        }
        var result = PageWriting(
            paths: [], printParts: [], searchParts: [], site: site,
            highlight: isHighlighted ? highlight : nil,
            diagnostics: diagnostics)
        var remembered: [(page: SitePage, rendered: SiteContext.RenderedPage)] = []
        var renderedCount = 0
        for (job, outcome) in zip(jobs, written) {
            switch outcome {
            case .success(let (output, reused)):
                result.paths.append(output.path)
                result.searchParts.append(output.search)
                if case .page(let page) = job, let content = output.printContent {
                    result.printParts.append((page, content))
                }
                remembered.append((job.page, output))
                if !reused { renderedCount += 1 }
            case .failure(let diagnostic): throw diagnostic
            }
        }
        cache?.remember(context: site.pageInputs, pages: remembered, rendered: renderedCount, folder: folder)
        return result
    }
}
