import Literate

/// The Markdown of the pages the builder writes itself.
enum GeneratedPages {
    /// One row of the snippet index: a block, where it stands and what proves it.
    struct SnippetRow: Sendable, Equatable {
        var block: CodeBlock
        var chapterTitle: String
        var chapterNumber: Int?
        var anchor: String
        var files: [String]
        var badge: Badge
    }

    /// The glossary: the theme's terms in alphabetical order, each with the sections that
    /// explain it. `explainedIn` holds, per term, the checked links with their link texts.
    static func glossary(
        _ glossary: Glossary, explainedIn: [String: [(text: String, link: String)]], words: SiteWords
    ) -> String {
        var out = "# \(words.markdown(.glossaryTitle))\n\n"
        if !glossary.intro.isEmpty { out += glossary.intro + "\n\n" }
        let terms = glossary.terms.sorted { $0.term.lowercased() < $1.term.lowercased() }
        for term in terms {
            out += "## \(MarkdownText.escape(term.term))\n\n"
            if let aliases = term.aliases, !aliases.isEmpty {
                out +=
                    "*\(words.markdown(.glossaryAlso))* "
                    + aliases.map { MarkdownText.code($0) }.joined(separator: ", ") + "\n\n"
            }
            out += term.definition + "\n\n"
            let links = explainedIn[term.term] ?? []
            if !links.isEmpty {
                let list = links.map { "[\(MarkdownText.escape($0.text))](\($0.link))" }
                out += words.markdown(.glossaryExplainedIn, ["links": list.joined(separator: "; ")]) + "\n\n"
            }
        }
        return out
    }

    /// The snippet index: every tangled block with its files, module and status, then every
    /// other snippet. `coverage` names the data used for "tested", or nil when none was found.
    ///
    /// The prose is Markdown; the two tables are raw HTML blocks written here, because a big
    /// book has thousands of rows and their links point at anchors the builder made itself.
    static func snippetIndex(tangled: [SnippetRow], others: [SnippetRow], coverage: String?, words: SiteWords)
        -> String
    {
        var out = "# \(words.markdown(.snippetsTitle))\n\n"
        out += words.markdown(.snippetsIntro) + "\n\n"
        var counts: [String: Int] = [:]
        for row in tangled + others { counts[row.badge.key, default: 0] += 1 }
        let known: [(key: String, word: WeaveWord)] = [
            ("tested", .snippetsStatusTested), ("compiled", .snippetsStatusCompiled),
            ("tangled", .snippetsStatusTangled), ("parse-checked", .snippetsStatusParseChecked),
            ("checked", .snippetsStatusChecked), ("failed", .snippetsStatusFailed),
            ("unused", .snippetsStatusUnused), ("display-only", .snippetsStatusDisplayOnly),
        ]
        let summary = known.compactMap { status in
            counts[status.key].map { words.format(status.word, ["count": String($0)]) }
        }
        out += words.markdown(
            .snippetsByStatus, ["counts": MarkdownText.escape(summary.joined(separator: ", "))])
        out += "\n\n"
        if let coverage {
            out += words.markdown(.snippetsCoverage, ["file": coverage]) + "\n\n"
        } else {
            out += words.markdown(.snippetsNoCoverage) + "\n\n"
        }
        var badges: [Badge: String] = [:]
        var html = HTMLWriter(capacity: 256 * (tangled.count + others.count))
        func badge(_ value: Badge) {
            if badges[value] == nil { badges[value] = Self.badge(value, words: words) }
            html.raw(badges[value] ?? "")
        }
        func header(_ columns: [WeaveWord]) {
            for column in columns {
                html.raw("<th>")
                html.text(words[column])
                html.raw("</th>\n")
            }
        }
        func cell(_ write: () -> Void) {
            html.raw("<td>")
            write()
            html.raw("</td>\n")
        }
        func link(_ row: SnippetRow, _ label: String) {
            html.raw("<a href=\"")
            html.url(BookPages.chapterOutput(row.block.chapter) + "#" + row.anchor)
            html.raw("\">")
            html.text(label)
            html.raw("</a>")
        }
        out += "## \(words.markdown(.snippetsTangled))\n\n"
        html.raw("<div class=\"table-wrap\">\n<table class=\"snippets\">\n<thead>\n<tr>\n")
        header([.snippetsColumnChunk, .snippetsColumnWritesTo, .snippetsColumnModule, .snippetsColumnStatus])
        if coverage != nil { header([.snippetsColumnTested]) }
        header([.snippetsColumnChapter])
        html.raw("</tr>\n</thead>\n<tbody>\n")
        for row in tangled {
            let name = row.block.attributes.chunkName.map { "⟨\($0)⟩" } ?? row.block.attributes.file ?? "-"
            let modules = Set(row.files.compactMap(module(of:))).sorted()
            html.raw("<tr>\n")
            cell { link(row, name) }
            cell {
                for (index, file) in row.files.enumerated() {
                    html.raw(index == 0 ? "<code>" : "<br><code>")
                    html.text(file)
                    html.raw("</code>")
                }
            }
            cell { html.text(modules.isEmpty ? "-" : modules.joined(separator: ", ")) }
            cell { badge(row.badge) }
            if coverage != nil {
                switch row.badge {
                case .tested: cell { html.text(words[.tableYes]) }
                case .compiled: cell { html.text(words[.tableNo]) }
                default: cell { html.raw("-") }
                }
            }
            cell { html.text(chapterLabel(row)) }
            html.raw("</tr>\n")
        }
        html.raw("</tbody>\n</table>\n</div>\n")
        out += html.string + "\n"
        if !others.isEmpty {
            html = HTMLWriter(capacity: 200 * others.count)
            out += "## \(words.markdown(.snippetsOthers))\n\n"
            html.raw("<div class=\"table-wrap\">\n<table class=\"snippets\">\n<thead>\n<tr>\n")
            header([
                .snippetsColumnBlock, .snippetsColumnLanguage, .snippetsColumnStatus, .snippetsColumnChapter,
            ])
            html.raw("</tr>\n</thead>\n<tbody>\n")
            for row in others {
                html.raw("<tr>\n")
                cell { link(row, words.format(.snippetsLine, ["line": String(row.block.location.line)])) }
                cell { html.text(row.block.attributes.language ?? "text") }
                cell { badge(row.badge) }
                cell { html.text(chapterLabel(row)) }
                html.raw("</tr>\n")
            }
            html.raw("</tbody>\n</table>\n</div>\n")
            out += html.string + "\n"
        }
        return out
    }

    private static func chapterLabel(_ row: SnippetRow) -> String {
        (row.chapterNumber.map { "\($0). " } ?? "") + row.chapterTitle
    }

    /// A badge as inline HTML (the renderer passes it through).
    static func badge(_ badge: Badge, words: SiteWords) -> String {
        "<span class=\"badge badge-\(badge.key)\" title=\"\(HTML.escape(badge.explanation(words)))\">"
            + HTML.escape(badge.label(words)) + "</span>"
    }

    /// The module a generated file belongs to: `Sources/NAME/...` or `Tests/NAME/...`.
    static func module(of path: String) -> String? {
        let parts = path.split(separator: "/")
        guard parts.count >= 3, parts[0] == "Sources" || parts[0] == "Tests" else { return nil }
        return String(parts[1])
    }
}
