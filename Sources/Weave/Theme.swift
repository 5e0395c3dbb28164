import FileStamps
import Foundation
import Literate

/// The site's theme, read from real files (never from strings in Swift):
///
///     templates/page.html     the page template, with {{placeholders}}
///     assets/                 copied into the site as they are (CSS, JS, icons)
///     assets/icons/*.svg      also inlined where the template says {{icon NAME}}
///     words.json              the site's own words (``SiteWords``): the template's, the
///                             scripts' and the generator's
///     home.md                 the home page's text
///     404.md                  the text of the page for a missing path
///     glossary.json           the glossary's terms
///     search-synonyms.json    words the search treats alike (``SearchSynonyms``)
public struct Theme: Sendable, Equatable {
    public var folder: URL
    public var template: PageTemplate
    /// The theme's words (`words.json`): its interface, never the book's content, so a borrowed
    /// theme brings its own.
    public var words: SiteWords
    /// The keys each script of `assets/` asks for (`t("key")`), by its path there (`site.js`).
    public var scriptKeys: [String: [String]]
    /// The template's text and the icons, to fill the template with other words.
    private var templateText: String
    private var icons: [String: String]
    /// Book-relative paths are not used here: these are relative to `assets/`.
    public var assetFiles: [String]
    public var home: String
    /// The text of the page a server shows for a missing path.
    public var notFound: String
    public var glossary: Glossary
    public var synonyms: SearchSynonyms
    /// The ids the template and the navigation use (`content`, `help`, `nav-chapters`): no
    /// heading may take one.
    public var reservedIDs: [String]

    /// Reads the theme in `folder`. Throws a `Diagnostic` naming the file that is missing or wrong.
    ///
    /// `home.md`, `404.md` and `glossary.json` describe one book: with `includeContent: false`
    /// (a theme borrowed from another book) plain defaults stand in for them.
    public static func load(_ folder: URL, includeContent: Bool = true) throws(Diagnostic) -> Theme {
        // Read again only when a file of the folder changed (the live site loads it on every save).
        let key = ThemeKey(
            folder: folder.standardizedFileURL.path, includeContent: includeContent,
            files: stampedFiles(under: folder).map { ThemeKey.File(path: $0.path, stamp: $0.stamp) })
        return try loaded.value(
            for: key,
            catching: { () throws(Diagnostic) in
                try read(folder, includeContent: includeContent)
            })
    }

    private static let loaded = Memo<ThemeKey, Result<Theme, Diagnostic>>(capacity: 8)

    private struct ThemeKey: Hashable, Sendable {
        struct File: Hashable, Sendable {
            var path: String
            var stamp: FileStamp?
        }

        var folder: String
        var includeContent: Bool
        var files: [File]
    }

    private static func read(_ folder: URL, includeContent: Bool) throws(Diagnostic) -> Theme {
        let templateURL = folder.appendingPathComponent("templates/page.html")
        guard let templateText = read(templateURL) else {
            throw Diagnostic(.error, text: WeaveMessage.themeMissing(path: folder.path).text, at: nil)
        }
        let assets = folder.appendingPathComponent("assets")
        let assetFiles = files(under: assets)
        var icons: [String: String] = [:]
        for path in assetFiles where path.hasPrefix("icons/") && path.hasSuffix(".svg") {
            let name = String(path.dropFirst("icons/".count).dropLast(".svg".count))
            icons[name] = read(assets.appendingPathComponent(path))?.trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
        let words = try SiteWords.load(themeFolder: folder)
        let template = try Self.template(templateText, icons: icons, words: words)
        var scriptKeys: [String: [String]] = [:]
        for path in assetFiles where path.hasSuffix(".js") && !path.contains("/") {
            let found = SiteWords.scriptKeys(in: read(assets.appendingPathComponent(path)) ?? "")
            if let absent = found.first(where: { words.entries[$0.key] == nil }) {
                throw Diagnostic(
                    .error, text: WeaveMessage.missingWords(keys: [absent.key], user: "assets/" + path).text,
                    at: SourceLocation(path: "site/assets/" + path, line: absent.line))
            }
            scriptKeys[path] = found.map(\.key)
        }
        let content = { (name: String) in includeContent ? read(folder.appendingPathComponent(name)) : nil }
        let glossaryText = content("glossary.json") ?? "{\"terms\": []}"
        let glossary: Glossary
        do {
            glossary = try Glossary(json: glossaryText)
        } catch {
            throw Diagnostic(
                .error, text: error.text, at: SourceLocation(path: "site/glossary.json", line: 1))
        }
        var synonyms = SearchSynonyms()
        if let text = content("search-synonyms.json") {
            do {
                synonyms = try SearchSynonyms(json: text)
            } catch {
                throw Diagnostic(
                    .error, text: error.text, at: SourceLocation(path: "site/search-synonyms.json", line: 1))
            }
        }
        return Theme(
            folder: folder, template: template, words: words, scriptKeys: scriptKeys,
            templateText: templateText,
            icons: icons, assetFiles: assetFiles,
            home: content("home.md") ?? words[WeaveWord.themeHome.rawValue] + "\n",
            notFound: content("404.md") ?? words[WeaveWord.themeNotFound.rawValue] + "\n",
            glossary: glossary, synonyms: synonyms,
            reservedIDs: AnchorCollector.ids(in: templateText)
                + ["nav-chapters", "nav-exercises", "nav-reference", "toc-title", "top"])
    }

    /// The template filled with `words` instead of the theme's own (a translated build's); an
    /// unknown word is an error at its line of the template.
    func template(with words: SiteWords) throws(Diagnostic) -> PageTemplate {
        words == self.words ? template : try Self.template(templateText, icons: icons, words: words)
    }

    private static func template(_ text: String, icons: [String: String], words: SiteWords) throws(Diagnostic)
        -> PageTemplate
    {
        do {
            return try PageTemplate(text: text, icons: icons, words: words)
        } catch {
            var line = 1
            if case .unknownWord(_, let at) = error { line = at }
            throw Diagnostic(
                .error, text: error.text, at: SourceLocation(path: "site/templates/page.html", line: line))
        }
    }

    /// The keys of the words a page's scripts read: `site.js`'s on every page, and on a page of
    /// the theme's own (kind `lab`) also those of the script of that name (`lab.js`).
    func scriptWordKeys(kind: String?) -> [String] {
        (scriptKeys["site.js"] ?? []) + (kind.flatMap { scriptKeys[$0 + ".js"] } ?? [])
    }

    static func read(_ url: URL) -> String? {
        FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every regular file under `folder`, relative to it, sorted; hidden files are skipped.
    static func files(under folder: URL) -> [String] {
        stampedFiles(under: folder).map(\.path)
    }

    /// The same files with their stamps, read in one walk (`readdir` and `fstatat`).
    static func stampedFiles(under folder: URL) -> [(path: String, stamp: FileStamp)] {
        FolderEntries.files(root: folder.path, folders: [""]).sorted { $0.path < $1.path }
    }
}

extension Theme {
    /// One of the theme's JSON files (`glossary.json`, `search-synonyms.json`) decoded; what the
    /// decoder objects to becomes the detail of the file's own message.
    static func decode<File: Decodable>(
        _ type: File.Type, json text: String, invalid: (_ detail: String) -> WeaveMessage
    ) throws(WeaveMessage) -> File {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw invalid("\(error)")
        }
    }
}

/// The glossary's terms, from the theme's `glossary.json`:
///
/// ```json
/// {"intro": "Markdown shown above the list",
///  "terms": [{"term": "AASA", "aliases": ["apple-app-site-association"],
///             "definition": "Markdown", "see": ["chapters/03-universal-links.md#the-association-file"]}]}
/// ```
///
/// `see` links are book-relative Markdown links to heading anchors; the build checks them like
/// every other link.
public struct Glossary: Sendable, Equatable {
    public struct Term: Sendable, Equatable, Decodable {
        public var term: String
        public var aliases: [String]?
        public var definition: String
        public var see: [String]?
    }

    public var intro: String
    public var terms: [Term]
    /// The JSON text, to find the line of a term for diagnostics.
    public var text: String

    private struct File: Decodable {
        var intro: String?
        var terms: [Term]
    }

    public init(json text: String) throws(WeaveMessage) {
        let file = try Theme.decode(File.self, json: text, invalid: WeaveMessage.invalidGlossary)
        intro = file.intro ?? ""
        terms = file.terms
        self.text = text
    }

    /// The 1-based line and column of the first occurrence of `needle` in the JSON text.
    func position(of needle: String) -> (line: Int, column: Int) {
        guard let range = text.range(of: needle) else { return (1, 1) }
        let before = text[..<range.lowerBound]
        let line = before.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
        let column =
            before.count
            - (before.lastIndex(of: "\n").map { before.distance(from: before.startIndex, to: $0) + 1 } ?? 0)
            + 1
        return (line, column)
    }
}
