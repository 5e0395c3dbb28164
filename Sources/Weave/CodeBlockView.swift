import Literate

/// A block's position in the book: its chapter and the line of its opening fence.
struct BlockKey: Hashable, Sendable {
    var chapter: String
    var line: Int
}

/// A label and where it links.
struct NamedLink: Sendable, Equatable {
    var label: String
    var href: String
}

/// A `<<name>>` line: the name and the indentation before it.
struct ChunkReferenceLine: Equatable {
    var indentation: Substring
    var name: String

    init?(_ line: String) {
        // Runs on every code line of the book: reject on bytes before building substrings.
        guard let first = line.utf8.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }),
            first == UInt8(ascii: "<")
        else { return nil }
        let indentation = line.prefix { $0 == " " || $0 == "\t" }
        var trimmed = line[indentation.endIndex...]
        while let last = trimmed.last, last == " " || last == "\t" { trimmed = trimmed.dropLast() }
        guard trimmed.count > 4, trimmed.hasPrefix("<<"), trimmed.hasSuffix(">>") else { return nil }
        let name = String(trimmed.dropFirst(2).dropLast(2))
        guard ChunkName.isValid(name) else { return nil }
        self.indentation = indentation
        self.name = name
    }
}

/// Where every chunk of the book is defined and used, and the anchor id of every tangled block.
///
/// A chunk's first definition gets the id `chunk-NAME`, so a link to a chunk reads well; every
/// other block gets `code-LINE`, which is unique on its page.
struct ChunkDirectory: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var id: String
        var page: String
        /// `⟨name⟩` or the file the block writes; nil for a block with neither, which the page
        /// names by its line (``WeaveWord/codeAtLine``).
        var label: String?
        var line: Int
    }

    private(set) var entries: [BlockKey: Entry] = [:]
    private(set) var firstDefinition: [String: BlockKey] = [:]
    /// The blocks that include each chunk, in book order, each once.
    private(set) var uses: [String: [BlockKey]] = [:]

    init(blocks: [CodeBlock], pageOutput: (String) -> String) {
        for block in blocks {
            let key = BlockKey(chapter: block.chapter, line: block.location.line)
            var id = "code-\(block.location.line)"
            var label = block.attributes.file
            if let name = block.attributes.chunkName {
                label = "⟨\(name)⟩"
                if firstDefinition[name] == nil {
                    firstDefinition[name] = key
                    id = "chunk-\(name)"
                }
            }
            entries[key] = Entry(
                id: id, page: pageOutput(block.chapter), label: label, line: block.location.line)
            for line in block.lines {
                guard let reference = ChunkReferenceLine(line) else { continue }
                if uses[reference.name]?.last != key { uses[reference.name, default: []].append(key) }
            }
        }
    }

    func entry(_ key: BlockKey) -> Entry? { entries[key] }

    /// The href of a block from the page `linker` writes.
    func href(_ key: BlockKey, linker: Linker) -> String? {
        entries[key].map { linker.href(page: $0.page, anchor: $0.id) }
    }
}

/// Everything the renderer shows around one code block.
struct CodeBlockView: Sendable, Equatable {
    var id: String
    var language: String?
    var chunkName: String?
    /// The chunk's first definition, linked from the name.
    var chunkHref: String?
    /// A later block of a chunk defined earlier (`⟨name⟩ +=`).
    var isContinuation: Bool
    var files: [String]
    var badge: Badge
    var usedIn: [NamedLink]
    /// For each `<<name>>` line, the chunk's first definition.
    var referenceHrefs: [String: String]
    /// A "Try it" panel after the block (`try=live` on an `http` block).
    var tryIt: TryItPanel? = nil
    /// The summary line of a block shown folded (`12 tests, 140 lines`); nil: shown open.
    var fold: String? = nil
    /// The words of the badge, the uses and the panel. Without them every word shows its key.
    var words = SiteWords()

    /// Writes the block: a header with the language, chunk name, target file and badge, the
    /// code with `<<name>>` lines as links, and the blocks that use the chunk.
    func render(lines: [String], into html: inout HTMLWriter) {
        html.newlineIfNeeded()
        if let fold {
            html.raw("<details class=\"code-fold\"><summary class=\"code-fold-summary\">")
            html.text(fold)
            html.raw("</summary>\n")
        }
        html.raw("<figure class=\"code\" id=\"")
        html.text(id)
        html.raw("\">\n<figcaption class=\"code-header\"><span class=\"code-lang\">")
        html.text(language ?? "text")
        html.raw("</span>")
        if let chunkName {
            html.raw("<a class=\"code-chunk\" href=\"")
            html.url(chunkHref ?? "#" + id)
            html.raw("\">⟨")
            html.text(chunkName)
            html.raw(isContinuation ? "⟩ +=</a>" : "⟩</a>")
        }
        for file in files {
            html.raw("<span class=\"code-file\">")
            html.text(file)
            html.raw("</span>")
        }
        html.raw("<span class=\"badge badge-")
        html.raw(badge.key)
        html.raw("\" title=\"")
        html.text(badge.explanation(words))
        html.raw("\">")
        html.text(badge.label(words))
        html.raw("</span></figcaption>\n<pre><code")
        if let language {
            html.raw(" class=\"language-")
            html.text(language)
            html.raw("\"")
        }
        html.raw(">")
        var runOpen = false
        for line in lines {
            if let reference = ChunkReferenceLine(line), let href = referenceHrefs[reference.name] {
                if runOpen {
                    html.raw("</span>")
                    runOpen = false
                }
                html.text(String(reference.indentation))
                html.raw("<a class=\"chunk-ref\" href=\"")
                html.url(href)
                html.raw("\">&lt;&lt;")
                html.text(reference.name)
                html.raw("&gt;&gt;</a>\n")
                continue
            }
            if !runOpen {
                html.raw("<span class=\"code-text\">")
                runOpen = true
            }
            html.text(line)
            html.raw("\n")
        }
        if runOpen { html.raw("</span>") }
        html.raw("</code></pre>\n")
        if !usedIn.isEmpty {
            var links = HTMLWriter()
            for (index, link) in usedIn.enumerated() {
                if index > 0 { links.raw(", ") }
                links.raw("<a href=\"")
                links.url(link.href)
                links.raw("\">")
                links.text(link.label)
                links.raw("</a>")
            }
            html.raw("<p class=\"code-uses\">")
            html.raw(words.format(.codeUsedIn, ["links": links.string]))
            html.raw("</p>\n")
        }
        html.raw("</figure>\n")
        if fold != nil { html.raw("</details>\n") }
        if let tryIt { html.raw(tryIt.html(words)) }
    }
}
