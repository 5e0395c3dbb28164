import BookSources
import Literate

/// `workbook check`'s check of the book's evidence: every citation names an entry of
/// `chapters/sources.json` or a section of the book, every entry is well formed and cited, and no
/// attribution in prose is left without its link. It ends with a line of counts.
package struct CitationCheck: BookCheck {
    package init() {}

    package var name: String { "sources" }

    package func check(_ book: Book) -> BookCheckResult {
        let found = BookCitations.collect(book)
        return BookCheckResult(diagnostics: found.diagnostics, summary: found.summary)
    }
}
