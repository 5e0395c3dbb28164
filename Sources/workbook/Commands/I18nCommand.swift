import CommandLineKit
import Foundation
import LiterateCLI
import Translations

/// `workbook i18n extract|update|status [--book DIR]`
let i18nCommand = Command(
    CommandSpec(
        name: "i18n",
        abstract: "Keep the book's translations in step with it: extract, update, status.",
        discussion: """
            The book is translated with GNU gettext, the way many open-source programs and books
            are. Each paragraph, heading, list item, table cell, image description and hint title
            of the chapters and exercises is one message. po/messages.pot (the template) lists
            them all in English; po/LANG.po (po/vi.po for Vietnamese) holds one language's
            translations, edited by hand or with a PO editor such as Poedit.

            Code blocks are never messages, so a translation cannot change the code the book
            tangles and checks; inline code such as `li2_cid` stays inside its message and must be
            kept as it is.

            The usual round, after a chapter changed:
              1. workbook i18n update   (writes the template, merges it into every po/LANG.po)
              2. translate the messages marked fuzzy or left empty in po/LANG.po
              3. workbook i18n status   (what is left, per chapter)

            A new language starts as a copy of the template: cp po/messages.pot po/vi.po, then
            set "Language: vi" in its header entry.
            """),
    subcommands: [I18nCommands.extract, I18nCommands.update, I18nCommands.status])

/// The subcommands of `workbook i18n`.
enum I18nCommands {
    static let extract = Command(
        CommandSpec(
            name: "extract",
            abstract: "Write po/messages.pot, every translatable text of the book.",
            discussion: """
                Reads the chapters in the order chapters/SUMMARY.md lists them (and the summary's
                part and chapter titles), then each exercise's README.md and HINTS.md, through the
                Markdown parser the site is built with. Every message keeps its Markdown (links,
                emphasis, `code`) and says where it comes from, a line such as
                #: chapters/02-routing.md:14. A text that appears in several places is one message
                with several such lines, translated once.

                Exit status: 0 when the template is written, 2 when the book cannot be read (a
                malformed SUMMARY.md or a file that is not UTF-8, at its line).

                Example:
                  $ workbook i18n extract
                  i18n: 2360 messages from 61 files written to po/messages.pot
                """,
            options: [bookOption])
    ) { arguments, console in
        let root = try bookRoot(arguments)
        let catalog = try run { () throws(TranslationError) in try Translations.extract(root: root) }
        let files = Set(catalog.messages.flatMap { $0.references.map(\.path) }).count
        console.print(
            "i18n: \(catalog.messages.count) messages from \(files) files written to "
                + "\(BookMessages.folder)/\(BookMessages.templateName)")
        return .success
    }

    static let update = Command(
        CommandSpec(
            name: "update",
            abstract: "Extract, then merge po/messages.pot into every po/LANG.po (GNU msgmerge).",
            discussion: """
                Runs 'workbook i18n extract', then GNU gettext's msgmerge on each po/LANG.po:
                a message whose English text changed keeps its old translation, marked fuzzy (a
                "#, fuzzy" line) until a translator checks it and removes the mark; a new message
                arrives with an empty translation; a message the book no longer has is kept at the
                end of the file as obsolete (#~ lines). Until it is translated and not fuzzy, the
                book shows a message in English.

                Needs msgmerge, from Debian's gettext package (apt-get install gettext).
                No po/LANG.po is created: copy po/messages.pot to start a language.

                Exit status: 0 when every PO file is merged, 1 when msgmerge is missing or fails
                (its messages name the PO file and line), 2 when the book cannot be read.

                Example:
                  $ workbook i18n update
                  i18n: 2360 messages written to po/messages.pot
                  i18n: merged into po/vi.po
                """,
            options: [bookOption])
    ) { arguments, console in
        let root = try bookRoot(arguments)
        let report: Translations.UpdateReport
        do throws(TranslationError) {
            report = try Translations.update(root: root)
        } catch {
            guard error.isToolFailure else { throw CommandError.badInput(error.description) }
            console.error("error: \(error.description)")
            return .failure
        }
        console.print(
            "i18n: \(report.messages) messages written to \(BookMessages.folder)/\(BookMessages.templateName)"
        )
        if report.merged.isEmpty {
            console.print("i18n: no po/LANG.po to merge into; copy po/messages.pot to start a language")
        }
        for path in report.merged { console.print("i18n: merged into \(path)") }
        return .success
    }

    static let status = Command(
        CommandSpec(
            name: "status",
            abstract: "Print, per language and source file, how many messages are translated.",
            discussion: """
                Reads every po/LANG.po with GNU gettext's own library (libgettextpo) and counts
                its messages per source file: translated, fuzzy (a translation marked for review,
                which the book does not show yet) and untranslated. A message shared by several
                files counts in each; the first line of a language counts each message once.
                Run 'workbook i18n update' first, so that the PO files list today's messages.

                Exit status: 0 when every PO file is read, 2 when one has a syntax error (each
                error at its line: po/vi.po:12: error: ...).

                Example:
                  $ workbook i18n status
                  vi: 120 of 2360 messages translated (5 %), 3 fuzzy, 2237 untranslated
                  source file                         translated  fuzzy  untranslated
                  chapters/SUMMARY.md                         28      0             0
                  chapters/00-how-this-book-works.md          92      3            41
                """,
            options: [bookOption])
    ) { arguments, console in
        let root = try bookRoot(arguments)
        let statuses = try run { () throws(TranslationError) in try Translations.status(root: root) }
        if statuses.isEmpty {
            console.print("i18n: no po/LANG.po yet; copy po/messages.pot to start a language")
        }
        for (index, status) in statuses.enumerated() {
            if index > 0 { console.print("") }
            for line in status.table { console.print(line) }
        }
        return .success
    }

    /// Runs `body`, turning its failure into bad input (exit 2, its text on standard error).
    private static func run<Value>(_ body: () throws(TranslationError) -> Value) throws -> Value {
        do {
            return try body()
        } catch {
            throw CommandError.badInput(error.description)
        }
    }
}
