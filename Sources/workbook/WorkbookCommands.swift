import BookChecks
import CommandLineKit
import Literate
import LiterateCLI
import Translations

/// The dispatch table of `workbook`: one entry per subcommand.
enum WorkbookCommands {
    static var all: [Command] {
        [
            tangleCommand,
            // The translations' checks come in as one more check of the book as a whole, so that
            // the engine's `check` knows nothing of PO files.
            checkCommand(
                checkers: SnippetCheckers.all(book:),
                bookChecks: { SnippetCheckers.bookChecks(book: $0) + [TranslationCheck()] }),
            lintCommand,
            buildCommand,
            referenceCommand,
            aasaCommand,
            assetLinksCommand,
            appLinksCommand,
            doctorCommand,
            serveCommand,
            exercisesCommand,
            i18nCommand,
        ]
    }
}
