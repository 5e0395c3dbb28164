import Foundation
import Literate

/// What `workbook build` needs to know.
public struct SiteOptions: Sendable {
    /// The book folder, holding `chapters/` (and maybe `exercises/`).
    public var bookRoot: URL
    /// Where the site is written. Emptied first, but only if an earlier build wrote it.
    public var outputFolder: URL
    /// The theme: `templates/`, `assets/`, `home.md`, `glossary.json`.
    public var themeFolder: URL
    /// The snippet checkers `workbook check` registers, so badges say what it says.
    public var checkers: [any SnippetChecker]
    /// Adds each exercise's `Solution/` files to its page (for instructors).
    public var includeSolutions = false
    /// llvm-cov export data; nil looks for the newest `.build/debug/codecov/*.json` in the book.
    public var coverageFile: URL?
    /// Debian's highlight.js (`libjs-highlight.js`), copied into the site when present.
    public var highlightFolder = URL(fileURLWithPath: "/usr/share/javascript/highlight.js")
    /// The mock server's OpenAPI document, relative to the book.
    public var openAPIPath = "Sources/MockServer/Resources/openapi.json"
    /// The compiler for parse-checking Apple-only blocks (as `workbook check` does).
    public var swiftc: String? = BookChecker.findExecutable("swiftc")
    /// Run the snippet checkers and parse checks. `workbook serve` turns this off to publish a
    /// rebuilt site fast, and runs them afterwards in the background; badges then show what
    /// proves each block without a failed check marking it.
    public var runsSnippetChecks = true

    public init(bookRoot: URL, outputFolder: URL, themeFolder: URL, checkers: [any SnippetChecker]) {
        self.bookRoot = bookRoot
        self.outputFolder = outputFolder
        self.themeFolder = themeFolder
        self.checkers = checkers
    }
}

/// What a build did.
public struct SiteReport: Sendable {
    /// The HTML pages written, relative to the output folder, sorted.
    public var pages: [String]
    /// Every file written (pages, assets, the search index).
    public var fileCount: Int
    /// Broken links and tangle errors (errors), missing highlight.js and the like (warnings).
    public var diagnostics: [Diagnostic]
    /// The coverage data used for "tested", relative to the book when inside it.
    public var coverageFile: String?
    public var testedBlocks: Int
    public var isHighlighted: Bool

    public var hasErrors: Bool { diagnostics.hasErrors }
}

/// Weaves the book into a static site.
///
/// ```swift
/// var options = SiteOptions(bookRoot: root, outputFolder: root.appendingPathComponent("build/site"),
///                           themeFolder: root.appendingPathComponent("site"), checkers: [])
/// let report = try SiteBuilder.build(options)
/// for diagnostic in report.diagnostics { print(diagnostic) }   // chapters/02-routing.md:41:5: error: ...
/// ```
///
/// Bad input (no chapters, no theme, an output folder that holds something else) throws a
/// `Diagnostic`; findings in the book (broken links) come back in the report, and the site is
/// still written so that they can be looked at.
public enum SiteBuilder {
    /// The file that marks a folder as written by `build`, so that a rebuild may empty it.
    static let marker = ".workbook-site"

    public static func build(_ options: SiteOptions) throws(Diagnostic) -> SiteReport {
        let bookPath = options.bookRoot.standardizedFileURL.path + "/"
        let theme = try Theme.load(
            options.themeFolder,
            includeContent: options.themeFolder.standardizedFileURL.path.hasPrefix(bookPath))
        let book = try Book.load(root: options.bookRoot)
        try prepareOutput(options.outputFolder)
        var diagnostics: [Diagnostic] = []

        // What proves each block: the engine's statuses, failed checks, measured coverage.
        let tangle = Tangler.tangle(book)
        diagnostics += tangle.diagnostics
        let checker =
            options.runsSnippetChecks
            ? BookChecker(checkers: options.checkers, swiftc: options.swiftc)
            : BookChecker(checkers: options.checkers.map(NamedOnly.init), swiftc: nil)
        let (reports, found) = checker.run(tangle)
        // Without the checks, the only findings would be the parse check's "no swiftc": drop them.
        let checkDiagnostics = options.runsSnippetChecks ? found : []
        let failedChecks = checkDiagnostics.filter { $0.severity == .error }
        if !failedChecks.isEmpty {
            diagnostics.append(
                Diagnostic(
                    .warning, text: WeaveMessage.snippetCheckErrors(count: failedChecks.count).text, at: nil))
        }
        var coverageName: String?
        var testedLines: Set<SourceLocation> = []
        if let url = options.coverageFile ?? newestCoverageFile(in: options.bookRoot) {
            coverageName = relativePath(of: url, in: options.bookRoot)
            switch loadCoverage(url, files: tangle.files) {
            case .success(let lines):
                testedLines = lines
            case .failure(let error):
                var detail = error.text
                if case .invalidCoverage(_, let reason) = error { detail = reason }
                let message = WeaveMessage.invalidCoverage(path: coverageName ?? url.path, detail: detail)
                diagnostics.append(Diagnostic(.warning, text: message.text, at: nil))
                coverageName = nil
            }
        }
        let outputOf = { (chapter: String) in chapterOutput(chapter) }
        let directory = ChunkDirectory(blocks: tangle.blocks, pageOutput: outputOf)
        var badges: [BlockKey: Badge] = [:]
        var targets: [BlockKey: [String]] = [:]
        var testedCount = 0
        for (index, report) in reports.enumerated() {
            let block = report.block
            let key = BlockKey(chapter: block.chapter, line: block.location.line)
            let lines = block.contentLine..<(block.contentLine + block.lines.count)
            let tested = lines.contains {
                testedLines.contains(SourceLocation(path: block.chapter, line: $0))
            }
            let failed = failedChecks.contains {
                guard let location = $0.location, location.path == block.chapter else { return false }
                return location.line >= block.location.line
                    && location.line <= block.contentLine + block.lines.count
            }
            let badge = Badge(report.status, tested: tested, failed: failed)
            if badge == .tested { testedCount += 1 }
            badges[key] = badge
            targets[key] =
                block.attributes.file.map { [$0] } ?? tangle.blockTargets[index].map { $0.sorted() } ?? []
        }

        // The pages written from Markdown in the book and the theme.
        let exercises = loadExercises(options.bookRoot, solutions: options.includeSolutions)
        var pages: [SitePage] = []
        // The deferred-flow simulator's page: the theme's own, so only with the theme's content, and
        // only in a book that has the mock server it runs on (its OpenAPI document), not in a book
        // that merely borrows this theme.
        var simulator: SitePage?
        if options.themeFolder.standardizedFileURL.path.hasPrefix(bookPath),
            FileManager.default.fileExists(
                atPath: options.bookRoot.appendingPathComponent(options.openAPIPath).path),
            let data = FileManager.default.contents(
                atPath: options.themeFolder.appendingPathComponent("simulator.md").path)
        {
            var page = SitePage(
                kind: .simulator, source: "site/simulator.md", output: "simulator.html",
                markdown: String(decoding: data, as: UTF8.self))
            page.collectAnchors(blocks: blocks(of: page), directory: nil, reserved: theme.reservedIDs)
            simulator = page
        }
        var homeText = homeMarkdown(theme.home, chapters: book.chapters, exercises: exercises)
        if let simulator {
            let title = MarkdownText.escape(simulator.title)
            homeText += "\n## On the mock server\n\n- [\(title)](simulator.md)\n"
        }
        var home = SitePage(kind: .home, source: "site/home.md", output: "index.html", markdown: homeText)
        home.collectAnchors(blocks: blocks(of: home), directory: nil, reserved: theme.reservedIDs)
        pages.append(home)
        if let simulator { pages.append(simulator) }
        let blocksByChapter = Dictionary(grouping: tangle.blocks, by: \.chapter)
        // The chapters after the first part fold their tests and long blocks.
        let folding = Set(book.parts.dropFirst().flatMap(\.chapters))
        let blockTargets = targets
        let chapterPages = ConcurrentWork.map(book.chapters) { chapter -> SitePage in
            var page = SitePage(
                kind: .chapter, source: chapter.path, output: chapterOutput(chapter.path),
                markdown: chapter.source,
                document: chapter.document)
            page.collectAnchors(
                blocks: blocksByChapter[chapter.path] ?? [], directory: directory, reserved: theme.reservedIDs
            )
            page.foldsCode = folding.contains(chapter.path)
            let openLines = page.blocks.reduce(0) { total, block in
                let key = BlockKey(chapter: chapter.path, line: block.location.line)
                let folded =
                    page.foldsCode
                    && CodeFold.folds(targets: blockTargets[key] ?? [], lineCount: block.lines.count)
                return total + (folded ? 0 : block.lines.count)
            }
            page.readingMinutes = ReadingTime.minutes(
                words: ReadingTime.proseWords(chapter.source), openCodeLines: openLines)
            return page
        }
        pages += chapterPages
        for var exercise in exercises {
            exercise.collectAnchors(blocks: blocks(of: exercise), directory: nil, reserved: theme.reservedIDs)
            pages.append(exercise)
        }

        // The generated pages, which need the others' anchors.
        var resolver = LinkResolver(pages: [:], fileExists: fileChecker(options.bookRoot))
        for page in pages { resolver.pages[page.source] = .init(output: page.output, anchors: page.anchors) }
        resolver.pages["print.md"] = .init(output: "print.html", anchors: ["top"])
        let (glossaryMarkdown, glossaryDiagnostics) = glossaryPage(
            theme.glossary, pages: pages, resolver: resolver)
        diagnostics += glossaryDiagnostics
        var generated = [
            SitePage(
                kind: .glossary, source: "glossary.md", output: "glossary.html", markdown: glossaryMarkdown),
            SitePage(
                kind: .snippets, source: "snippets.md", output: "snippets.html",
                markdown: snippetMarkdown(
                    reports: reports, badges: badges, targets: targets, pages: pages, coverage: coverageName)),
        ]
        let (apiMarkdown, apiDiagnostic) = openAPIMarkdown(options)
        if let apiDiagnostic { diagnostics.append(apiDiagnostic) }
        generated.append(SitePage(kind: .api, source: "api.md", output: "api.html", markdown: apiMarkdown))
        for index in generated.indices {
            generated[index].collectAnchors(
                blocks: blocks(of: generated[index]), directory: nil, reserved: theme.reservedIDs)
            resolver.pages[generated[index].source] = .init(
                output: generated[index].output, anchors: generated[index].anchors)
        }
        pages += generated
        var notFound = SitePage(
            kind: .notFound, source: "404.md", output: "404.html", markdown: theme.notFound)
        notFound.collectAnchors(blocks: blocks(of: notFound), directory: nil, reserved: theme.reservedIDs)

        // Links: resolved and checked on every page before anything is written.
        let finalResolver = resolver
        let resolvedPages = ConcurrentWork.map(pages + [notFound]) { page in
            resolveLinks(page, resolver: finalResolver)
        }
        var linkTargets: [String: [String: LinkTarget]] = [:]
        var copies: Set<String> = []
        for resolved in resolvedPages {
            diagnostics += resolved.diagnostics
            linkTargets[resolved.source] = resolved.targets
            for case .file(let path, _) in resolved.targets.values { copies.insert(path) }
        }

        // Render and write every page.
        let layout = makeLayout(pages, parts: book.parts)
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
        for page in pages where page.kind == .chapter {
            printPrefixes[page.output] = SiteContext.printPrefix(page.output)
            printPrefixesByName[String(page.output.split(separator: "/").last ?? "")] =
                printPrefixes[page.output]
        }
        let site = SiteContext(
            theme: theme, layout: layout, directory: directory, badges: badges, targets: targets,
            linkTargets: linkTargets, isHighlighted: isHighlighted, output: options.outputFolder,
            printPrefixes: printPrefixes, printPrefixesByName: printPrefixesByName)
        let jobs: [PageJob] = pages.map { .page($0) } + [.notFound(notFound)]
        let written = ConcurrentWork.map(jobs) { job in site.write(job) }
        var pagePaths: [String] = []
        var printParts: [(page: SitePage, content: [UInt8])] = []
        var searchParts: [SearchIndex.Part] = []
        for (job, result) in zip(jobs, written) {
            switch result {
            case .success(let output):
                pagePaths.append(output.path)
                searchParts.append(output.search)
                if case .page(let page) = job, let content = output.printContent {
                    printParts.append((page, content))
                }
            case .failure(let diagnostic): throw diagnostic
            }
        }

        // The print page, the search index, the theme's assets, highlight.js and the book's
        // files that pages link to: independent writes, done side by side.
        var files: [FileJob] = []
        if !printParts.isEmpty {
            let parts = printParts
            files.append(FileJob(path: "print.html") { site.printPage(parts) })
            pagePaths.append("print.html")
        }
        let index = SearchIndex.json(parts: searchParts)
        files.append(FileJob(path: "search-index.json", bytes: index))
        files.append(FileJob(path: "search-index.js") { SearchIndex.script(pieces: index) })
        files.append(FileJob(path: marker, bytes: Array("written by workbook build\n".utf8)))
        for asset in theme.assetFiles {
            files.append(
                FileJob(
                    path: "assets/" + asset, source: theme.folder.appendingPathComponent("assets/" + asset)))
        }
        if isHighlighted {
            files.append(FileJob(path: "assets/vendor/highlight.min.js", source: highlight))
            let license = URL(fileURLWithPath: "/usr/share/doc/libjs-highlight.js/copyright")
            if FileManager.default.fileExists(atPath: license.path) {
                files.append(FileJob(path: "assets/vendor/highlight.js-copyright.txt", source: license))
            }
        }
        for path in copies.sorted() {
            files.append(FileJob(path: path, source: options.bookRoot.appendingPathComponent(path)))
        }
        let folder = options.outputFolder
        for result in ConcurrentWork.map(files, { $0.run(into: folder) }) {
            if case .failure(let diagnostic) = result { throw diagnostic }
        }
        return SiteReport(
            pages: pagePaths.sorted(),
            fileCount: pagePaths.count + files.count - (printParts.isEmpty ? 0 : 1),
            diagnostics: diagnostics.sorted(by: Diagnostic.bookOrder), coverageFile: coverageName,
            testedBlocks: testedCount, isHighlighted: isHighlighted)
    }

    /// The chapter lines that coverage data shows running, or what is wrong with the data.
    private static func loadCoverage(_ url: URL, files: [TangledFile]) -> Result<
        Set<SourceLocation>, WeaveMessage
    > {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return .failure(.invalidCoverage(path: url.path, detail: "cannot read the file"))
        }
        do throws(WeaveMessage) {
            return .success(try LineCoverage(json: data).chapterLines(of: files))
        } catch {
            return .failure(error)
        }
    }

    // MARK: Pages

    /// `chapters/03-x.md` is written to `chapters/03-x.html`.
    static func chapterOutput(_ path: String) -> String {
        path.hasSuffix(".md") ? String(path.dropLast(3)) + ".html" : path + ".html"
    }

    private static func blocks(of page: SitePage) -> [CodeBlock] {
        var collector = CodeBlockCollector(chapter: page.source)
        page.document.traverse(&collector)
        return collector.blocks
    }

    /// The theme's home text followed by the list of chapters and exercises, linked.
    static func homeMarkdown(_ text: String, chapters: [Chapter], exercises: [SitePage]) -> String {
        var out = text.hasSuffix("\n") ? text : text + "\n"
        out += "\n## Contents\n\n"
        for chapter in chapters {
            let title = SitePage.firstHeading(chapter.document) ?? chapter.path
            out += "- [\(MarkdownText.escape(title))](../\(chapter.path))\n"
        }
        if !exercises.isEmpty {
            out += "\n## Exercises\n\n"
            for exercise in exercises {
                out += "- [\(MarkdownText.escape(exercise.title))](../\(exercise.source))\n"
            }
        }
        return out
    }

    /// `exercises/NN-slug/README.md` for every exercise folder, with the solution appended when
    /// asked for.
    static func loadExercises(_ root: URL, solutions: Bool) -> [SitePage] {
        let folder = root.appendingPathComponent("exercises")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var pages: [SitePage] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let readme = folder.appendingPathComponent("\(name)/README.md")
            guard var text = Theme.read(readme) else { continue }
            let solutionFolder = folder.appendingPathComponent("\(name)/Solution")
            if solutions, FileManager.default.fileExists(atPath: solutionFolder.path) {
                if !text.hasSuffix("\n") { text += "\n" }
                text += "\n## Solution\n\nThe reference solution, included in this build for instructors.\n"
                for file in Theme.files(under: solutionFolder) {
                    let lines = (Theme.read(solutionFolder.appendingPathComponent(file)) ?? "")
                        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                    let fence = MarkdownText.fence(for: lines)
                    let language = file.hasSuffix(".swift") ? "swift" : ""
                    text += "\n`Solution/\(file)`:\n\n\(fence)\(language)\n"
                    text += lines.joined(separator: "\n") + (lines.last == "" ? "" : "\n") + fence + "\n"
                }
            }
            pages.append(
                SitePage(
                    kind: .exercise, source: "exercises/\(name)/README.md", output: "exercises/\(name).html",
                    markdown: text))
        }
        return pages
    }

    /// The glossary's Markdown, and a diagnostic (at its line in `glossary.json`) for each
    /// `see` link that does not resolve.
    private static func glossaryPage(_ glossary: Glossary, pages: [SitePage], resolver: LinkResolver)
        -> (String, [Diagnostic])
    {
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
        return (GeneratedPages.glossary(glossary, explainedIn: explained), diagnostics)
    }

    private static func snippetMarkdown(
        reports: [BlockReport], badges: [BlockKey: Badge], targets: [BlockKey: [String]], pages: [SitePage],
        coverage: String?
    ) -> String {
        let bySource = Dictionary(pages.map { ($0.source, $0) }, uniquingKeysWith: { first, _ in first })
        var tangled: [GeneratedPages.SnippetRow] = []
        var others: [GeneratedPages.SnippetRow] = []
        for report in reports {
            let block = report.block
            let key = BlockKey(chapter: block.chapter, line: block.location.line)
            let page = bySource[block.chapter]
            let row = GeneratedPages.SnippetRow(
                block: block, chapterTitle: page?.title ?? block.chapter, chapterNumber: page?.number,
                anchor: page?.codeIDs[block.location.line] ?? "code-\(block.location.line)",
                files: targets[key] ?? [], badge: badges[key] ?? .displayOnly)
            if block.attributes.isTangled { tangled.append(row) } else { others.append(row) }
        }
        return GeneratedPages.snippetIndex(tangled: tangled, others: others, coverage: coverage)
    }

    private static func openAPIMarkdown(_ options: SiteOptions) -> (String, Diagnostic?) {
        let url = options.bookRoot.appendingPathComponent(options.openAPIPath)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return (OpenAPIReference.missingMarkdown(documentPath: options.openAPIPath), nil)
        }
        do {
            return (try OpenAPIReference.markdown(json: data, documentPath: options.openAPIPath), nil)
        } catch {
            return (
                OpenAPIReference.missingMarkdown(documentPath: options.openAPIPath),
                Diagnostic(.error, text: error.text, at: SourceLocation(path: options.openAPIPath, line: 1))
            )
        }
    }

    private static func makeLayout(_ pages: [SitePage], parts: [Book.Part]) -> Layout {
        func item(_ page: SitePage) -> Layout.NavItem {
            Layout.NavItem(
                output: page.output, title: page.title, number: page.number, minutes: page.readingMinutes)
        }
        let chapterPages = pages.filter { $0.kind == .chapter }
        let chapters = chapterPages.map(item)
        // The summary's parts, each with its chapters' nav items; one untitled group without it.
        let bySource = Dictionary(
            chapterPages.map { ($0.source, item($0)) }, uniquingKeysWith: { first, _ in first })
        let chapterGroups =
            parts.isEmpty
            ? [Layout.Group(title: "Chapters", items: chapters)]
            : parts.map { part in
                Layout.Group(title: part.title, items: part.chapters.compactMap { bySource[$0] })
            }
        let exercises = pages.filter { $0.kind == .exercise }.map(item)
        var reference: [Layout.NavItem] = []
        for kind in [SitePage.Kind.simulator, .glossary, .snippets, .api] {
            if let page = pages.first(where: { $0.kind == kind }) { reference.append(item(page)) }
        }
        reference.append(Layout.NavItem(output: "print.html", title: "The whole book on one page"))
        let home = pages.first { $0.kind == .home }.map { [item($0)] } ?? []
        return Layout(
            chapters: chapterGroups, exercises: exercises, reference: reference,
            readingOrder: home + chapters + exercises)
    }

    // MARK: Links

    private struct ResolvedLinks: Sendable {
        var source: String
        var targets: [String: LinkTarget]
        var diagnostics: [Diagnostic]
    }

    private static func resolveLinks(_ page: SitePage, resolver: LinkResolver) -> ResolvedLinks {
        var targets: [String: LinkTarget] = [:]
        var diagnostics: [Diagnostic] = []
        for link in page.links {
            switch resolver.resolve(link.destination, from: page.source) {
            case .success(let target): targets[link.destination] = target
            case .failure(let message):
                diagnostics.append(
                    Diagnostic(
                        .error, text: message.text,
                        at: SourceLocation(path: page.source, line: link.line, column: link.column)))
            }
        }
        return ResolvedLinks(source: page.source, targets: targets, diagnostics: diagnostics)
    }

    private static func fileChecker(_ root: URL) -> @Sendable (String) -> Bool {
        { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(
                atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }
    }

    // MARK: Files

    /// Empties the output folder if an earlier build wrote it; refuses any other non-empty folder.
    static func prepareOutput(_ folder: URL) throws(Diagnostic) {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            let contents = (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? []
            if !isDirectory.boolValue || (!contents.isEmpty && !contents.contains(marker)) {
                throw Diagnostic(.error, text: WeaveMessage.outputNotOurs(path: folder.path).text, at: nil)
            }
            if !contents.isEmpty {
                do { try fileManager.removeItem(at: folder) } catch {
                    throw Diagnostic(
                        .error, text: WeaveMessage.writeFailed(path: folder.path, reason: "\(error)").text,
                        at: nil)
                }
            }
        }
        do {
            try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw Diagnostic(
                .error, text: WeaveMessage.writeFailed(path: folder.path, reason: "\(error)").text, at: nil)
        }
    }

    /// Writes `bytes`, or copies `source`, to `path` inside `folder`, creating folders as needed.
    static func write(_ path: String, bytes: [UInt8]?, copying source: URL?, into folder: URL)
        throws(Diagnostic)
    {
        try write(path, pieces: bytes.map { [$0[...]] }, copying: source, into: folder)
    }

    /// Writes `pieces` one after the other, or copies `source`, to `path` inside `folder`,
    /// creating folders as needed.
    static func write(_ path: String, pieces: [ArraySlice<UInt8>]?, copying source: URL?, into folder: URL)
        throws(Diagnostic)
    {
        let url = folder.appendingPathComponent(path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if let pieces {
                try writeFile(url.path, pieces)
            } else if let source {
                try? FileManager.default.removeItem(at: url)
                try FileManager.default.copyItem(at: source, to: url)
            }
        } catch {
            throw Diagnostic(
                .error, text: WeaveMessage.writeFailed(path: url.path, reason: "\(error)").text, at: nil)
        }
    }

    /// Writes the pieces with `open`/`write`, straight from their buffers: joining them, or
    /// making `Data` of them, would copy every page once more, and the site is megabytes of pages.
    private static func writeFile(_ path: String, _ pieces: [ArraySlice<UInt8>]) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission) }
        defer { close(descriptor) }
        for piece in pieces {
            try piece.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Foundation.write(
                        descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw CocoaError(.fileWriteUnknown)
                    }
                    offset += written
                }
            }
        }
    }

    /// The newest `*.json` in `BOOK/.build/debug/codecov/`, where `swift test
    /// --enable-code-coverage` leaves its export.
    static func newestCoverageFile(in root: URL) -> URL? {
        let folder = root.appendingPathComponent(".build/debug/codecov")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let candidates = names.filter { $0.hasSuffix(".json") }.map { folder.appendingPathComponent($0) }
        return candidates.max { modificationDate($0) < modificationDate($1) }
    }

    private static func modificationDate(_ url: URL) -> Date {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
            ?? .distantPast
    }

    private static func relativePath(of url: URL, in root: URL) -> String {
        let path = url.standardizedFileURL.path
        let prefix = root.standardizedFileURL.path + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

/// A checker that answers to a checker's name and finds nothing: with it, a build gives every
/// block its status without running the check.
private struct NamedOnly: SnippetChecker {
    let name: String

    init(_ checker: any SnippetChecker) { name = checker.name }

    func check(_ snippets: [Snippet]) -> [[SnippetFinding]] { snippets.map { _ in [] } }
}

/// A file of the site that is not a page: pieces made on demand, bytes at hand, or a copy.
struct FileJob: Sendable {
    var path: String
    var make: (@Sendable () -> [ArraySlice<UInt8>])?
    var bytes: [UInt8]?
    var source: URL?

    init(path: String, make: @escaping @Sendable () -> [ArraySlice<UInt8>]) {
        self.path = path
        self.make = make
    }

    init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    init(path: String, source: URL) {
        self.path = path
        self.source = source
    }

    func run(into folder: URL) -> Result<Void, Diagnostic> {
        do {
            try SiteBuilder.write(
                path, pieces: make?() ?? bytes.map { [$0[...]] }, copying: source, into: folder)
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}

/// One unit of rendering work.
enum PageJob: Sendable {
    case page(SitePage)
    case notFound(SitePage)
}

/// Everything rendering needs, shared read-only by the parallel page jobs.
struct SiteContext: Sendable {
    var theme: Theme
    var layout: Layout
    var directory: ChunkDirectory
    var badges: [BlockKey: Badge]
    var targets: [BlockKey: [String]]
    var linkTargets: [String: [String: LinkTarget]]
    var isHighlighted: Bool
    var output: URL

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

    /// What rendering one page gives back besides the file, made in the same parallel job: its
    /// part of the print page (chapters only) and of the search index.
    struct PageOutput: Sendable {
        var path: String
        var printContent: [UInt8]?
        var search: SearchIndex.Part
    }

    /// Renders and writes one page.
    func write(_ job: PageJob) -> Result<PageOutput, Diagnostic> {
        let page: SitePage
        let root: String
        var toc: [UInt8] = []
        var search = SearchIndex.Part.empty
        let body: [UInt8]
        switch job {
        case .page(let value):
            page = value
            root = Linker.root(from: page.output)
            toc = Layout.toc(page.headings)
            let rendered = render(page, linker: Linker(from: page.output), indexed: true)
            body =
                page.readingMinutes.map { ReadingTime.inserting(minutes: $0, into: rendered.html) }
                ?? rendered.html
            search = SearchIndex.part(rendered.sections, practice: page.kind == .exercise)
        case .notFound(let value):
            // Served for any missing path, so its links start at the server's root.
            page = value
            root = "/"
            body = render(page, linker: Linker(from: page.output), indexed: false).html
        }
        do {
            try SiteBuilder.write(
                page.output, pieces: frame(page: page, root: root, content: [body[...]], toc: toc),
                copying: nil,
                into: output)
        } catch {
            return .failure(error)
        }
        var printContent: [UInt8]?
        if let prefix = printPrefixes[page.output] {
            var rewritten: [UInt8] = []
            rewritten.reserveCapacity(body.count + body.count / 16)
            PrintRewriter(prefix: prefix, chapterPrefixes: printPrefixesByName, folder: "chapters/")
                .rewrite(body, into: &rewritten)
            printContent = page.foldsCode ? CodeFold.openingAll(rewritten) : rewritten
        }
        return .success(
            PageOutput(path: page.output, printContent: printContent, search: search))
    }

    /// A page's rendered Markdown, its links written by `linker`, and (when `indexed`) its
    /// search sections, collected in the same walk.
    func render(_ page: SitePage, linker: Linker, indexed: Bool) -> (html: [UInt8], sections: [SearchSection])
    {
        var context = RenderContext(source: page.text)
        context.headingIDs = page.headings.map(\.id)
        for block in page.blocks {
            context.codeViews[block.location.line] = codeView(block, page: page, linker: linker)
        }
        for (destination, target) in linkTargets[page.source] ?? [:] {
            context.hrefs[destination] = linker.href(target, original: destination)
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
                usedIn.append(NamedLink(label: entry.label, href: href))
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
        if page.foldsCode, CodeFold.folds(targets: files, lineCount: block.lines.count) {
            let label =
                name.map { "⟨\($0)⟩" } ?? block.attributes.file.map {
                    String($0.split(separator: "/").last ?? "")
                }
                ?? "code"
            fold = CodeFold.summary(lines: block.lines, label: label, isTest: CodeFold.isTest(targets: files))
        }
        return CodeBlockView(
            id: page.codeIDs[block.location.line] ?? "code-\(block.location.line)",
            language: block.attributes.language, chunkName: name,
            chunkHref: isChapter ? first.flatMap { directory.href($0, linker: linker) } : nil,
            isContinuation: isChapter && first != nil && first != key,
            files: files,
            badge: badges[key] ?? .displayOnly, usedIn: usedIn, referenceHrefs: references,
            tryIt: block.attributes.tryIt == nil ? nil : TryItPanel(httpLines: block.lines), fold: fold)
    }

    /// The page in the theme's template, as pieces to write one after the other.
    private func frame(page: SitePage, root: String, content: [ArraySlice<UInt8>], toc: [UInt8])
        -> [ArraySlice<UInt8>]
    {
        func piece(_ text: String) -> [ArraySlice<UInt8>] { [Array(text.utf8)[...]] }
        return theme.template.render(pieces: [
            "title": piece(HTML.escape(page.title)),
            "description": piece(HTML.escape("Deep Link Workbook: \(page.title)")),
            "root": piece(root),
            "page-kind": piece(page.kind.rawValue),
            "sidebar": [layout.sidebar(for: page.output, root: root)[...]],
            "content": content,
            "toc": [toc[...]],
            "pager": [layout.pager(for: page.output, root: root)[...]],
            "scripts": [scripts(root: root)[...]],
            "source-path": piece(HTML.escape(page.source)),
        ])
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
        page.title = "The whole book"
        return frame(page: page, root: "", content: content, toc: Layout.toc(headings))
    }
}

/// `map` over independent work on all cores, keeping the input order.
enum ConcurrentWork {
    static func map<Input: Sendable, Output: Sendable>(
        _ inputs: [Input], _ transform: @Sendable (Input) -> Output
    )
        -> [Output]
    {
        guard inputs.count > 1 else { return inputs.map(transform) }
        let results = ResultBox<Output>(count: inputs.count)
        DispatchQueue.concurrentPerform(iterations: inputs.count) { index in
            results.set(index, transform(inputs[index]))
        }
        return results.values.map { $0! }
    }
}

private final class ResultBox<Element>: @unchecked Sendable {
    private var storage: [Element?]
    private let lock = NSLock()

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Element) { lock.withLock { storage[index] = value } }

    var values: [Element?] { lock.withLock { storage } }
}
