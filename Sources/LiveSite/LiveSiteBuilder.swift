import Foundation
import Literate
import MockServer
import Weave

/// Builds the site `workbook serve` serves, and reports to the ``LiveSite``.
///
/// Two speeds, so that a save reaches the browser fast:
///
/// 1. ``rebuild()`` weaves the book without its snippet checks into a fresh folder
///    (`site-N`), and the moment it is complete the server switches to it and every open page
///    is told to reload. A page never sees a half-written site, because the folder it is served
///    from is only ever complete. Its two halves, ``buildEnglish()`` and ``publish(_:)``, can
///    also be called apart, so that a save's English build starts during the watcher's quiet
///    period (``EarlyRebuilds``).
/// 2. ``requestChecks()`` then runs what takes longer on a thread of its own: the snippet
///    checkers (`workbook check`'s), and a comparison of what the chapters tangle to with the
///    Swift on disk. Their findings arrive as a `status` event a moment later. Requests made
///    while checks run are merged into one more run.
///
/// ```swift
/// let builder = LiveSiteBuilder(settings: settings, live: live)
/// builder.rebuild()          // generation 1: the site is up
/// builder.requestChecks()    // diagnostics and the restart notice follow
/// ```
package final class LiveSiteBuilder: @unchecked Sendable {
    package struct Settings: Sendable {
        /// The book folder (holding `chapters/`).
        package var bookRoot: URL
        var themeFolder: URL
        /// Where the `site-N` folders go; emptied of earlier ones at start.
        var outputFolder: URL
        /// Coverage data for the "tested" badges; nil looks for what `./wb test` left.
        var coverageFile: URL?
        var checkers: @Sendable () -> [any SnippetChecker]
        var swiftc: String? = BookChecker.findExecutable("swiftc")
        /// The running executable: tangled files newer than it mean a restart is due.
        var executable: URL? = Bundle.main.executableURL
        /// Receives one line when the checks finish.
        package var log: @Sendable (String) -> Void = { _ in }
        /// Whether a rebuild starts from what the previous one computed (parsed chapters,
        /// rendered pages, the search index): off with `workbook serve --full-rebuild`.
        package var keepsPreviousBuild = true
        /// Whether the lines of ``lastWork`` add each stage's time (`workbook serve --timings`).
        package var printsTimings = false

        package init(
            bookRoot: URL, themeFolder: URL, outputFolder: URL, coverageFile: URL? = nil,
            checkers: @escaping @Sendable () -> [any SnippetChecker]
        ) {
            (self.bookRoot, self.themeFolder, self.outputFolder, self.coverageFile, self.checkers) = (
                bookRoot, themeFolder, outputFolder, coverageFile, checkers
            )
        }
    }

    let settings: Settings
    let live: LiveSite
    private let lock = NSLock()
    private var built = 0
    /// The folder served now, nil before the first build succeeded.
    private var published: URL?
    private var checkRequested = false
    private var checking = false
    private var closed = false

    /// What the previous build of each language's site rendered, by language.
    private var caches: [String: SiteCache] = [:]
    /// What the last rebuild did, a line per language: `en: 1 page, 1 index part, in 14 ms`.
    var lastWork: [String] { lock.withLock { work } }
    private var work: [String] = []

    init(settings: Settings, live: LiveSite) {
        (self.settings, self.live) = (settings, live)
    }

    /// The cache of `site`'s language, or nil when every rebuild starts afresh.
    private func cache(for site: SiteOptions) -> SiteCache? {
        guard settings.keepsPreviousBuild else { return nil }
        return lock.withLock {
            if let cache = caches[site.language] { return cache }
            let cache = SiteCache()
            caches[site.language] = cache
            return cache
        }
    }

    /// Tells the cache of `language` where its previous pages are now, so that the next build
    /// links unchanged pages from there.
    private func cachedPagesMoved(_ language: String, to folder: URL) {
        guard settings.keepsPreviousBuild else { return }
        lock.withLock { caches[language] }?.pagesMoved(to: folder)
    }

    /// Builds one language's site, and notes what it rebuilt.
    private func build(_ site: SiteOptions, into work: inout [String]) throws(Diagnostic) -> [Diagnostic] {
        var site = site
        site.cache = cache(for: site)
        let clock = ContinuousClock()
        let started = clock.now
        let report = try SiteBuilder.build(site)
        let elapsed = (clock.now - started).components
        let milliseconds = elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
        let what = site.cache?.lastBuild.summary ?? "\(report.pages.count) pages (full rebuild)"
        work.append("\(site.language): \(what), in \(milliseconds) ms")
        if settings.printsTimings { work += SiteStage.lines(report.stages, language: site.language) }
        return report.diagnostics
    }

    /// Removes the folders an earlier run left, and creates the output folder.
    func prepare() throws {
        let fileManager = FileManager.default
        if let names = try? fileManager.contentsOfDirectory(atPath: settings.outputFolder.path) {
            for name in names where name.hasPrefix("site-") {
                try? fileManager.removeItem(at: settings.outputFolder.appendingPathComponent(name))
            }
        }
        try fileManager.createDirectory(at: settings.outputFolder, withIntermediateDirectories: true)
    }

    /// Weaves the book (no snippet checks) into a new folder and publishes it. Returns the
    /// diagnostics; a build that cannot finish leaves the previous site up.
    ///
    /// English is published first. Each translation of the previous site moves into the new
    /// folder meanwhile, and is replaced when its own build is complete: an English page
    /// reloads without waiting for the translations, and a translated page reloads when its
    /// language is done (``LiveSite/buildSucceeded(folder:diagnostics:languages:)``).
    @discardableResult
    func rebuild() -> [Diagnostic] {
        publish(buildEnglish())
    }

    /// The English site built into a new folder, not yet served: the first half of ``rebuild()``,
    /// which may start while a save still waits out its quiet period (``EarlyRebuilds``). One
    /// that is never published leaves its folder until the next publish, as the next build
    /// links its unchanged pages from there.
    struct EnglishBuild: Sendable {
        var number: Int
        var folder: URL
        var options: SiteOptions
        /// The English site's options, or why the build failed.
        var english: Result<SiteOptions, Diagnostic>
        var diagnostics: [Diagnostic]
        var work: [String]
    }

    /// Builds the English site into `site-N` (the first half of ``rebuild()``).
    func buildEnglish() -> EnglishBuild {
        live.buildStarted()
        let number: Int = lock.withLock {
            built += 1
            return built
        }
        let folder = settings.outputFolder.appendingPathComponent("site-\(number)")
        let options = siteOptions(folder: folder)
        var diagnostics: [Diagnostic] = []
        var work: [String] = []
        let english: Result<SiteOptions, Diagnostic>
        do throws(Diagnostic) {
            // The PO files are read after the English site is out.
            let site = try BookLanguages.english(options)
            diagnostics = try build(site, into: &work)
            english = .success(site)
        } catch {
            english = .failure(error)
        }
        lock.withLock { self.work = work }
        return EnglishBuild(
            number: number, folder: folder, options: options, english: english, diagnostics: diagnostics,
            work: work)
    }

    /// Serves an English site built by ``buildEnglish()``, then builds and serves each
    /// translation (the second half of ``rebuild()``). Returns the diagnostics of both halves.
    func publish(_ prepared: EnglishBuild) -> [Diagnostic] {
        let previous = lock.withLock { published }
        var diagnostics = prepared.diagnostics
        var work = prepared.work
        defer { lock.withLock { self.work = work } }
        let folder = prepared.folder
        var isPublished = false
        var building: URL?
        do throws(Diagnostic) {
            let english = try prepared.english.get()
            let languages = english.otherLanguages.map(\.code)
            if let previous, !languages.isEmpty {
                for language in languages {
                    let old = previous.appendingPathComponent(language)
                    guard FileManager.default.fileExists(atPath: old.path) else { continue }
                    let moved = folder.appendingPathComponent(language)
                    if (try? FileManager.default.moveItem(at: old, to: moved)) != nil {
                        cachedPagesMoved(language, to: moved)
                    }
                }
                publish(folder, replacing: previous, diagnostics: diagnostics, languages: [english.language])
                isPublished = true
            }
            let translations = try BookLanguages.translations(prepared.options)
            for var site in translations {
                let destination = site.outputFolder
                let staging = settings.outputFolder.appendingPathComponent(
                    "site-\(prepared.number).\(site.language)")
                site.outputFolder = staging
                building = staging
                diagnostics = (diagnostics + (try build(site, into: &work))).removingRepeats()
                try? FileManager.default.removeItem(at: destination)
                if (try? FileManager.default.moveItem(at: staging, to: destination)) != nil {
                    cachedPagesMoved(site.language, to: destination)
                }
                building = nil
            }
            publish(
                folder, replacing: previous, diagnostics: diagnostics,
                languages: isPublished ? translations.map(\.language) : nil)
            return diagnostics
        } catch {
            live.buildFailed(diagnostics: (diagnostics + [error]).map(Self.liveDiagnostic))
            if let building { try? FileManager.default.removeItem(at: building) }
            if !isPublished { try? FileManager.default.removeItem(at: folder) }
            return diagnostics + [error]
        }
    }

    /// The options of a build into `folder`: the book's, without the snippet checks.
    func siteOptions(folder: URL) -> SiteOptions {
        var options = SiteOptions(
            bookRoot: settings.bookRoot, outputFolder: folder, themeFolder: settings.themeFolder,
            checkers: settings.checkers())
        BookSite.configure(&options)
        options.runsSnippetChecks = false
        options.coverageFile = settings.coverageFile ?? Self.coverageFile(in: settings.bookRoot)
        options.swiftc = nil
        return options
    }

    /// The folders to watch: each input in the book that is watched, as a folder, or the folder
    /// holding it (a file may be replaced, not written in place).
    var watchedFolders: [String] {
        let inputs = siteOptions(folder: settings.outputFolder).inputs.filter(\.isWatched)
        var folders: [String] = []
        for input in inputs where !input.path.hasPrefix("/") {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(
                atPath: settings.bookRoot.appendingPathComponent(input.path).path, isDirectory: &isFolder)
            let folder =
                exists && !isFolder.boolValue
                ? (input.path as NSString).deletingLastPathComponent : input.path
            if !folder.isEmpty, !folders.contains(folder) { folders.append(folder) }
        }
        // A folder inside another watched one is watched already.
        return folders.filter { folder in !folders.contains { folder.hasPrefix($0 + "/") } }
    }

    /// Serves `folder` and tells the pages in `languages` (nil: every page) to reload.
    private func publish(
        _ folder: URL, replacing previous: URL?, diagnostics: [Diagnostic], languages: [String]?
    ) {
        live.buildSucceeded(
            folder: folder, diagnostics: diagnostics.map(Self.liveDiagnostic), languages: languages)
        lock.withLock { published = folder }
        removeFolders(keeping: [folder, previous].compactMap { $0?.lastPathComponent })
    }

    /// Removes the earlier sites but the one just replaced (a page may still be loading from it),
    /// those built early and never published among them.
    private func removeFolders(keeping kept: [String]) {
        let fileManager = FileManager.default
        let names = (try? fileManager.contentsOfDirectory(atPath: settings.outputFolder.path)) ?? []
        for name in names where name.hasPrefix("site-") && !kept.contains(name) {
            // A translation still being staged (`site-N.vi`) belongs to the build in progress.
            guard Int(name.dropFirst("site-".count)) != nil else { continue }
            try? fileManager.removeItem(at: settings.outputFolder.appendingPathComponent(name))
        }
    }

    // MARK: The slow checks

    /// Runs the checks on a background thread; merged with a run already waiting.
    func requestChecks() {
        let start: Bool = lock.withLock {
            guard !closed else { return false }
            checkRequested = true
            guard !checking else { return false }
            checking = true
            return true
        }
        guard start else { return }
        let thread = Thread { [self] in
            while lock.withLock({ () -> Bool in
                guard checkRequested, !closed else {
                    checking = false
                    return false
                }
                checkRequested = false
                return true
            }) {
                let clock = ContinuousClock()
                let started = clock.now
                let (diagnostics, restart) = runChecks()
                guard !lock.withLock({ closed }) else { break }
                let elapsed = (clock.now - started).components
                let milliseconds = elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
                settings.log(
                    "site: checks done in \(milliseconds) ms, \(diagnostics.count) findings"
                        + (restart == nil ? "" : ", restart needed"))
                live.checksFinished(diagnostics: diagnostics.map(Self.liveDiagnostic), restartReason: restart)
            }
        }
        thread.name = "workbook-site-checks"
        thread.qualityOfService = .utility
        thread.start()
    }

    /// No more checks (the server is stopping).
    func close() {
        lock.withLock { closed = true }
    }

    /// The snippet checks' findings, and why the running server is out of date (nil if it is not).
    func runChecks() -> (diagnostics: [Diagnostic], restartReason: String?) {
        let book: Book
        do {
            book = try Book.load(root: settings.bookRoot, inlines: false)
        } catch {
            return ([error], nil)
        }
        let tangle = Tangler.tangle(book)
        let checker = BookChecker(checkers: settings.checkers(), swiftc: settings.swiftc)
        var diagnostics = checker.run(tangle).diagnostics
        let plan = TangleWriter.plan(tangle, root: settings.bookRoot, force: false)
        diagnostics += plan.problems
        let words = (try? SiteWords.load(themeFolder: settings.themeFolder)) ?? SiteWords()
        return (
            diagnostics, Self.restartReason(plan: plan, files: tangle.files, settings: settings, words: words)
        )
    }

    /// A change the running server cannot pick up: the chapters tangle to Swift that differs
    /// from the files on disk (run `./wb tangle`, then restart), or the files on disk are newer
    /// than the running executable (restart). The second is checked only for an executable
    /// built inside the book's folder, the one case where it was built from those files.
    ///
    /// A file whose only differences are its `#sourceLocation` lines (prose added above the code
    /// moved it) does not count: the running code is the same.
    static func restartReason(plan: TanglePlan, files: [TangledFile], settings: Settings, words: SiteWords)
        -> String?
    {
        let drifted = plan.changes.filter { change in
            guard case .update(let old) = change.change, let new = change.content else { return true }
            return codeLines(old) != codeLines(new)
        }.map(\.path)
        if !drifted.isEmpty {
            let shown = drifted.prefix(3).joined(separator: ", ") + (drifted.count > 3 ? ", ..." : "")
            return words.format(.restartDrift, ["files": shown])
        }
        guard let executable = settings.executable,
            executable.standardizedFileURL.path.hasPrefix(settings.bookRoot.standardizedFileURL.path + "/"),
            let built = modificationDate(executable)
        else { return nil }
        let newer = files.map(\.path).filter {
            (modificationDate(settings.bookRoot.appendingPathComponent($0)) ?? .distantPast) > built
        }
        guard let first = newer.first else { return nil }
        return newer.count > 1
            ? words.format(.restartNewerOther, ["file": first, "count": String(newer.count - 1)])
            : words.format(.restartNewerOne, ["file": first])
    }

    /// A tangled file without what only records where its lines came from.
    static func codeLines(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            return !trimmed.hasPrefix("#sourceLocation(") && !trimmed.hasPrefix("// Body hash:")
        }
    }

    private static func modificationDate(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }

    /// The newest coverage export of `./wb test` (`.build/test/debug/codecov`), else of a plain
    /// `swift test --enable-code-coverage` (`.build/debug/codecov`).
    static func coverageFile(in root: URL) -> URL? {
        var newest: (url: URL, date: Date)?
        for folder in [".build/test/debug/codecov", ".build/debug/codecov"] {
            let url = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            for name in names where name.hasSuffix(".json") {
                let file = url.appendingPathComponent(name)
                let date = modificationDate(file) ?? .distantPast
                if newest == nil || date > newest!.date { newest = (file, date) }
            }
        }
        return newest?.url
    }

    static func liveDiagnostic(_ diagnostic: Diagnostic) -> LiveStatus.Diagnostic {
        LiveStatus.Diagnostic(
            file: diagnostic.location?.path, line: diagnostic.location?.line,
            column: diagnostic.location?.column, severity: diagnostic.severity.rawValue,
            message: diagnostic.message)
    }
}
