import Foundation
import Literate

/// Pages that list what a book cites — a bibliography, say, or a list of the book's own
/// decisions — and the links that cite their entries.
///
/// A link written `SCHEME:KEY` (`[Apple: Supporting associated domains](source:apple-x)`) leads
/// to entry `KEY` on the page that lists it, carries the entry's URL for the print page, and is
/// checked like any link: an unknown key is a broken link at its place. Each entry lists the
/// sections of the site that cite it, found by the build, and the places outside the site the
/// book names (a test file's line, as text).
///
/// The generator knows nothing of a book's bibliography: the book reads its own files and hands
/// the pages over for each build (``SiteOptions/citations``).
///
/// ```swift
/// options.citations = { book in
///     CitationPages(scheme: "source", pages: [
///         .init(file: "sources.md", kind: "sources", title: "Sources", introduction: "Every source.",
///               groups: [.init(title: "Apple", entries: [
///                   .init(key: "apple-x", heading: "Apple: X", body: "*X*, Apple.",
///                         url: "https://developer.apple.com/x")])])
///     ])
/// }
/// ```
public struct CitationPages: Sendable {
    /// Links written `SCHEME:KEY` cite an entry.
    public var scheme: String
    public var pages: [Page]
    /// What went wrong making the pages (an unreadable bibliography), reported with the build's.
    public var diagnostics: [Diagnostic]

    public init(scheme: String, pages: [Page], diagnostics: [Diagnostic] = []) {
        (self.scheme, self.pages, self.diagnostics) = (scheme, pages, diagnostics)
    }

    /// One page of entries, written at the site's root.
    public struct Page: Sendable, Equatable {
        /// The page's virtual Markdown name at the book's root (`sources.md` gives `sources.html`);
        /// chapters link it as `../sources.md`.
        public var file: String
        /// The page's kind in the template (`{{page-kind}}`).
        public var kind: String
        public var title: String
        /// Markdown under the title.
        public var introduction: String
        public var groups: [Group]
        /// The heading of the home page's section that links the page; nil lists it in the
        /// navigation only.
        public var homeHeading: String?

        public init(
            file: String, kind: String, title: String, introduction: String, groups: [Group],
            homeHeading: String? = nil
        ) {
            (self.file, self.kind, self.title, self.introduction, self.groups, self.homeHeading) = (
                file, kind, title, introduction, groups, homeHeading
            )
        }
    }

    /// A titled group of entries (a publisher, an area).
    public struct Group: Sendable, Equatable {
        public var title: String
        public var entries: [Entry]

        public init(title: String, entries: [Entry]) { (self.title, self.entries) = (title, entries) }
    }

    /// One entry, which links name by its key.
    public struct Entry: Sendable, Equatable {
        public var key: String
        /// The entry's heading: the label readers see in the text.
        public var heading: String
        /// Markdown under the heading: the title, the publisher, a link out, a reason.
        public var body: String
        /// The source's address, shown after each citation on the print page; nil for none.
        public var url: String?
        /// Places on the site's pages that cite the entry other than by a link (a test case in a
        /// code block): a page's Markdown source, book-relative, and a line of it.
        public var citedOnPages: [(page: String, line: Int)]
        /// Places outside the site that cite the entry, shown as text (`Tests/X.swift:12`).
        public var citedElsewhere: [String]

        public init(
            key: String, heading: String, body: String, url: String? = nil,
            citedOnPages: [(page: String, line: Int)] = [], citedElsewhere: [String] = []
        ) {
            (self.key, self.heading, self.body, self.url, self.citedOnPages, self.citedElsewhere) = (
                key, heading, body, url, citedOnPages, citedElsewhere
            )
        }

        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.key, lhs.heading, lhs.body, lhs.url, lhs.citedElsewhere)
                == (rhs.key, rhs.heading, rhs.body, rhs.url, rhs.citedElsewhere)
                && lhs.citedOnPages.elementsEqual(rhs.citedOnPages) { $0 == $1 }
        }
    }

    /// `chapters/03-x.md` cites through `source:KEY`: the key, or nil for any other link.
    func key(of destination: String) -> String? {
        guard destination.hasPrefix(scheme + ":") else { return nil }
        return String(destination.dropFirst(scheme.count + 1))
    }

    /// Each entry's page (its virtual Markdown name) and URL, by key.
    var targets: [String: (page: String, url: String?)] {
        var targets: [String: (page: String, url: String?)] = [:]
        for page in pages {
            for entry in page.groups.flatMap(\.entries) where targets[entry.key] == nil {
                targets[entry.key] = (page.file, entry.url)
            }
        }
        return targets
    }

    /// A section of the site that cites an entry: the page and the heading above the link.
    struct CitingSection: Sendable, Equatable {
        var source: String
        var anchor: String?
        var text: String
    }

    private struct SectionPlace: Hashable {
        var page: String
        var heading: Int?
    }

    /// Where each entry is cited on `pages`, in site order, one mention per section: by its
    /// links, then by the places each entry names (``Entry/citedOnPages``).
    func citingSections(_ pages: [SitePage]) -> [String: [CitingSection]] {
        var cited: [String: [(page: String, line: Int)]] = [:]
        for page in pages {
            for link in page.links {
                if let key = key(of: link.destination) {
                    cited[key, default: []].append((page.source, link.line))
                }
            }
        }
        for entry in self.pages.flatMap({ $0.groups.flatMap(\.entries) }) {
            cited[entry.key, default: []] += entry.citedOnPages
        }
        // Pages by their place, not copied: a page is a large value.
        let order = Dictionary(
            pages.enumerated().map { ($1.source, $0) }, uniquingKeysWith: { first, _ in first })
        var sections: [String: [CitingSection]] = [:]
        for (key, places) in cited {
            let sorted = places.sorted {
                (order[$0.page] ?? .max, $0.line) < (order[$1.page] ?? .max, $1.line)
            }
            // A section once: a page's section is its heading (ids are unique on a page), or the
            // page itself above its first one.
            var seen: Set<SectionPlace> = []
            for place in sorted {
                guard let index = order[place.page] else { continue }
                let page = pages[index]
                let heading = page.headings.lastIndex { $0.line <= place.line && $0.level > 1 }
                guard seen.insert(SectionPlace(page: place.page, heading: heading)).inserted else { continue }
                let number = page.number.map { "\($0). " } ?? ""
                let title = heading.map { " › " + page.headings[$0].title } ?? ""
                sections[key, default: []].append(
                    CitingSection(
                        source: page.source, anchor: heading.map { page.headings[$0].id },
                        text: number + page.title + title))
            }
        }
        return sections
    }

    /// The page's Markdown: its groups as second-level headings, each entry as a third-level
    /// heading whose id is its key (written as HTML, so that no slug of its text can take the
    /// same id), its body, and where it is cited.
    static func markdown(_ page: Page, citedIn: [String: [CitingSection]], words: SiteWords) -> String {
        var out = "# \(MarkdownText.escape(page.title))\n\n"
        if !page.introduction.isEmpty { out += MarkdownText.trimmingNewlines(page.introduction) + "\n\n" }
        for group in page.groups where !group.entries.isEmpty {
            out += "## \(MarkdownText.escape(group.title))\n\n"
            for entry in group.entries {
                let id = HTML.escape(entry.key)
                out += "<h3 class=\"citation-entry\" id=\"\(id)\">\(HTML.escape(entry.heading))"
                out += "<a class=\"heading-anchor\" href=\"#\(id)\" aria-label=\""
                out += HTML.escape(words[.citationsEntryLink]) + "\">#</a></h3>\n\n"
                if !entry.body.isEmpty { out += MarkdownText.trimmingNewlines(entry.body) + "\n\n" }
                var places = (citedIn[entry.key] ?? []).map { section in
                    let target = section.source + (section.anchor.map { "#" + $0 } ?? "")
                    return "[\(MarkdownText.escape(section.text))](\(target))"
                }
                places += entry.citedElsewhere.map(MarkdownText.code)
                out +=
                    places.isEmpty
                    ? MarkdownText.escape(words[.citationsCitedNowhere]) + "\n\n"
                    : words.markdown(.citationsCitedIn, ["places": places.joined(separator: ", ")]) + "\n\n"
            }
        }
        return out
    }
}
