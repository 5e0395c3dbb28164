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
    /// In a build in another language: each translated file's fallbacks and counts, by its path
    /// in the book (`chapters/02-routing.md`, `site/home.md`).
    var translations: [String: TranslatedMarkdown] = [:]
    /// In a build in another language: each chapter's tree in the source language, whose heading
    /// ids the translated page keeps (so that links and anchors work in every language).
    var sourceDocuments: [String: (text: String, document: MarkdownNode)] = [:]
    /// In a build in another language: the theme's home text and 404 text in the source
    /// language, whose heading ids the translated pages keep.
    var sourceHome: String?
    var sourceNotFound: String?

    static func load(_ options: SiteOptions) throws(Diagnostic) -> SiteInput {
        let bookPath = options.bookRoot.standardizedFileURL.path + "/"
        let themeIsTheBooks = options.themeFolder.standardizedFileURL.path.hasPrefix(bookPath)
        var theme = try Theme.load(options.themeFolder, includeContent: themeIsTheBooks)
        var book = try Book.load(root: options.bookRoot)
        let citations = options.citations?(book)
        try SiteFiles.prepareOutput(options.outputFolder)
        var input = SiteInput(
            options: options, theme: theme, book: book, themeIsTheBooks: themeIsTheBooks, citations: citations
        )
        if let translation = options.translation {
            // Translated chapters keep their source's lines, so what tangles and proves the code
            // reads the same blocks at the same places; the prose around them changes.
            for index in book.chapters.indices {
                let chapter = book.chapters[index]
                let translated = translation.markdown(chapter.path, chapter.source)
                input.sourceDocuments[chapter.path] = (chapter.source, chapter.document)
                input.translations[chapter.path] = translated
                book.chapters[index] = Chapter(path: chapter.path, source: translated.markdown)
            }
            for index in book.parts.indices {
                book.parts[index].title =
                    translation.message(book.parts[index].title) ?? book.parts[index].title
            }
            if themeIsTheBooks {
                let home = translation.markdown("site/home.md", theme.home)
                let notFound = translation.markdown("site/404.md", theme.notFound)
                (input.sourceHome, input.sourceNotFound) = (theme.home, theme.notFound)
                (theme.home, theme.notFound) = (home.markdown, notFound.markdown)
                input.translations["site/home.md"] = home
                input.translations["site/404.md"] = notFound
                theme.glossary.translate(translation.message)
            }
            input.book = book
            input.theme = theme
        }
        return input
    }

    /// A theme or exercise file's Markdown in the build's language, and its fallbacks.
    func translated(_ path: String, _ markdown: String) -> (String, TranslatedMarkdown?) {
        guard let translation = options.translation else { return (markdown, nil) }
        let translated = translation.markdown(path, markdown)
        return (translated.markdown, translated)
    }
}
