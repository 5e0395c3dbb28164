import CommandLineKit
import Exercises
import Foundation
import LiterateCLI
import Translations

extension ExercisesCommands {
    static let language = Command(
        CommandSpec(
            name: "language",
            abstract: "Read the tasks and hints in another language (vi), or back in English (en).",
            discussion: """
                With a language code, 'show', 'next' and 'hint' print each task and hint in that
                language from then on, read from the book's translation (po/LANG.po), and their
                links and a failing check's read: lines lead to that language's pages of the site
                (vi/chapters/...). A passage not translated yet stays in English. Test messages
                stay English: they are code. The choice is kept in .exercises-state.json.

                Without an argument, prints the language in use and the ones the book has.

                Example:
                  $ workbook exercises language vi
                  exercises: tasks and hints in vi (English: workbook exercises language en)
                """,
            arguments: [
                ArgumentSpec("code", optional: true, help: "en, or a language with a po/LANG.po (vi).")
            ],
            options: [bookOption])
    ) { arguments, console in
        var session = try ExerciseSession.open(arguments, console: console)
        var progress = try session.loadProgress()
        let root = try bookRoot(arguments)
        let available: [String]
        do throws(TranslationError) {
            available = ["en"] + (try Translations.languages(root: root))
        } catch {
            throw CommandError.badInput(error.description)
        }
        guard let code = arguments[0] else {
            console.print(
                "exercises: tasks and hints in \(progress.language ?? "en") (available: \(available.joined(separator: ", ")))"
            )
            return .success
        }
        guard available.contains(code) else {
            throw CommandError.badInput(
                "no translation '\(code)' in this book (available: \(available.joined(separator: ", ")))")
        }
        try session.use(language: code)
        progress.language = code == "en" ? nil : code
        try session.save(progress)
        console.print(
            code == "en"
                ? "exercises: tasks and hints in English"
                : "exercises: tasks and hints in \(code) (English: workbook exercises language en)")
        return .success
    }
}
