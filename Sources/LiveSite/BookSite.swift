import BookSources
import Foundation
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

    /// Sets the book's title and pages on `options`, whose `bookRoot` must be set.
    package static func configure(_ options: inout SiteOptions) {
        options.siteTitle = "Deep Link Workbook"
        options.apiReference = OpenAPIPage(
            documentPath: openAPIPath, title: "Mock server API",
            liveNote: "Opened from files, this page cannot call the server. Start it with "
                + "<code>./wb serve</code> and open the site it serves to try the API.")
        options.tryItOfflineNote = "Start the server with <code>./wb serve</code> to send it."
        // sources.html and this-book-decides.html, from chapters/sources.json and the citations:
        // only a book with a bibliography gets them.
        let bibliography = options.bookRoot.appendingPathComponent(Bibliography.path)
        options.citations =
            FileManager.default.fileExists(atPath: bibliography.path) ? BookSourcePages.make : nil
        // The simulator runs on the mock server, so only a book that has the server (its OpenAPI
        // document) gets the page, not a book that merely borrows this theme.
        let document = options.bookRoot.appendingPathComponent(openAPIPath)
        options.themePages =
            FileManager.default.fileExists(atPath: document.path)
            ? [
                ThemePage(file: "simulator.md", kind: "simulator", homeHeading: "On the mock server"),
                ThemePage(file: "lab.md", kind: "lab", homeHeading: "On the mock server"),
            ] : []
    }
}
