import Foundation
import Literate
import ProcessRunner
import SystemErrors

/// The three jobs of `workbook i18n`: write the template, merge it into every language, count.
public enum Translations {
    /// Extracts the book's messages and writes them to `po/messages.pot` (creating `po/`).
    @discardableResult
    public static func extract(root: URL, theme: ThemeMessages = .none) throws(TranslationError)
        -> MessageCatalog
    {
        let catalog = try BookMessages.catalog(root: root, theme: theme)
        let folder = root.appendingPathComponent(BookMessages.folder)
        let path = "\(BookMessages.folder)/\(BookMessages.templateName)"
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(catalog.potText.utf8).write(
                to: folder.appendingPathComponent(BookMessages.templateName), options: .atomic)
        } catch {
            throw TranslationError("\(path): cannot write the file (\(SystemError.describe(error)))")
        }
        return catalog
    }

    /// The languages that have a PO file (`po/LANG.po`), sorted.
    public static func languages(root: URL) throws(TranslationError) -> [String] {
        let folder = root.appendingPathComponent(BookMessages.folder)
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasSuffix(".po") && !$0.hasPrefix(".") }
                .map { String($0.dropLast(3)) }
                .sorted()
        } catch {
            throw TranslationError(
                "\(BookMessages.folder): cannot list the folder (\(SystemError.describe(error)))")
        }
    }

    /// What ``update(root:msgmerge:)`` did.
    public struct UpdateReport: Equatable, Sendable {
        public var messages: Int
        /// The PO files merged, as `po/vi.po`.
        public var merged: [String]
    }

    /// Extracts the template, then merges it into every `po/LANG.po` with GNU gettext's
    /// `msgmerge`: a message whose source changed keeps its old translation marked fuzzy, a new
    /// one arrives untranslated, a removed one becomes obsolete (`#~`).
    public static func update(
        root: URL, theme: ThemeMessages = .none, msgmerge: String? = BookChecker.findExecutable("msgmerge")
    ) throws(TranslationError) -> UpdateReport {
        let catalog = try extract(root: root, theme: theme)
        let languages = try languages(root: root)
        guard !languages.isEmpty else { return UpdateReport(messages: catalog.messages.count, merged: []) }
        guard let msgmerge else {
            throw TranslationError(
                "msgmerge not found: install GNU gettext (Debian: apt-get install gettext)",
                isToolFailure: true)
        }
        let template = "\(BookMessages.folder)/\(BookMessages.templateName)"
        var merged: [String] = []
        for language in languages {
            let path = "\(BookMessages.folder)/\(language).po"
            let result = Subprocess.run(
                msgmerge, ["--quiet", "--update", "--backup=none", path, template], in: root, timeout: 300,
                stopsOnInterrupt: true)
            guard result.status == 0 else {
                let output = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
                throw TranslationError(
                    result.timedOut
                        ? "\(path): msgmerge took longer than 300 s"
                        : output.isEmpty ? "\(path): msgmerge failed (status \(result.status))" : output,
                    isToolFailure: true)
            }
            merged.append(path)
        }
        return UpdateReport(messages: catalog.messages.count, merged: merged)
    }

    /// The status of every language with a PO file, read with libgettextpo, its rows in the
    /// book's order (``sourceOrder(root:)``).
    public static func status(root: URL) throws(TranslationError) -> [TranslationStatus] {
        var statuses: [TranslationStatus] = []
        let order = try sourceOrder(root: root)
        for language in try languages(root: root) {
            let path = "\(BookMessages.folder)/\(language).po"
            let file = try POFile.read(root.appendingPathComponent(path), path: path)
            var status = TranslationStatus(language: language, file: file)
            // A file of the book by its place there; any other after them, as the PO file names it.
            let places = Dictionary(
                order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            status.rows = status.rows.enumerated().sorted {
                (places[$0.element.path] ?? order.count + $0.offset, $0.offset)
                    < (places[$1.element.path] ?? order.count + $1.offset, $1.offset)
            }.map(\.element)
            statuses.append(status)
        }
        return statuses
    }

    /// The book's files in the order the template takes them: the summary, its chapters in
    /// reading order, then each exercise's task and hints. (A message shared by two files stands
    /// in the PO file where the first of them has it, so the PO file alone cannot tell this order.)
    static func sourceOrder(root: URL) throws(TranslationError) -> [String] {
        let summaryPath = "chapters/\(BookSummary.fileName)"
        var order = [summaryPath]
        let summaryFile = root.appendingPathComponent(summaryPath)
        // A summary that cannot be read leaves the chapters in the PO file's order: `extract`
        // and `check` say what is wrong with it.
        if let text = try? BookMessages.readText(summaryFile, path: summaryPath),
            let summary = try? BookSummary.parse(text, path: summaryPath)
        {
            order += summary.parts.flatMap(\.entries).map { "chapters/\($0.file)" }
        }
        for folder in try BookMessages.exerciseFolders(root: root) {
            order += ["exercises/\(folder)/README.md", "exercises/\(folder)/HINTS.md"]
        }
        return order
    }
}

/// How much of one language is translated, per source file.
public struct TranslationStatus: Equatable, Sendable {
    public struct Counts: Equatable, Sendable {
        public var translated = 0
        public var fuzzy = 0
        public var untranslated = 0

        public init(translated: Int = 0, fuzzy: Int = 0, untranslated: Int = 0) {
            (self.translated, self.fuzzy, self.untranslated) = (translated, fuzzy, untranslated)
        }

        public var total: Int { translated + fuzzy + untranslated }

        /// The share translated, rounded down (`99 %` until the last message is done); `-` when
        /// there is no message.
        public var percentTranslated: String {
            total == 0 ? "-" : "\(translated * 100 / total) %"
        }

        mutating func count(_ entry: POFile.Entry) {
            if entry.isFuzzy {
                fuzzy += 1
            } else if entry.msgstr.isEmpty {
                untranslated += 1
            } else {
                translated += 1
            }
        }
    }

    public struct Row: Equatable, Sendable {
        public var path: String
        public var counts: Counts

        public init(path: String, counts: Counts) { (self.path, self.counts) = (path, counts) }
    }

    public var language: String
    /// One row per source file, in the order the PO file first names them (``Translations/status(root:)``
    /// puts them in the book's order).
    public var rows: [Row]
    /// Every message once, whatever number of files share it.
    public var total: Counts

    public init(language: String, rows: [Row], total: Counts) {
        (self.language, self.rows, self.total) = (language, rows, total)
    }

    /// Counts `file`'s messages: a fuzzy one is fuzzy (even with a translation, which the
    /// translated book does not use), one with an empty translation untranslated. A message
    /// shared by several files counts in each of them.
    public init(language: String, file: POFile) {
        var rows: [Row] = []
        var indexes: [String: Int] = [:]
        var total = Counts()
        for entry in file.entries {
            total.count(entry)
            var seen: Set<String> = []
            for reference in entry.references where seen.insert(reference.path).inserted {
                let index: Int
                if let known = indexes[reference.path] {
                    index = known
                } else {
                    index = rows.count
                    indexes[reference.path] = index
                    rows.append(Row(path: reference.path, counts: Counts()))
                }
                rows[index].counts.count(entry)
            }
        }
        self.init(language: language, rows: rows, total: total)
    }

    /// The table `workbook i18n status` prints for this language.
    public var table: [String] {
        let headings = ("source file", "translated", "fuzzy", "untranslated", "%")
        let percentWidth = "100 %".count
        let pathWidth = max(headings.0.count, rows.map(\.path.count).max() ?? 0, "total".count)
        func line(_ path: String, _ values: (String, String, String, String)) -> String {
            path.padding(toLength: pathWidth, withPad: " ", startingAt: 0) + "  "
                + values.0.leftPadded(headings.1.count) + "  " + values.1.leftPadded(headings.2.count) + "  "
                + values.2.leftPadded(headings.3.count) + "  " + values.3.leftPadded(percentWidth)
        }
        var lines = [
            "\(language): \(total.translated) of \(total.total) messages translated (\(total.percentTranslated)), "
                + "\(total.fuzzy) fuzzy, \(total.untranslated) untranslated",
            line(headings.0, (headings.1, headings.2, headings.3, headings.4)),
        ]
        for row in rows {
            lines.append(
                line(
                    row.path,
                    (
                        "\(row.counts.translated)", "\(row.counts.fuzzy)", "\(row.counts.untranslated)",
                        row.counts.percentTranslated
                    )))
        }
        return lines
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
