import Foundation
import Literate

/// The build's first stage: the theme and the book read, and the output folder made ready (an
/// earlier build's site removed, anything else refused). All of it bad input that stops the build.
struct SiteInput: Sendable {
    var options: SiteOptions
    var theme: Theme
    var book: Book
    /// Whether the theme lives in the book, so that its content (home text, glossary, pages of its
    /// own) describes this book rather than the one it was borrowed from.
    var themeIsTheBooks: Bool
    /// The pages of what the book cites, made by the book from what it just read.
    var citations: CitationPages?

    static func load(_ options: SiteOptions) throws(Diagnostic) -> SiteInput {
        let bookPath = options.bookRoot.standardizedFileURL.path + "/"
        let themeIsTheBooks = options.themeFolder.standardizedFileURL.path.hasPrefix(bookPath)
        let theme = try Theme.load(options.themeFolder, includeContent: themeIsTheBooks)
        let book = try Book.load(root: options.bookRoot)
        let citations = options.citations?(book)
        try SiteFiles.prepareOutput(options.outputFolder)
        return SiteInput(
            options: options, theme: theme, book: book, themeIsTheBooks: themeIsTheBooks, citations: citations
        )
    }
}
