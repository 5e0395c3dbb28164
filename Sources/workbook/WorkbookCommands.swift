import BookChecks
import CommandLineKit
import Literate
import LiterateCLI

/// The dispatch table of `workbook`: one entry per subcommand.
enum WorkbookCommands {
    static var all: [Command] {
        [
            tangleCommand,
            checkCommand(checkers: SnippetCheckers.all(book:), bookChecks: SnippetCheckers.bookChecks(book:)),
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
