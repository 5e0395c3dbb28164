import Foundation
import Literate

/// How far a translation has come, for `workbook i18n status --part N --min PERCENT`: the rows
/// of one part of the book, and the files below a threshold.
extension Translations {
    /// The chapters of part `number` of `chapters/SUMMARY.md` (1-based, in the order the summary
    /// gives its parts), as paths relative to the book folder, in reading order.
    ///
    /// ```swift
    /// try Translations.chapters(ofPart: 2, root: book)
    /// // ["chapters/13-inside-the-book.md", "chapters/14-inside-custom-schemes.md", …]
    /// ```
    ///
    /// Fails when the book has no summary, the summary is malformed (at its line), or it has no
    /// part `number`; the message then says how many parts there are.
    public static func chapters(ofPart number: Int, root: URL) throws(TranslationError) -> [String] {
        let path = "chapters/\(BookSummary.fileName)"
        let file = root.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw TranslationError("the book has no \(path), so it has no parts to choose from")
        }
        let summary: BookSummary
        do {
            summary = try BookSummary.parse(try BookMessages.readText(file, path: path), path: path)
        } catch let error as TranslationError {
            throw error
        } catch {
            throw TranslationError("\(error)")
        }
        guard (1...summary.parts.count).contains(number) else {
            let count = summary.parts.count
            throw TranslationError(
                "\(path) has \(count) part\(count == 1 ? "" : "s"); there is no part \(number) "
                    + "(give a number from 1 to \(count))")
        }
        return summary.parts[number - 1].entries.map { "chapters/\($0.file)" }
    }

    /// The status of every language, as ``status(root:)``, with `files` its only rows, in that
    /// order (a file the PO file has no message of is a row of zeros), and its first line counting
    /// only their messages.
    public static func status(root: URL, files: [String]) throws(TranslationError) -> [TranslationStatus] {
        var statuses: [TranslationStatus] = []
        for language in try languages(root: root) {
            let path = "\(BookMessages.folder)/\(language).po"
            let file = try POFile.read(root.appendingPathComponent(path), path: path)
            statuses.append(TranslationStatus(language: language, file: file, files: files))
        }
        return statuses
    }
}

extension TranslationStatus {
    /// The status of `file` counting only the messages of `files`: one row per file of `files`,
    /// in that order, and a total that counts each of their messages once.
    public init(language: String, file: POFile, files: [String]) {
        let wanted = Set(files)
        let entries = file.entries.compactMap { entry -> POFile.Entry? in
            var kept = entry
            kept.references = entry.references.filter { wanted.contains($0.path) }
            return kept.references.isEmpty ? nil : kept
        }
        let counted = TranslationStatus(language: language, file: POFile(entries: entries))
        let rows = Dictionary(counted.rows.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var seen: Set<String> = []
        self.init(
            language: language,
            rows: files.filter { seen.insert($0).inserted }.map {
                rows[$0] ?? Row(path: $0, counts: Counts())
            },
            total: counted.total)
    }

    /// Each row below `minimum` percent translated (fuzzy messages do not count as translated),
    /// as a line naming the PO file at `path`, the source file and its share; a row without any
    /// message is one too, since the PO file is then older than the book.
    ///
    /// ```swift
    /// status.shortfalls(minimum: 90, path: "po/vi.po")
    /// // ["po/vi.po: chapters/03-universal-links.md is 42 % translated, below 90 %"]
    /// ```
    public func shortfalls(minimum: Int, path: String) -> [String] {
        rows.compactMap { row in
            let counts = row.counts
            if counts.total == 0 {
                return "\(path) has no message of \(row.path); run 'workbook i18n update'"
            }
            guard counts.translated * 100 < minimum * counts.total else { return nil }
            return "\(path): \(row.path) is \(counts.percentTranslated) translated, below \(minimum) %"
        }
    }
}
