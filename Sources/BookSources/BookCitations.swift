import FileStamps
import Foundation
import Literate

/// The book's citations, found in its files and resolved against its bibliography: what
/// `workbook check` reports, and what the Sources page and "What this book decides" list.
///
/// ```swift
/// let book = try Book.load(root: root, inlines: false)
/// let found = BookCitations.collect(book)
/// found.diagnostics   // chapters/03-universal-links.md:46:12: error: unknown source key 'apple-x' ...
/// found.summary       // "sources: 180 entries (140 sources, 40 decisions), 900 citations, ..."
/// ```
public struct BookCitations: Sendable, Equatable {
    /// A citation and what it names; nil for one that names nothing.
    public struct Resolved: Sendable, Equatable {
        public var citation: Citation
        public var target: Target?
    }

    /// What a citation names.
    public enum Target: Sendable, Equatable {
        case entry(Bibliography.Entry)
        /// A chapter (its path), and a heading of it when the cross-reference names one.
        case crossReference(chapter: String, section: String?)
    }

    public var bibliography: Bibliography
    /// In book order: the chapters in reading order, the exercises, the theme's pages, then the
    /// Swift files by path.
    public var citations: [Resolved]
    /// Errors at each citation that names nothing and at each problem of the bibliography;
    /// warnings for entries cited nowhere and attributions left without their link.
    public var diagnostics: [Diagnostic]

    /// Where the book's Swift test files live, relative to the book: every `source:` string in them
    /// is a citation. Generated files are skipped (their chapters are read instead), and so are
    /// `Fixtures` folders (books and files made for tests).
    public static let testFolders = ["Tests", "exercises"]
    /// Hand-written code, whose comments may cite.
    public static let codeFolders = ["Sources", "Examples"]

    /// Finds and resolves every citation of `book` and the files around it. The files are read
    /// every time; what they hold is scanned and resolved again only when one of them changed
    /// (the live site asks on every save, once for each language).
    public static func collect(_ book: Book) -> BookCitations {
        let inputs = Inputs.read(book)
        return collected.value(for: inputs) { resolve(inputs, documents: book.chapters.map(\.document)) }
    }

    private static let collected = Memo<Inputs, BookCitations>(capacity: 4)
    /// The bibliography, parsed again only when its bytes changed.
    private static let parsedBibliographies = Memo<Data, (Bibliography, [Diagnostic])>(capacity: 4)
    /// The citations of each file other than the chapters, by the file's stamp.
    private static let scannedFiles = StampedScans()

    /// Every file the citations are read from: the chapters with their text (read already), the
    /// other files with their stamps (read only when one changed).
    fileprivate struct Inputs: Hashable, Sendable {
        struct File: Hashable, Sendable {
            var path: String
            var stamp: FileStamp?
            var commentsOnly = false
        }

        var root: URL
        var chapters: [String]
        var texts: [MemoText]
        var bibliography: File
        var markdown: [File]
        var swift: [File]

        static func read(_ book: Book) -> Inputs {
            let root = book.root
            func file(_ path: String, commentsOnly: Bool = false) -> File {
                File(
                    path: path, stamp: FileStamp.of(root.appendingPathComponent(path).path),
                    commentsOnly: commentsOnly)
            }
            return Inputs(
                root: root, chapters: book.chapters.map(\.path),
                texts: book.chapters.map { MemoText($0.source) },
                bibliography: file(Bibliography.path), markdown: otherMarkdown(root).map { file($0) },
                swift: testFolders.flatMap {
                    swiftFiles(root, under: $0).map { File(path: $0.path, stamp: $0.stamp) }
                }
                    + codeFolders.flatMap {
                        swiftFiles(root, under: $0).map {
                            File(path: $0.path, stamp: $0.stamp, commentsOnly: true)
                        }
                    }
            )
        }

        /// A file's text; nil when it cannot be read, or (`strict`) is not UTF-8.
        func text(_ file: File, strict: Bool = false) -> String? {
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(file.path).path)
            else { return nil }
            return strict ? String(data: data, encoding: .utf8) : String(decoding: data, as: UTF8.self)
        }
    }

    private static func resolve(_ inputs: Inputs, documents: [MarkdownNode]) -> BookCitations {
        let (bibliography, bibliographyProblems): (Bibliography, [Diagnostic])
        let url = inputs.root.appendingPathComponent(Bibliography.path)
        if !FileManager.default.fileExists(atPath: url.path) {
            (bibliography, bibliographyProblems) = (Bibliography(), [])
        } else if let data = FileManager.default.contents(atPath: url.path) {
            (bibliography, bibliographyProblems) = parsedBibliographies.value(for: data) {
                Bibliography.parse(data, path: Bibliography.path)
            }
        } else {
            (bibliography, bibliographyProblems) = (
                Bibliography(),
                [
                    .init(
                        .error, text: SourceMessage.unreadable.text,
                        at: .init(path: Bibliography.path, line: 1))
                ]
            )
        }
        var citations: [Citation] = []
        var unlinked: [Citation] = []
        var headings: [String: [String]] = [:]
        var chapterByNumber: [String: String] = [:]
        let chapters = Array(zip(zip(inputs.chapters, inputs.texts), documents))
        let markdown = ConcurrentMap.map(chapters) { chapter, document in
            CitationScanner.markdown(path: chapter.0, source: chapter.1.text, document: document)
        }
        for (path, found) in zip(inputs.chapters, markdown) {
            citations += found.citations
            unlinked += found.unlinked
            headings[path] = found.headings
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let digits = name.prefix { $0.isNumber }
            if digits.count == 2 { chapterByNumber[String(digits)] = path }
        }
        // A file is read only when its stamp changed: a save reads one file, not every Swift
        // file of the book.
        let root = inputs.root.path
        for file in inputs.markdown {
            let found = scannedFiles.value(root: root, file: file) {
                guard let text = inputs.text(file, strict: true) else { return ([], []) }
                let found = CitationScanner.markdown(path: file.path, source: text, document: nil)
                return (found.citations, found.unlinked)
            }
            citations += found.citations
            unlinked += found.unlinked
        }
        citations += ConcurrentMap.map(inputs.swift) { file -> [Citation] in
            scannedFiles.value(root: root, file: file) {
                guard let text = inputs.text(file), !isGenerated(text) else { return ([], []) }
                return (
                    CitationScanner.swift(path: file.path, text: text, commentsOnly: file.commentsOnly), []
                )
            }.citations
        }.flatMap { $0 }

        var resolver = Resolver(
            bibliography: bibliography, headings: headings, chapterByNumber: chapterByNumber)
        var resolved: [Resolved] = []
        var diagnostics = bibliographyProblems
        for citation in citations {
            switch resolver.resolve(citation) {
            case .success(let target): resolved.append(Resolved(citation: citation, target: target))
            case .failure(let message):
                resolved.append(Resolved(citation: citation, target: nil))
                diagnostics.append(Diagnostic(.error, text: message.text, at: citation.location))
            }
        }
        let cited = Set(
            resolved.compactMap {
                $0.target.flatMap { if case .entry(let entry) = $0 { entry.key } else { nil } }
            })
        for entry in bibliography.entries where !cited.contains(entry.key) {
            diagnostics.append(
                Diagnostic(.warning, text: SourceMessage.uncited(entry.key).text, at: entry.location))
        }
        for attribution in unlinked {
            diagnostics.append(
                Diagnostic(
                    .warning, text: SourceMessage.unlinkedAttribution(attribution.text).text,
                    at: attribution.location))
        }
        return BookCitations(
            bibliography: bibliography, citations: resolved,
            diagnostics: diagnostics.sorted(by: Diagnostic.bookOrder))
    }

    /// The citations of each entry, by key, in book order.
    public var byEntry: [String: [Citation]] {
        var byEntry: [String: [Citation]] = [:]
        for item in citations {
            if case .entry(let entry)? = item.target { byEntry[entry.key, default: []].append(item.citation) }
        }
        return byEntry
    }

    /// One line of counts: `sources: 180 entries (140 sources, 40 decisions), 900 citations (400
    /// links, 450 labels, 300 of them cross-references), 0 unknown, 2 cited nowhere`; nil for a
    /// book with neither a bibliography nor a citation.
    public var summary: String? {
        guard !bibliography.entries.isEmpty || !citations.isEmpty else { return nil }
        let links = citations.filter { $0.citation.form == .link }.count
        let crossReferences = citations.filter {
            if case .crossReference? = $0.target { true } else { false }
        }.count
        let unknown = citations.filter { $0.target == nil }.count
        let cited = Set(byEntry.keys)
        let uncited = bibliography.entries.filter { !cited.contains($0.key) }.count
        return "sources: \(bibliography.entries.count) entries (\(bibliography.sources.count) sources, "
            + "\(bibliography.decisions.count) decisions), \(citations.count) citations (\(links) links, "
            + "\(citations.count - links) labels, \(crossReferences) of them cross-references), "
            + "\(unknown) unknown, \(uncited) cited nowhere"
    }

    /// The Markdown files of the site besides the chapters: each exercise's task and hints, and
    /// the theme's pages.
    static func otherMarkdown(_ root: URL) -> [String] {
        var paths: [String] = []
        let manager = FileManager.default
        let exercises =
            (try? manager.contentsOfDirectory(atPath: root.appendingPathComponent("exercises").path)) ?? []
        for name in exercises.sorted() where !name.hasPrefix(".") {
            for file in ["README.md", "HINTS.md"] {
                let path = "exercises/\(name)/\(file)"
                if manager.fileExists(atPath: root.appendingPathComponent(path).path) { paths.append(path) }
            }
        }
        let site = (try? manager.contentsOfDirectory(atPath: root.appendingPathComponent("site").path)) ?? []
        paths += site.sorted().filter { $0.hasSuffix(".md") && !$0.hasPrefix(".") }.map { "site/" + $0 }
        return paths
    }

    /// The `.swift` files under `folder`, relative to the book, sorted by path, with their
    /// stamps; `Fixtures`, `Work` and hidden folders (`.build`) are skipped.
    static func swiftFiles(_ root: URL, under folder: String) -> [(path: String, stamp: FileStamp)] {
        FolderEntries.files(root: root.path, folders: [folder], skips: { $0 == "Fixtures" || $0 == "Work" })
            .filter { $0.path.hasSuffix(".swift") }.sorted { $0.path < $1.path }
    }

    /// A file the tangler wrote: its chapters are read instead.
    static func isGenerated(_ text: String) -> Bool {
        text.prefix(400).contains("Generated by `workbook tangle`")
    }
}

/// What each file other than the chapters held, with the stamp the file had when it was read:
/// one version of each file, replaced when its stamp changes. A file without a stamp (it could
/// not be looked at) is read every time. Off with the other memos (``Memos/isEnabled``).
private final class StampedScans: @unchecked Sendable {
    typealias Found = (citations: [Citation], unlinked: [Citation])

    /// Books kept at once (a test process builds many): past this, all are dropped.
    static let bookLimit = 8
    private let lock = NSLock()
    private var books: [String: [String: (file: BookCitations.Inputs.File, found: Found)]] = [:]

    func value(root: String, file: BookCitations.Inputs.File, _ scan: () -> Found) -> Found {
        guard file.stamp != nil, Memos.isEnabled else { return scan() }
        if let kept = lock.withLock({ books[root]?[file.path] }), kept.file == file { return kept.found }
        let found = scan()
        lock.withLock {
            if books[root] == nil, books.count >= Self.bookLimit { books = [:] }
            books[root, default: [:]][file.path] = (file, found)
        }
        return found
    }
}

/// Resolves citations against the bibliography and the chapters' headings.
private struct Resolver {
    let bibliography: Bibliography
    let headings: [String: [String]]
    let chapterByNumber: [String: String]
    private var keys: [String] = []
    private var labels: [String] = []

    init(bibliography: Bibliography, headings: [String: [String]], chapterByNumber: [String: String]) {
        (self.bibliography, self.headings, self.chapterByNumber) = (bibliography, headings, chapterByNumber)
    }

    static let crossReferencePrefix = "this book: chapter"

    mutating func resolve(_ citation: Citation) -> Result<BookCitations.Target, SourceMessage> {
        let text = citation.text
        switch citation.form {
        case .link:
            if let entry = bibliography.entry(text), entry.key == text { return .success(.entry(entry)) }
            if keys.isEmpty { keys = bibliography.entries.map(\.key) }
            return .failure(.unknownKey(text, suggestion: Suggestion.closest(to: text, among: keys)))
        case .label:
            if let entry = bibliography.entry(text) { return .success(.entry(entry)) }
            if text.hasPrefix(Self.crossReferencePrefix) { return crossReference(text) }
            if labels.isEmpty { labels = bibliography.entries.map(\.label) }
            return .failure(.unknownLabel(text, suggestion: Suggestion.closest(to: text, among: labels)))
        }
    }

    /// `this book: chapter NN` or `this book: chapter NN, Section`.
    private func crossReference(_ text: String) -> Result<BookCitations.Target, SourceMessage> {
        let rest = text.dropFirst(Self.crossReferencePrefix.count)
        guard rest.first == " " else { return .failure(.malformedCrossReference(text)) }
        let body = rest.dropFirst()
        let number = body.prefix { $0.isNumber }
        let after = body.dropFirst(number.count)
        guard number.count == 2, after.isEmpty || after.hasPrefix(", ") else {
            return .failure(.malformedCrossReference(text))
        }
        guard let chapter = chapterByNumber[String(number)] else {
            return .failure(.noSuchChapter(String(number)))
        }
        guard !after.isEmpty else { return .success(.crossReference(chapter: chapter, section: nil)) }
        let section = String(after.dropFirst(2))
        let titles = headings[chapter] ?? []
        guard titles.contains(section) else {
            return .failure(
                .noSuchSection(
                    chapter: chapter, section: section,
                    suggestion: Suggestion.closest(to: section, among: titles)))
        }
        return .success(.crossReference(chapter: chapter, section: section))
    }
}

/// The nearest of some names to a misspelt one, for "did you mean" hints.
enum Suggestion {
    /// The candidate with the fewest edits from `text`, if the edits are few next to its length.
    static func closest(to text: String, among candidates: [String]) -> String? {
        let source = Array(text.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(
                source, Array(candidate.lowercased()), limit: best?.distance ?? Int.max)
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        guard let best, best.distance <= max(2, source.count / 3) else { return nil }
        return best.name
    }

    /// Levenshtein distance, giving up (returning `limit`) once every path exceeds `limit`.
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if abs(a.count - b.count) >= limit { return limit }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum >= limit { return limit }
            swap(&previous, &current)
        }
        return a.isEmpty ? b.count : (b.isEmpty ? a.count : previous[b.count])
    }
}
