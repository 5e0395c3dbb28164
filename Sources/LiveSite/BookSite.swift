import BookSources
import Foundation
import Literate
import Translations
import Weave

/// What this book's site has beyond its chapters, which the site generator knows nothing of: the
/// book's title, the mock server's API reference, the deferred-flow simulator page, how to start
/// the server (`./wb serve`) for the try-it panels, and the pages of its evidence (sources and
/// decisions, ``BookSourcePages``). Both
/// `workbook build` and `workbook serve` weave the site with these.
///
/// ```swift
/// var options = SiteOptions(bookRoot: root, outputFolder: out, themeFolder: theme, checkers: [])
/// BookSite.configure(&options)   // title, api.html from the OpenAPI document, simulator.html
/// ```
package enum BookSite {
    /// The mock server's OpenAPI document, relative to the book.
    package static let openAPIPath = "Sources/MockServer/Resources/openapi.json"

    /// The Markdown files of the theme's own pages, in the theme folder.
    package static let themePageFiles = ["simulator.md", "lab.md"]

    /// Sets the book's title and pages on `options`, whose `bookRoot` must be set.
    /// Its words are the options' (``SiteOptions/words``), else the theme's: set those first.
    package static func configure(_ options: inout SiteOptions) {
        let words = Self.words(options)
        options.siteTitle = words[.siteName]
        options.apiReference = OpenAPIPage(
            documentPath: openAPIPath, title: words[.apiTitle], liveNote: words[.apiLiveNote])
        options.tryItOfflineNote = words[.tryItOfflineNote]
        // sources.html and this-book-decides.html, from chapters/sources.json and the citations:
        // only a book with a bibliography gets them.
        let bibliography = options.bookRoot.appendingPathComponent(Bibliography.path)
        let citations: @Sendable (Book) -> CitationPages = { book in
            BookSourcePages.make(book, words: words)
        }
        options.citations = FileManager.default.fileExists(atPath: bibliography.path) ? citations : nil
        options.otherInputs =
            [
                BuildInput(
                    BookMessages.folder, "the translations: one PO file per language, each a site of its own")
            ]
            + (options.citations == nil ? [] : (BookCitations.testFolders + BookCitations.codeFolders)).map {
                BuildInput($0, "Swift files, whose source: labels the Sources and decisions pages list")
            }
        // The simulator runs on the mock server, so only a book that has the server (its OpenAPI
        // document) gets the page, not a book that merely borrows this theme.
        let document = options.bookRoot.appendingPathComponent(openAPIPath)
        options.themePages =
            FileManager.default.fileExists(atPath: document.path)
            ? [
                ThemePage(file: themePageFiles[0], kind: "simulator", homeHeading: words[.homeMockServer]),
                ThemePage(file: themePageFiles[1], kind: "lab", homeHeading: words[.homeMockServer]),
            ] : []
    }
}
