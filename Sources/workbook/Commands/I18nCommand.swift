import CommandLineKit
import Foundation
import LiterateCLI
import LiveSite
import Translations

/// `workbook i18n extract|update|status|check [--book DIR]`
let i18nCommand = Command(
    CommandSpec(
        name: "i18n",
        abstract: "Keep the book's translations in step with it: extract, update, status, check.",
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
              3. workbook i18n check    (each translation keeps its code, links and Markdown)
              4. workbook i18n status   (what is left, per chapter)

            A new language starts as a copy of the template: cp po/messages.pot po/vi.po, then
            set "Language: vi" in its header entry.
            """),
    subcommands: [I18nCommands.extract, I18nCommands.update, I18nCommands.status, I18nCommands.check])

/// The theme's texts this book translates: its home, 404 and tool pages, the glossary and the
/// site's words (`site/words.json`).
let bookTheme = ThemeMessages(
    folder: "site", markdown: ["home.md", "404.md"] + BookSite.themePageFiles,
    jsonStrings: [(file: "glossary.json", keys: ["intro", "definition"]), (file: "words.json", keys: nil)])

/// The subcommands of `workbook i18n`.
enum I18nCommands {
    static let extract = Command(
        CommandSpec(
            name: "extract",
            abstract: "Write po/messages.pot, every translatable text of the book.",
            discussion: """
                Reads the chapters in the order chapters/SUMMARY.md lists them (and the summary's
                part and chapter titles), then each exercise's README.md and HINTS.md, then the
                site's own texts (site/home.md, 404.md, simulator.md, lab.md, the glossary's
                definitions and site/words.json), through the Markdown parser the site is built
                with. Every message keeps its Markdown (links, emphasis, `code`) and says where it
                comes from, a line such as #: chapters/02-routing.md:14. A text that appears in
                several places is one message with several such lines, translated once. A text
                with nothing to translate (only `code`, numbers or punctuation) is no message.

                With --check, writes nothing and fails when po/messages.pot is not what the book
                gives today (./wb test runs it, so the template never lags behind a chapter).

                Exit status: 0 when the template is written (or, with --check, up to date), 1 when
                --check finds it out of date, 2 when the book cannot be read (a malformed
                SUMMARY.md or a file that is not UTF-8, at its line).

                Example:
                  $ workbook i18n extract
                  i18n: 2360 messages from 61 files written to po/messages.pot
                """,
            options: [
                bookOption,
                OptionSpec("check", help: "Write nothing; fail when po/messages.pot is out of date."),
            ])
    ) { arguments, console in
        let root = try bookRoot(arguments)
        let template = "\(BookMessages.folder)/\(BookMessages.templateName)"
        if arguments.flag("check") {
            let catalog = try run { () throws(TranslationError) in
                try BookMessages.catalog(root: root, theme: bookTheme)
            }
            let written = FileManager.default.contents(atPath: root.appendingPathComponent(template).path)
            guard written == Data(catalog.potText.utf8) else {
                console.error(
                    "error: \(template) is out of date: the book's messages changed; run 'workbook i18n update' "
                        + "and commit \(template) and every po/LANG.po")
                return .failure
            }
            console.print("i18n: \(template) is up to date (\(catalog.messages.count) messages)")
            return .success
        }
        let catalog = try run { () throws(TranslationError) in
            try Translations.extract(root: root, theme: bookTheme)
        }
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
            report = try Translations.update(root: root, theme: bookTheme)
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
                which the book does not show yet) and untranslated, and the share translated
                (rounded down, so 100 % means every message). A message shared by several files
                counts in each; the first line of a language counts each message once. Run
                'workbook i18n update' first, so that the PO files list today's messages.

                --part N keeps only the chapters of part N of chapters/SUMMARY.md (1 is the first
                part the summary lists, "Part I: The guide" in this book), in reading order: a
                language's first line then counts only their messages. --min PERCENT turns the
                table into a gate: the command fails, naming each file and its share, when a file
                (of the part, with --part) of any language has less than PERCENT of its messages
                translated. A fuzzy message does not count as translated, and a chapter of the
                part with no message in the PO file fails too (run 'workbook i18n update').

                Exit status: 0 when every PO file is read (and, with --min, every file reaches
                the minimum); 1 when a file is below the minimum, or --min is given and there is
                no po/LANG.po yet; 2 when a PO file has a syntax error (each error at its line:
                po/vi.po:12: error: ...) or part N does not exist; 64 when --part or --min is not
                a whole number in range.

                Examples:
                  $ workbook i18n status
                  vi: 120 of 2360 messages translated (5 %), 3 fuzzy, 2237 untranslated
                  source file                         translated  fuzzy  untranslated      %
                  chapters/SUMMARY.md                         28      0             0  100 %
                  chapters/00-how-this-book-works.md          92      3            41   67 %

                  $ workbook i18n status --part 1 --min 100
                  ...
                  error: po/vi.po: chapters/00-how-this-book-works.md is 67 % translated, below 100 %
                  i18n: 1 file below 100 % translated
                """,
            options: [
                bookOption,
                OptionSpec(
                    "part", value: "N",
                    help: "Count only the chapters of part N of chapters/SUMMARY.md (1 is its first part)."),
                OptionSpec(
                    "min", value: "PERCENT",
                    help: "Fail when a counted file of any language is below PERCENT (0 to 100) translated."),
            ])
    ) { arguments, console in
        let root = try bookRoot(arguments)
        let part = try wholeNumber(arguments, "part", in: 1...Int.max, meaning: "a part number from 1")
        let minimum = try wholeNumber(arguments, "min", in: 0...100, meaning: "a percentage from 0 to 100")
        let statuses = try run { () throws(TranslationError) in
            guard let part else { return try Translations.status(root: root) }
            let files = try Translations.chapters(ofPart: part, root: root)
            return try Translations.status(root: root, files: files)
        }
        if statuses.isEmpty {
            console.print("i18n: no po/LANG.po yet; copy po/messages.pot to start a language")
        }
        for (index, status) in statuses.enumerated() {
            if index > 0 { console.print("") }
            for line in status.table { console.print(line) }
        }
        guard let minimum else { return .success }
        guard !statuses.isEmpty else {
            console.error("error: --min \(minimum): there is no po/LANG.po to hold to it")
            return .failure
        }
        let shortfalls = statuses.flatMap {
            $0.shortfalls(minimum: minimum, path: "\(BookMessages.folder)/\($0.language).po")
        }
        for line in shortfalls { console.error("error: \(line)") }
        console.print("")
        if shortfalls.isEmpty {
            console.print("i18n: every file counted is at least \(minimum) % translated")
            return .success
        }
        let count = shortfalls.count
        console.print("i18n: \(count) file\(count == 1 ? "" : "s") below \(minimum) % translated")
        return .failure
    }

    static let check = Command(
        CommandSpec(
            name: "check",
            abstract: "Check each po/LANG.po: GNU msgfmt's checks, then the book's rules for translations.",
            discussion: """
                First GNU gettext's own check of each po/LANG.po (msgfmt --check, from Debian's
                gettext package): the file's syntax, a message given twice, a translation that
                does not begin and end with a line break where its English text does. Then, for
                every message that is translated and not fuzzy, what a translation of this book
                must keep:

                  - the same inline code spans (`li2_cid`), link and image targets
                    ([text](target), <https://...>), inline HTML tags (<kbd>) and placeholders
                    ({name}), each as many times as the English text has it. Link texts, link
                    titles and image descriptions are translated;
                  - citations word for word: the text of a link to source:KEY or decision:KEY
                    is the label of an entry of chapters/sources.json, so it stays as it is:
                    [Apple: Supporting associated domains](source:apple-supporting-associated-domains)
                  - the Markdown blocks: no line is empty, and no line after the first
                    starts with what would begin a new block (#, >, |, "- ", "1. ", ```, a
                    line of = or -) unless the English text has such a line too. Write \\# or
                    1\\. to keep the character where a line must begin with it.

                Each finding is at the line of the translation (its msgstr) in the PO file, as
                po/vi.po:40: error: the translation drops the code span `li2_cid` (the source
                has it 2 times, the translation 1). A header without "Language:" is a warning.
                A line per file ends the output. 'workbook check' runs the same checks when the
                book has a po/LANG.po.

                Exit status: 0 when no translation has an error, 1 when one has (or msgfmt is
                missing), 2 when a PO file cannot be read or is not UTF-8.

                Example:
                  $ workbook i18n check
                  po/vi.po:40: error: the translation adds the code span `li2_cid` (the source ...
                  i18n: po/vi.po: 1234 messages checked, 1 error
                """,
            options: [bookOption])
    ) { arguments, console in
        let root = try bookRoot(arguments)
        let reports: [TranslationCheckReport]
        do throws(TranslationError) {
            reports = try Translations.check(root: root)
        } catch {
            guard error.isToolFailure else { throw CommandError.badInput(error.description) }
            console.error("error: \(error.description)")
            return .failure
        }
        if reports.isEmpty {
            console.print("i18n: no po/LANG.po to check; copy po/messages.pot to start a language")
        }
        for report in reports {
            for finding in report.findings { console.error(finding.description) }
            console.print(report.summary)
        }
        return reports.contains { $0.errors > 0 } ? .failure : .success
    }

    /// The whole number `--name` gives, nil without it; a usage error outside `range`.
    private static func wholeNumber(
        _ arguments: ParsedArguments, _ name: String, in range: ClosedRange<Int>, meaning: String
    ) throws -> Int? {
        guard let text = arguments.value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw CommandError.usage("--\(name) needs \(meaning)", command: ["workbook", "i18n", "status"])
        }
        return number
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
