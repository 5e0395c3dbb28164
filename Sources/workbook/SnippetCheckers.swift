import Literate

/// The snippet checkers `workbook check` registers beyond the engine's own `json`.
enum SnippetCheckers {
    static var all: [any SnippetChecker] { [] }
}
