import Foundation
import Literate

/// The third stage: the pages written from Markdown in the book and the theme — the home page,
/// the theme's own pages (``ThemePage``), every chapter and every exercise — each with its
/// anchors, links and code blocks collected.
enum BookPages {
    /// Home, theme pages, chapters, exercises: the order of the navigation and the search index.
    static func collect(_ input: SiteInput, proofs: BlockProofs) -> [SitePage] {
        let theme = input.theme
        let words = input.words
        let exercises = loadExercises(
            input.options.bookRoot, solutions: input.options.includeSolutions, words: words,
            sourceWords: input.theme.words, translate: input.translated)
        var pages: [SitePage] = []
        let themePages =
            input.themeIsTheBooks
            ? input.options.themePages.compactMap { themePage($0, theme, translate: input.translated) } : []
        let homeHeadings =
            themePages.map(\.option.homeHeading) + (input.citations?.pages ?? []).compactMap(\.homeHeading)
        let homeList = pageList(
            themePages.map { ($0.page.title, $0.option.file, $0.option.homeHeading) }
                + (input.citations?.pages ?? []).compactMap { page in
                    page.homeHeading.map { (page.title, "../" + page.file, $0) }
                })
        let homeText =
            homeMarkdown(theme.home, chapters: input.book.chapters, exercises: exercises, words: words)
            + homeList
        var home = SitePage(kind: .home, source: "site/home.md", output: "index.html", markdown: homeText)
        home.collectAnchors(blocks: blocks(of: home), directory: nil, reserved: theme.reservedIDs)
        if let source = input.sourceHome {
            // The English home's ids: its own text, its lists' headings in the theme's words.
            let english =
                homeMarkdown(source, chapters: [], exercises: exercises, words: input.theme.words)
                + pageList(
                    homeHeadings.map { heading in
                        ("", "", input.options.translation?.original(heading) ?? heading)
                    })
            home.keepHeadingIDs(ofSource: english, reserved: theme.reservedIDs)
            home.translation = input.translations["site/home.md"]
        }
        pages.append(home)
        pages += themePages.map(\.page)
        let blocksByChapter = Dictionary(grouping: proofs.blocks, by: \.chapter)
        // The chapters after the first part fold their tests and long blocks.
        let folding = Set(input.book.parts.dropFirst().flatMap(\.chapters))
        let directory = proofs.directory
        let blockTargets = proofs.targets
        let reserved = theme.reservedIDs
        pages += ConcurrentMap.map(input.book.chapters) { chapter -> SitePage in
            var page = SitePage(
                kind: .chapter, source: chapter.path, output: chapterOutput(chapter.path),
                markdown: chapter.source,
                document: chapter.document)
            page.collectAnchors(
                blocks: blocksByChapter[chapter.path] ?? [], directory: directory, reserved: reserved)
            if let source = input.sourceDocuments[chapter.path] {
                page.keepHeadingIDs(ofSource: source.text, document: source.document, reserved: reserved)
                page.translation = input.translations[chapter.path]
            }
            page.foldsCode = folding.contains(chapter.path)
            let openLines = page.blocks.reduce(0) { total, block in
                let key = BlockKey(chapter: chapter.path, line: block.location.line)
                let folded =
                    page.foldsCode
                    && CodeFold.folds(targets: blockTargets[key] ?? [], lineCount: block.lineCount)
                return total + (folded ? 0 : block.lineCount)
            }
            let words = proseWordCounts.value(
                for: ProseKey(path: chapter.path, text: MemoText(chapter.source))
            ) {
                ReadingTime.proseWords(chapter.source)
            }
            page.readingMinutes = ReadingTime.minutes(words: words, openCodeLines: openLines)
            return page
        }
        for var exercise in exercises {
            exercise.collectAnchors(blocks: blocks(of: exercise), directory: nil, reserved: theme.reservedIDs)
            if let source = exercise.sourceMarkdown {
                exercise.keepHeadingIDs(ofSource: source, reserved: theme.reservedIDs)
            }
            pages.append(exercise)
        }
        return pages
    }

    /// Each chapter's count of prose words, by its text: a save counts one chapter's.
    private static let proseWordCounts = Memo<ProseKey, Int>(capacity: 512, keeping: 4) { $0.path }

    private struct ProseKey: Hashable, Sendable {
        var path: String
        var text: MemoText
    }

    /// `chapters/03-x.md` is written to `chapters/03-x.html`.
    static func chapterOutput(_ path: String) -> String {
        path.hasSuffix(".md") ? String(path.dropLast(3)) + ".html" : path + ".html"
    }

    static func blocks(of page: SitePage) -> [CodeBlock] {
        var collector = CodeBlockCollector(chapter: page.source)
        page.document.traverse(&collector)
        return collector.blocks
    }

    /// A theme page read from the theme folder (`site/NAME.md`, written to `NAME.html`), or nil
    /// when the theme has no such file.
    private static func themePage(
        _ option: ThemePage, _ theme: Theme, translate: (String, String) -> (String, TranslatedMarkdown?)
    ) -> (page: SitePage, option: ThemePage)? {
        guard let source = Theme.read(theme.folder.appendingPathComponent(option.file)) else { return nil }
        let path = "site/" + option.file
        let (markdown, translation) = translate(path, source)
        var page = SitePage(
            kind: .theme(option.kind), source: path, output: chapterOutput(option.file), markdown: markdown)
        page.collectAnchors(blocks: blocks(of: page), directory: nil, reserved: theme.reservedIDs)
        if translation != nil {
            page.keepHeadingIDs(ofSource: source, reserved: theme.reservedIDs)
            page.translation = translation
        }
        return (page, option)
    }

    /// The home page's sections linking pages of the site that are not chapters (the theme's
    /// own, the pages of what the book cites), one per heading, in the pages' order:
    /// `## On the server` then `- [Page title](page.md)`. `link` is relative to the home page's
    /// folder in the theme.
    static func pageList(_ entries: [(title: String, link: String, heading: String)]) -> String {
        var headings: [String] = []
        var items: [String: [String]] = [:]
        for entry in entries {
            if items[entry.heading] == nil { headings.append(entry.heading) }
            items[entry.heading, default: []].append(
                "- [\(MarkdownText.escape(entry.title))](\(entry.link))\n")
        }
        return headings.map { "\n## \($0)\n\n" + (items[$0] ?? []).joined() }.joined()
    }

    /// The theme's home text followed by the list of chapters and exercises, linked.
    static func homeMarkdown(_ text: String, chapters: [Chapter], exercises: [SitePage], words: SiteWords)
        -> String
    {
        var out = text.hasSuffix("\n") ? text : text + "\n"
        out += "\n## \(words[.homeContents])\n\n"
        for chapter in chapters {
            let title = SitePage.firstHeading(chapter.document) ?? chapter.path
            out += "- [\(MarkdownText.escape(title))](../\(chapter.path))\n"
        }
        if !exercises.isEmpty {
            out += "\n## \(words[.homeExercises])\n\n"
            for exercise in exercises {
                out += "- [\(MarkdownText.escape(exercise.title))](../\(exercise.source))\n"
            }
        }
        return out
    }

    /// `exercises/NN-slug/README.md` for every exercise folder, its `HINTS.md` folded under a
    /// `## Hints` heading (without its own title), and the solution appended when asked for.
    /// The files are read every time; a page is made again only when what it is made of changed.
    static func loadExercises(
        _ root: URL, solutions: Bool, words: SiteWords, sourceWords: SiteWords,
        translate: (String, String) -> (String, TranslatedMarkdown?) = { ($1, nil) }
    ) -> [SitePage] {
        let folder = root.appendingPathComponent("exercises")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var pages: [SitePage] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            guard let readmeSource = Theme.read(folder.appendingPathComponent("\(name)/README.md")) else {
                continue
            }
            let (text, translation) = translate("exercises/\(name)/README.md", readmeSource)
            var inputs = ExerciseInputs(
                name: name, readmeSource: MemoText(readmeSource), readme: MemoText(text),
                readmeTranslation: ComparedOnly(translation),
                hintsHeading: words[.exerciseHints], sourceHintsHeading: sourceWords[.exerciseHints])
            if let hintsSource = Theme.read(folder.appendingPathComponent("\(name)/HINTS.md")) {
                let (hints, hintsTranslation) = translate("exercises/\(name)/HINTS.md", hintsSource)
                inputs.hints = (MemoText(hintsSource), MemoText(hints))
                inputs.hintsTranslation = ComparedOnly(hintsTranslation)
            }
            let solutionFolder = folder.appendingPathComponent("\(name)/Solution")
            if solutions, FileManager.default.fileExists(atPath: solutionFolder.path) {
                inputs.solutionWords = [words[.exerciseSolution], words[.exerciseSolutionIntro]]
                inputs.solution = Theme.files(under: solutionFolder).map { file in
                    (file, MemoText(Theme.read(solutionFolder.appendingPathComponent(file)) ?? ""))
                }
            }
            pages.append(exercisePages.value(for: inputs) { exercisePage(inputs) })
        }
        return pages
    }

    /// Each exercise's page, by what it is made of.
    private static let exercisePages = Memo<ExerciseInputs, SitePage>(capacity: 256, keeping: 4) { $0.name }

    /// What an exercise's page is made of: its task and hints as read and as translated, the
    /// headings it adds, and its solution's files when the site shows solutions.
    private struct ExerciseInputs: Hashable, Sendable {
        var name: String
        var readmeSource: MemoText
        var readme: MemoText
        var readmeTranslation: ComparedOnly<TranslatedMarkdown?>
        var hintsHeading: String
        var sourceHintsHeading: String
        var hints: (source: MemoText, text: MemoText)?
        var hintsTranslation = ComparedOnly<TranslatedMarkdown?>(nil)
        var solutionWords: [String] = []
        var solution: [(file: String, text: MemoText)] = []

        static func == (left: Self, right: Self) -> Bool {
            left.name == right.name && left.readmeSource == right.readmeSource && left.readme == right.readme
                && left.readmeTranslation == right.readmeTranslation
                && left.hintsHeading == right.hintsHeading
                && left.sourceHintsHeading == right.sourceHintsHeading
                && left.hints?.source == right.hints?.source && left.hints?.text == right.hints?.text
                && left.hintsTranslation == right.hintsTranslation
                && left.solutionWords == right.solutionWords
                && left.solution.elementsEqual(right.solution) { $0.file == $1.file && $0.text == $1.text }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(readme)
            hasher.combine(hints?.text)
            hasher.combine(solution.count)
        }
    }

    /// An exercise's page from its inputs.
    private static func exercisePage(_ inputs: ExerciseInputs) -> SitePage {
        let name = inputs.name
        var text = inputs.readme.text
        var translation = inputs.readmeTranslation.value
        // The page in the source language, whose heading ids a translated page keeps.
        var sourceText = inputs.readmeSource.text
        var appendix: SitePage.Appendix?
        if let (hintsSource, hintsText) = inputs.hints {
            let hintsTranslation = inputs.hintsTranslation.value
            // The hints file's own title and its first lines stay out: the page has a heading.
            var lines = hintsText.text.lines
            var skipped = 0
            if lines.first?.hasPrefix("# ") == true {
                lines.removeFirst()
                skipped = 1
            }
            if !text.hasSuffix("\n") { text += "\n" }
            text += "\n## \(inputs.hintsHeading)\n\n"
            appendix = SitePage.Appendix(
                source: "exercises/\(name)/HINTS.md",
                fromLine: text.lines.count,
                firstLine: skipped + 1
            )
            text += lines.joined(separator: "\n")
            if translation != nil {
                sourceText +=
                    (sourceText.hasSuffix("\n") ? "" : "\n") + "\n## \(inputs.sourceHintsHeading)\n\n"
                sourceText += hintsSource.text.lines.dropFirst(skipped).joined(separator: "\n")
            }
            if var combined = translation, let hintsTranslation, let appendix {
                // Hints line k is page line fromLine + k - firstLine.
                let shift = appendix.fromLine - appendix.firstLine
                combined.fallbackLines.formUnion(hintsTranslation.fallbackLines.map { $0 + shift })
                for (line, cells) in hintsTranslation.fallbackCells {
                    combined.fallbackCells[line + shift] = cells
                }
                combined.messages += hintsTranslation.messages
                combined.translated += hintsTranslation.translated
                translation = combined
            }
        }
        if !inputs.solutionWords.isEmpty {
            if !text.hasSuffix("\n") { text += "\n" }
            text += "\n## \(inputs.solutionWords[0])\n\n\(inputs.solutionWords[1])\n"
            for (file, content) in inputs.solution {
                let lines = content.text.split(separator: "\n", omittingEmptySubsequences: false).map(
                    String.init)
                let fence = MarkdownText.fence(for: lines)
                let language = file.hasSuffix(".swift") ? "swift" : ""
                text += "\n`Solution/\(file)`:\n\n\(fence)\(language)\n"
                text += lines.joined(separator: "\n") + (lines.last == "" ? "" : "\n") + fence + "\n"
            }
        }
        var page = SitePage(
            kind: .exercise, source: "exercises/\(name)/README.md", output: "exercises/\(name).html",
            markdown: text)
        page.appendix = appendix
        if let translation {
            page.translation = translation
            page.sourceMarkdown = sourceText
        }
        return page
    }
}

/// A value a memo's key compares but does not hash (a translation: comparing it costs little,
/// and the texts beside it in the key are hashed already).
struct ComparedOnly<Value: Equatable & Sendable>: Hashable, Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func hash(into hasher: inout Hasher) {}
}
