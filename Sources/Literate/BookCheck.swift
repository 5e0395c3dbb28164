import Foundation

/// A check of the book as a whole, beside the snippet checkers: a rule that spans its chapters
/// and other files (every citation resolves to an entry of the bibliography, say). `workbook
/// check` runs each one it registers after the snippet checks.
///
/// ```swift
/// struct TitleCheck: BookCheck {
///     var name: String { "titles" }
///     func check(_ book: Book) -> BookCheckResult {
///         BookCheckResult(diagnostics: [], summary: "titles: \(book.chapters.count) chapters")
///     }
/// }
/// ```
public protocol BookCheck: Sendable {
    /// A short name for reports.
    var name: String { get }
    /// Checks `book` (read for tangling: each chapter's `source` is there, its tree may be empty)
    /// and the files around it under `book.root`.
    func check(_ book: Book) -> BookCheckResult
}

/// What a ``BookCheck`` found: diagnostics at their places, and one closing line of counts.
public struct BookCheckResult: Sendable {
    public var diagnostics: [Diagnostic]
    /// Printed after the diagnostics (`sources: 120 entries, 640 citations, ...`); nil prints none.
    public var summary: String?

    public init(diagnostics: [Diagnostic], summary: String? = nil) {
        (self.diagnostics, self.summary) = (diagnostics, summary)
    }
}
