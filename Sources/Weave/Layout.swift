import Literate

/// The navigation around a page's content: the sidebar, the in-page table of contents and the
/// previous/next links. Small fragments of markup; the page's frame is the theme's template.
struct Layout: Sendable, Equatable {
    struct NavItem: Sendable, Equatable {
        var output: String
        var title: String
        var number: Int?
        /// A chapter's estimated reading time.
        var minutes: Int? = nil
    }

    /// A titled group of the sidebar: a part of the book (or "Chapters" for a book without parts).
    struct Group: Sendable, Equatable {
        var title: String
        var items: [NavItem]
        /// The heading's id; nil makes one of the title (`nav-` and its slug).
        var id: String? = nil
    }

    /// The chapters, by part.
    var chapters: [Group]
    var exercises: [NavItem]
    var reference: [NavItem]
    /// Home, chapters, then exercises: the order of previous/next.
    var readingOrder: [NavItem]
    /// The words of the navigation.
    var words: SiteWords

    /// The sidebar for `page`, with the current page marked for assistive technology.
    func sidebar(for page: String, root: String) -> [UInt8] {
        var html = HTMLWriter(capacity: 4096)
        for group in chapters {
            section(group, ordered: true, current: page, root: root, into: &html)
        }
        if !exercises.isEmpty {
            section(
                Group(title: words[.navExercises], items: exercises, id: "nav-exercises"), ordered: true,
                current: page, root: root, into: &html)
        }
        section(
            Group(title: words[.navReference], items: reference, id: "nav-reference"), ordered: false,
            current: page, root: root, into: &html)
        return html.bytes
    }

    private func section(
        _ group: Group, ordered: Bool, current: String, root: String, into html: inout HTMLWriter
    ) {
        let (title, items) = (group.title, group.items)
        // The theme's own groups keep their ids in every language; a part's id is its title's.
        let id = group.id ?? "nav-" + Slugger.slug(title)
        html.raw("<h2 class=\"nav-heading\" id=\"\(id)\">")
        html.text(title)
        html.raw("</h2>\n<ul class=\"nav-list\" aria-labelledby=\"\(id)\">\n")
        for item in items {
            html.raw("<li><a href=\"")
            html.url(root + item.output)
            html.raw(item.output == current ? "\" aria-current=\"page\">" : "\">")
            if ordered, let number = item.number {
                html.raw("<span class=\"nav-number\">\(number)</span> ")
            }
            html.text(item.title)
            if let minutes = item.minutes {
                html.raw(" <span class=\"nav-minutes\">")
                html.text(words.format(.navMinutes, ["minutes": String(minutes)]))
                html.raw("</span>")
            }
            html.raw("</a></li>\n")
        }
        html.raw("</ul>\n")
    }

    /// The headings of levels 2 and 3, linked.
    func toc(_ headings: [HeadingAnchor], idPrefix: String = "") -> [UInt8] {
        let entries = headings.filter { $0.level == 2 || $0.level == 3 }
        guard !entries.isEmpty else { return [] }
        var html = HTMLWriter(capacity: 2048)
        html.raw("<h2 class=\"toc-title\" id=\"toc-title\">")
        html.text(words[.tocTitle])
        html.raw("</h2>\n<ul class=\"toc-list\">\n")
        for heading in entries {
            html.raw("<li class=\"toc-level-\(heading.level)\"><a href=\"#")
            html.url(idPrefix + heading.id)
            html.raw("\">")
            html.text(heading.title)
            html.raw("</a></li>\n")
        }
        html.raw("</ul>\n")
        return html.bytes
    }

    /// Previous and next in reading order; empty for pages outside it.
    func pager(for page: String, root: String) -> [UInt8] {
        guard let index = readingOrder.firstIndex(where: { $0.output == page }) else { return [] }
        var html = HTMLWriter(capacity: 512)
        html.raw("<nav class=\"pager\" aria-label=\"")
        html.text(words[.pagerLabel])
        html.raw("\">\n")
        if index > 0 {
            link(readingOrder[index - 1], rel: "prev", label: words[.pagerPrevious], root: root, into: &html)
        }
        if index + 1 < readingOrder.count {
            link(readingOrder[index + 1], rel: "next", label: words[.pagerNext], root: root, into: &html)
        }
        html.raw("</nav>\n")
        return html.bytes
    }

    private func link(_ item: NavItem, rel: String, label: String, root: String, into html: inout HTMLWriter)
    {
        html.raw("<a class=\"pager-\(rel)\" rel=\"\(rel)\" href=\"")
        html.url(root + item.output)
        html.raw("\"><span class=\"pager-label\">")
        html.text(label)
        html.raw("</span> <span class=\"pager-title\">")
        html.text(item.title)
        html.raw("</span></a>\n")
    }
}

extension Layout {
    /// The navigation of a site with these pages: the chapters by the summary's parts (one
    /// untitled group without a summary), the exercises, then the reference pages — the theme's
    /// own, the glossary, the snippet index, the API reference, the print page.
    init(_ pages: [SitePage], parts: [Book.Part], words: SiteWords) {
        func item(_ page: SitePage) -> NavItem {
            NavItem(output: page.output, title: page.title, number: page.number, minutes: page.readingMinutes)
        }
        let chapterPages = pages.filter { $0.kind == .chapter }
        let chapters = chapterPages.map(item)
        let bySource = Dictionary(
            chapterPages.map { ($0.source, item($0)) }, uniquingKeysWith: { first, _ in first })
        let chapterGroups =
            parts.isEmpty
            ? [Group(title: words[.navChapters], items: chapters, id: "nav-chapters")]
            : parts.map { part in
                Group(title: part.title, items: part.chapters.compactMap { bySource[$0] })
            }
        let exercises = pages.filter { $0.kind == .exercise }.map(item)
        var reference = pages.filter { if case .theme = $0.kind { true } else { false } }.map(item)
        for kind in [SitePage.Kind.glossary, .snippets, .api] {
            if let page = pages.first(where: { $0.kind == kind }) { reference.append(item(page)) }
        }
        reference += pages.filter { if case .citations = $0.kind { true } else { false } }.map(item)
        reference.append(NavItem(output: "print.html", title: words[.navPrint]))
        let home = pages.first { $0.kind == .home }.map { [item($0)] } ?? []
        self.init(
            chapters: chapterGroups, exercises: exercises, reference: reference,
            readingOrder: home + chapters + exercises, words: words)
    }
}
