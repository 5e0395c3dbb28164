import BookSources
import Foundation
import Literate
import Weave

/// This book's two pages of evidence, made from its bibliography and its citations at each
/// build: `sources.html`, every source by publisher, and `this-book-decides.html`, every rule the
/// book decides itself, by area. Links written `source:KEY` lead to their entries.
///
/// ```swift
/// options.citations = { book in BookSourcePages.make(book, words: words) }   // in BookSite.configure
/// ```
package enum BookSourcePages {
    /// The pages for `book`, from `chapters/sources.json` and every citation of the book, in
    /// `words`.
    @Sendable package static func make(_ book: Book, words: SiteWords) -> CitationPages {
        let found = BookCitations.collect(book)
        let explainedIn = explainingChapter(book)
        let key = PagesKey(found: found, explainedIn: explainedIn, words: words)
        return made.value(for: key) { pages(found, explainedIn: explainedIn, words: words) }
    }

    /// The pages of the last builds, by what they are made of: a save that changed no citation
    /// takes them as they were. Compared, not hashed: an unchanged bibliography shares its
    /// storage with the previous build's.
    private static let made = RecentValues<PagesKey, CitationPages>(capacity: 4)

    private struct PagesKey: Equatable, Sendable {
        var found: BookCitations
        var explainedIn: String?
        var words: SiteWords
    }

    private static func pages(_ found: BookCitations, explainedIn: String?, words: SiteWords) -> CitationPages
    {
        let byEntry = found.byEntry
        let sources = Dictionary(grouping: found.bibliography.sources, by: \.publisher)
        let sourceGroups = publisherOrder(sources.keys).map { publisher in
            CitationPages.Group(
                title: publisher,
                entries: (sources[publisher] ?? []).sorted { $0.label < $1.label }.map { source in
                    entry(
                        key: source.key, heading: source.label, body: body(source, words: words),
                        url: source.url,
                        citations: byEntry[source.key] ?? [])
                })
        }
        var byArea: [Area: [Bibliography.Decision]] = [:]
        for decision in found.bibliography.decisions {
            let first = byEntry[decision.key]?.first?.location.path
            byArea[first.map(area) ?? .tooling, default: []].append(decision)
        }
        let decisionGroups = Area.allCases.compactMap { area -> CitationPages.Group? in
            guard let decisions = byArea[area] else { return nil }
            return CitationPages.Group(
                title: words[area.title],
                entries: decisions.sorted { $0.label < $1.label }.map { decision in
                    entry(
                        key: decision.key, heading: decision.label, body: decision.reason, url: nil,
                        citations: byEntry[decision.key] ?? [])
                })
        }
        // Problems of the bibliography show on the site; unknown labels in tests are left to
        // `workbook check`, and unknown keys in prose are broken links of the build.
        var problems = found.diagnostics.filter {
            $0.location?.path == Bibliography.path && $0.severity == .error
        }
        if let missing = BookSite.missingWords(words) { problems.append(missing) }
        return CitationPages(
            scheme: "source",
            pages: [
                CitationPages.Page(
                    file: "sources.md", kind: "sources", title: words[.sourcesTitle],
                    introduction: sourcesIntroduction(explainedIn: explainedIn, words: words),
                    groups: sourceGroups, homeHeading: words[.homeEvidence]),
                CitationPages.Page(
                    file: "this-book-decides.md", kind: "decisions", title: words[.decisionsTitle],
                    introduction: words[.decisionsIntroduction], groups: decisionGroups,
                    homeHeading: words[.homeEvidence]),
            ],
            diagnostics: problems)
    }

    /// An entry cited by `citations`: those in the site's Markdown are placed on their pages,
    /// the others (test files, code) listed as `path:line`.
    private static func entry(key: String, heading: String, body: String, url: String?, citations: [Citation])
        -> CitationPages.Entry
    {
        var onPages: [(page: String, line: Int)] = []
        var elsewhere: [String] = []
        for citation in citations where citation.form == .label {
            let path = citation.location.path
            if path.hasSuffix(".md") {
                onPages.append((path, citation.location.line))
            } else {
                elsewhere.append("\(path):\(citation.location.line)")
            }
        }
        return CitationPages.Entry(
            key: key, heading: heading, body: body, url: url, citedOnPages: onPages, citedElsewhere: elsewhere
        )
    }

    /// A source's description: its title, publisher and where to read it.
    private static func body(_ source: Bibliography.Source, words: SiteWords) -> String {
        var values = [
            "title": MarkdownText.escape(source.title), "publisher": MarkdownText.escape(source.publisher),
        ]
        guard let url = source.url else { return words.format(.sourcesEntryNoCopy, values) }
        let shown = HTML.escape(url)
        values["link"] = "<a href=\"\(shown)\" target=\"_blank\" rel=\"noopener\">\(shown)</a>"
        values["date"] = source.read
        return words.format(.sourcesEntry, values)
    }

    /// Li2 first (the system the book teaches), then the platforms, then standards, then the rest
    /// alphabetically, practitioners last, and the documents with no public copy after them.
    static func publisherOrder(_ publishers: Dictionary<String, [Bibliography.Source]>.Keys) -> [String] {
        let preferred = [
            "Li2", "Apple", "Android", "AOSP", "Google Play", "Google", "Firebase", "IETF", "WHATWG",
        ]
        func rank(_ publisher: String) -> Int {
            publisher.hasPrefix("Practitioner") ? 1 : publisher.hasPrefix("Source material") ? 2 : 0
        }
        let rest = publishers.filter { !preferred.contains($0) }.sorted {
            (rank($0), $0) < (rank($1), $1)
        }
        return preferred.filter { publishers.contains($0) } + rest
    }

    /// The areas of "What this book decides", from where a decision is first cited.
    enum Area: CaseIterable {
        case sdk, mockServer, matchers, tooling

        /// The area's heading.
        var title: BookWord {
            switch self {
            case .sdk: .decisionsAreaSDK
            case .mockServer: .decisionsAreaMockServer
            case .matchers: .decisionsAreaMatchers
            case .tooling: .decisionsAreaTooling
            }
        }
    }

    /// The area of a file of the book: a chapter by its number, a test or source file by its module.
    static func area(_ path: String) -> Area {
        let parts = path.split(separator: "/").map(String.init)
        if parts.first == "chapters", let name = parts.last, let number = Int(name.prefix(2)) {
            switch number {
            case 5, 6, 7, 9, 10, 18, 19, 20, 22, 23: return .sdk
            case 8, 21: return .mockServer
            case 1, 2, 3, 4, 14, 15, 16, 17: return .matchers
            default: return .tooling
            }
        }
        let module = parts.count > 1 ? parts[1] : ""
        let sdk = [
            "Li2SDK", "Li2SDKTests", "Li2SDKAPITests", "Li2JourneyTests", "Simulator", "SimulatorTests",
        ]
        let server = [
            "MockServer", "MockServerTests", "MockServerTesting", "AttributionService",
            "AttributionServiceTests",
            "HTTPCore", "HTTPCoreTests", "HTTPDemoApp", "MicroHTTPDServer", "MicroHTTPDServerTests",
            "EventLog",
            "EventLogTests",
        ]
        let matchers = ["DeepLinkCore", "DeepLinkCoreTests", "Doctor", "DoctorTests"]
        if parts.first == "Examples" || sdk.contains(module) { return .sdk }
        if server.contains(module) { return .mockServer }
        if matchers.contains(module) { return .matchers }
        return .tooling
    }

    /// The heading of the section that explains how citations are written.
    static let explainingHeading = "Sources and citations"

    /// The chapter with that section, if the book has one.
    static func explainingChapter(_ book: Book) -> String? {
        let line = "\n## \(explainingHeading)\n"
        return book.chapters.first { $0.source.containsBytes(line) }?.path
    }

    static func sourcesIntroduction(explainedIn chapter: String?, words: SiteWords) -> String {
        var text = words[.sourcesIntroduction]
        if let chapter {
            text +=
                " "
                + words.format(
                    .sourcesHowLabels,
                    ["heading": explainingHeading, "link": "\(chapter)#sources-and-citations"])
        }
        return text
    }
}
