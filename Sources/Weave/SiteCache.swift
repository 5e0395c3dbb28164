import FileStamps
import Foundation

/// What the last build of one site rendered, kept for the next build of the same site (a
/// ``SiteOptions/cache``), so that a rebuild renders again only what its inputs changed.
///
/// A page is rendered from two things: the page itself (its Markdown, anchors, blocks, reading
/// time, translation) and what every page shares (the template, the words, the navigation, the
/// chunk directory, the badges, every page's link targets: the ``SiteContext``). Both are
/// values, compared whole with the previous build's. When the shared part is unchanged, each
/// page equal to its previous value takes its previous bytes; when the shared part changed (a
/// title, an anchor, a code block moved), every page is rendered again. The search index and
/// the print page are merged again only when a page's part of them changed. So a rebuild with
/// a cache writes what a build without one writes, byte for byte.
///
/// ```swift
/// let cache = SiteCache()
/// options.cache = cache
/// _ = try SiteBuilder.build(options)   // renders every page
/// _ = try SiteBuilder.build(options)   // the same book: renders none
/// cache.lastBuild                      // SiteCache.Work(pagesRendered: 0, pagesReused: 54, ...)
/// ```
public final class SiteCache: @unchecked Sendable {
    /// What one build rendered and what it took from the previous one.
    public struct Work: Sendable, Equatable {
        public var pagesRendered = 0
        public var pagesReused = 0
        /// The pages whose part of the search index differs from the previous build's.
        public var indexParts = 0

        public init() {}

        /// `1 page, 1 index part`, `no page`: what a log line says was rebuilt.
        public var summary: String {
            func count(_ number: Int, _ noun: String) -> String {
                number == 0 ? "no \(noun)" : "\(number) \(noun)\(number == 1 ? "" : "s")"
            }
            return count(pagesRendered, "page")
                + (indexParts > 0 ? ", " + count(indexParts, "index part") : "")
        }
    }

    private let lock = NSLock()
    private var context: SiteContext?
    private var pages: [String: (page: SitePage, rendered: SiteContext.RenderedPage)] = [:]
    /// Where the previous build wrote its pages: a page it rendered the same is linked from there.
    private var folder: URL?
    /// The files the previous build copied (theme assets, highlight.js), by path in the site, with
    /// the stamps their sources had: a source with the same stamp is linked, not copied again.
    private var copies: [String: FileStamp] = [:]
    /// Where the previous build copied them (its pages' folder, remembered after the copies).
    private var copiesFolder: URL?
    private var index: (parts: [SearchIndex.Part], language: SearchLanguage, json: [UInt8])?
    private var printPage: (context: SiteContext, parts: [[UInt8]], pages: [[String]], file: [UInt8])?
    private var work = Work()

    public init() {}

    /// What the last build rendered and reused.
    public var lastBuild: Work { lock.withLock { work } }

    /// The previous build's pages, by output path, if they were rendered in an equal context,
    /// and the folder it wrote them into.
    func pages(renderedIn context: SiteContext) -> (
        pages: [String: (page: SitePage, rendered: SiteContext.RenderedPage)], folder: URL?
    ) {
        lock.withLock { self.context == context ? (pages, folder) : ([:], nil) }
    }

    /// The files the previous build copied, with their sources' stamps, and where they are.
    func copiedFiles() -> (stamps: [String: FileStamp], folder: URL?) {
        lock.withLock { (copies, copiesFolder) }
    }

    /// Keeps what this build copied into `folder` for the next one.
    func rememberCopies(_ stamps: [String: FileStamp], folder: URL) {
        lock.withLock { (copies, copiesFolder) = (stamps, folder) }
    }

    /// The previous build's pages now live in `folder` (the live site moved them).
    public func pagesMoved(to folder: URL) {
        lock.withLock { (self.folder, copiesFolder) = (folder, folder) }
    }

    /// Keeps this build's pages for the next one.
    func remember(
        context: SiteContext, pages: [(page: SitePage, rendered: SiteContext.RenderedPage)], rendered: Int,
        folder: URL
    ) {
        lock.withLock {
            self.folder = folder
            work = Work()
            work.pagesRendered = rendered
            work.pagesReused = pages.count - rendered
            work.indexParts = pages.count {
                self.pages[$0.rendered.path]?.rendered.search != $0.rendered.search
            }
            self.context = context
            self.pages = Dictionary(
                pages.map { ($0.rendered.path, $0) }, uniquingKeysWith: { _, last in last })
        }
    }

    /// The search index: the previous one if the parts are the same, else `merge()`'s.
    func searchIndex(parts: [SearchIndex.Part], language: SearchLanguage, merge: () -> [UInt8]) -> [UInt8] {
        if let json = lock.withLock({ () -> [UInt8]? in
            guard let index, index.language == language, index.parts == parts else { return nil }
            return index.json
        }) {
            return json
        }
        let json = merge()
        lock.withLock {
            index = (parts, language, json)
        }
        return json
    }

    /// The print page: the previous one if the context and the chapters' parts are the same.
    func printPage(
        context: SiteContext, parts: [(page: SitePage, content: [UInt8])], assemble: () -> [UInt8]
    ) -> [UInt8] {
        let contents = parts.map(\.content)
        let pages = parts.map { [$0.page.output, $0.page.title] }
        if let file = lock.withLock({ () -> [UInt8]? in
            guard let printPage, printPage.context == context, printPage.parts == contents,
                printPage.pages == pages
            else { return nil }
            return printPage.file
        }) {
            return file
        }
        let file = assemble()
        lock.withLock {
            printPage = (context, contents, pages, file)
        }
        return file
    }
}
