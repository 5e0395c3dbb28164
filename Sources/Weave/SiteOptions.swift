import Foundation
import Literate

/// What `workbook build` needs to know.
///
/// The generator knows Markdown, chunks and its theme, never a particular book: what one book adds
/// beyond its chapters (a title, an API reference, pages of its theme's own) comes in here.
///
/// ```swift
/// var options = SiteOptions(bookRoot: root, outputFolder: root.appendingPathComponent("build/site"),
///                           themeFolder: root.appendingPathComponent("site"), checkers: [])
/// options.siteTitle = "The Book"
/// options.apiReference = OpenAPIPage(documentPath: "api/openapi.json", title: "Server API")
/// options.themePages = [ThemePage(file: "playground.md", kind: "playground", homeHeading: "Try it")]
/// ```
public struct SiteOptions: Sendable {
    /// The book folder, holding `chapters/` (and maybe `exercises/`).
    public var bookRoot: URL
    /// Where the site is written. Emptied first, but only if an earlier build wrote it.
    public var outputFolder: URL
    /// The theme: `templates/`, `assets/`, `home.md`, `glossary.json`.
    public var themeFolder: URL
    /// The snippet checkers `workbook check` registers, so badges say what it says.
    public var checkers: [any SnippetChecker]
    /// Adds each exercise's `Solution/` files to its page (for instructors).
    public var includeSolutions = false
    /// llvm-cov export data; nil looks for the newest `.build/debug/codecov/*.json` in the book.
    public var coverageFile: URL?
    /// Debian's highlight.js (`libjs-highlight.js`), copied into the site when present.
    public var highlightFolder = URL(fileURLWithPath: "/usr/share/javascript/highlight.js")
    /// The compiler for parse-checking Apple-only blocks (as `workbook check` does).
    public var swiftc: String? = BookChecker.findExecutable("swiftc")
    /// Run the snippet checkers and parse checks. `workbook serve` turns this off to publish a
    /// rebuilt site fast, and runs them afterwards in the background; badges then show what
    /// proves each block without a failed check marking it.
    public var runsSnippetChecks = true
    /// The book's name: each page's description reads `NAME: page title` (empty: the page title).
    public var siteTitle = ""
    /// The API reference page, written from an OpenAPI document in the book; nil writes none.
    public var apiReference: OpenAPIPage?
    /// Pages of the theme's own beside the book's, in this order in the navigation. They are the
    /// theme's content, so they appear only when the theme's content does (a theme inside the
    /// book), and only if the theme has the file.
    public var themePages: [ThemePage] = []
    /// What a try-it panel says (HTML) while no server answers: how to start one.
    public var tryItOfflineNote = Self.plainTryItOfflineNote
    /// Makes, for each build, the pages that list what the book cites (``CitationPages``) from
    /// the book just read; nil gives none, and `SCHEME:KEY` links are then external.
    public var citations: (@Sendable (Book) -> CitationPages)?

    /// The language of the pages, as `<html lang>` takes it.
    public var language = "en"
    /// A build in another language: how to translate the book's pages (nil: the book's own
    /// language). Its pages keep the source's file names, anchors and code.
    public var translation: SiteTranslation?
    /// The other languages the same site is written in, for each page's alternates and its
    /// language switch; empty for a site in one language.
    public var otherLanguages: [SiteLanguage] = []
    /// The path the site is served at: the page for a missing path (`404.html`), which a
    /// server shows at any address, starts its links from it. `/` for the English site, `/vi/`
    /// for its Vietnamese folder.
    public var serverRoot = "/"

    /// The offline note of a book that gives none.
    public static let plainTryItOfflineNote = "Start the server to send it."

    public init(bookRoot: URL, outputFolder: URL, themeFolder: URL, checkers: [any SnippetChecker]) {
        (self.bookRoot, self.outputFolder, self.themeFolder, self.checkers) = (
            bookRoot, outputFolder, themeFolder, checkers
        )
    }

    /// The site's own words (labels, messages, the generated pages' sentences) for a build in
    /// another language; nil says the theme's (`words.json`, ``Theme/words``).
    public var words: SiteWords?

    /// What the previous build of this site rendered, for a rebuild that renders only what
    /// changed (`workbook serve` keeps one per language); nil renders everything.
    public var cache: SiteCache?

    /// The files a build of this book reads beyond the ones the generator knows (those that
    /// ``citations`` reads, the translations), added by the book's configuration: see ``inputs``.
    public var otherInputs: [BuildInput] = []
}

/// An API reference page (`api.html`), written as Markdown from an OpenAPI 3 document in the book
/// by ``OpenAPIReference``. A missing document gives a page that says so.
///
/// ```swift
/// OpenAPIPage(documentPath: "api/openapi.json", title: "Server API",
///             liveNote: "Start the server to try the API.")
/// ```
public struct OpenAPIPage: Sendable, Hashable {
    /// The document, relative to the book.
    public var documentPath: String
    /// The page's title when the document's `info.title` is missing, and while it has no document.
    public var title: String
    /// HTML shown under the page's heading while the page is opened from files, where its try-it
    /// panels cannot reach a server: how to start one, say. Nil shows nothing.
    public var liveNote: String?

    public init(documentPath: String, title: String = "API reference", liveNote: String? = nil) {
        (self.documentPath, self.title, self.liveNote) = (documentPath, title, liveNote)
    }
}

/// A page the theme brings beside the book's chapters (an interactive tool, say): its Markdown
/// `file` in the theme folder becomes a page of the same name (`tool.md` gives `tool.html`),
/// listed first among the reference pages and under `homeHeading` on the home page.
///
/// ```swift
/// ThemePage(file: "playground.md", kind: "playground", homeHeading: "Try it")
/// ```
public struct ThemePage: Sendable, Equatable {
    /// The Markdown file, relative to the theme folder.
    public var file: String
    /// The page's kind in the template (`{{page-kind}}`), for the theme's CSS and scripts.
    public var kind: String
    /// The heading of the home page's section that links the page.
    public var homeHeading: String

    public init(file: String, kind: String, homeHeading: String) {
        (self.file, self.kind, self.homeHeading) = (file, kind, homeHeading)
    }
}

/// What a build did.
public struct SiteReport: Sendable {
    /// The HTML pages written, relative to the output folder, sorted.
    public var pages: [String]
    /// Every file written (pages, assets, the search index).
    public var fileCount: Int
    /// Broken links and tangle errors (errors), missing highlight.js and the like (warnings).
    public var diagnostics: [Diagnostic]
    /// The coverage data used for "tested", relative to the book when inside it.
    public var coverageFile: String?
    public var testedBlocks: Int
    public var isHighlighted: Bool
    /// Each stage's time, in the order they ran.
    public var stages: [SiteStage] = []

    public var hasErrors: Bool { diagnostics.hasErrors }
}
