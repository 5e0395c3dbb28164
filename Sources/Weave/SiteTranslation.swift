import Literate

/// A page's Markdown in another language, as a translation gives it back. It has the source's
/// lines, one for one, so that every code block stays on its line and keeps its proofs and ids;
/// only the prose on the lines between them changed.
public struct TranslatedMarkdown: Sendable, Equatable {
    public var markdown: String
    /// The first line of each paragraph or heading left in the source language (no translation,
    /// or a fuzzy one): the page marks it `lang="en"`.
    public var fallbackLines: Set<Int>
    /// Table cells left in the source language: the cells' indexes by the line of their row.
    public var fallbackCells: [Int: Set<Int>]
    /// The page's messages, and how many of them are translated.
    public var messages: Int
    public var translated: Int

    public init(
        markdown: String, fallbackLines: Set<Int> = [], fallbackCells: [Int: Set<Int>] = [:],
        messages: Int = 0,
        translated: Int = 0
    ) {
        (self.markdown, self.fallbackLines, self.fallbackCells) = (markdown, fallbackLines, fallbackCells)
        (self.messages, self.translated) = (messages, translated)
    }

    /// Whether any of the page is shown in the source language.
    var hasFallback: Bool { !fallbackLines.isEmpty || !fallbackCells.isEmpty }
}

/// What a build in another language needs: how to translate a page's Markdown (by its path in
/// the book: `chapters/02-routing.md`, `site/home.md`) and a single text (a part's title, a
/// glossary entry). The generator knows no file format of translations; a book hands it these.
public struct SiteTranslation: Sendable {
    /// The language's code, as `<html lang>` takes it: `vi`.
    public var language: String
    public var markdown: @Sendable (_ path: String, _ source: String) -> TranslatedMarkdown
    /// The translation of one message, or nil to keep the source's text.
    public var message: @Sendable (_ text: String) -> String?
    /// The source's text of a word the build was given translated (a heading of the home
    /// page's lists, from the site's words), so that its anchor stays the source's; nil when
    /// unknown.
    public var original: @Sendable (_ translated: String) -> String?

    public init(
        language: String,
        markdown: @escaping @Sendable (_ path: String, _ source: String) -> TranslatedMarkdown,
        message: @escaping @Sendable (_ text: String) -> String?,
        original: @escaping @Sendable (_ translated: String) -> String? = { _ in nil }
    ) {
        (self.language, self.markdown, self.message, self.original) = (language, markdown, message, original)
    }
}

/// Another language of the same site, for `<link rel="alternate" hreflang>` and the language
/// switch: every page exists under the same name in each language's folder.
public struct SiteLanguage: Sendable, Equatable {
    /// `en`, `vi`.
    public var code: String
    /// The language's own name, as the switch shows it: `English`, `Tiếng Việt`.
    public var name: String
    /// The path from this site's root to that language's root: `vi/` from the English site,
    /// `../` from the Vietnamese one.
    public var root: String

    public init(code: String, name: String, root: String) {
        (self.code, self.name, self.root) = (code, name, root)
    }
}

extension Glossary {
    /// The introduction and the definitions in another language; the terms stay as they are
    /// (they are the names in the code and on the wire, and the glossary's anchors).
    mutating func translate(_ message: (String) -> String?) {
        intro = message(intro) ?? intro
        for index in terms.indices {
            terms[index].definition = message(terms[index].definition) ?? terms[index].definition
        }
    }
}

extension SitePage {
    /// Gives the headings the ids of the same headings in the source language's tree, so that
    /// every link and anchor of the source language works on the translated page. Left alone
    /// when the two trees do not have the same headings (a translation cannot add one).
    ///
    /// `text` is the source language's Markdown, and `document` its tree when it was parsed
    /// already. The ids are kept by the text: a save of one page walks one source tree.
    mutating func keepHeadingIDs(ofSource text: String, document: MarkdownNode? = nil, reserved: [String]) {
        let codeIDs = Array(codeIDs.values)
        let key = SourceHeadingsKey(
            page: source, text: MemoText(text), reserved: codeIDs.sorted() + reserved)
        let sourceIDs = Self.sourceHeadingIDs.value(for: key) {
            AnchorCollector.collect(document ?? MarkdownParser.parse(text), reserved: codeIDs + reserved)
                .headings.map(\.id)
        }
        guard sourceIDs.count == headings.count else { return }
        for index in headings.indices { headings[index].id = sourceIDs[index] }
    }

    /// The source language's heading ids of the pages built lately, by the source's text.
    private static let sourceHeadingIDs = Memo<SourceHeadingsKey, [String]>(capacity: 512, keeping: 4) {
        $0.page
    }

    private struct SourceHeadingsKey: Hashable, Sendable {
        var page: String
        var text: MemoText
        var reserved: [String]
    }
}
