import Foundation
import Literate
import Weave

extension Translations {
    /// The translation of the book into `language`, read from `po/LANG.po` with libgettextpo:
    /// a message is used when it has a translation and is not fuzzy; every other message stays
    /// in English, marked so on the page.
    public static func siteTranslation(root: URL, language: String) throws(TranslationError)
        -> SiteTranslation
    {
        let path = "\(BookMessages.folder)/\(language).po"
        let file = try POFile.read(root.appendingPathComponent(path), path: path)
        var table: [String: String] = [:]
        for entry in file.entries where !entry.isFuzzy && !entry.msgstr.isEmpty {
            table[entry.msgid] = entry.msgstr
        }
        let messages = table
        let catalog = Catalogs.identity(of: messages)
        return SiteTranslation(
            language: language,
            markdown: { _, source in
                translated.value(for: TranslatedSource(catalog: catalog, source: MemoText(source))) {
                    MarkdownTranslator.translate(source) { messages[$0] }
                }
            },
            message: { messages[$0] })
    }

    /// The files translated lately, by their text and the messages they were translated with: a
    /// rebuild translates again only the files that changed, unless a message did.
    private static let translated = Memo<TranslatedSource, TranslatedMarkdown>(capacity: 512)

    private struct TranslatedSource: Hashable, Sendable {
        var catalog: Int
        var source: MemoText
    }
}

/// A number for each distinct table of messages, so that a memo's key names the table without
/// hashing it: the same messages as a table seen before get that table's number.
private enum Catalogs {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var seen: [(messages: [String: String], identity: Int)] = []

    static func identity(of messages: [String: String]) -> Int {
        lock.withLock {
            if let known = seen.first(where: { $0.messages == messages }) { return known.identity }
            let identity = (seen.map(\.identity).max() ?? 0) + 1
            // A few tables are enough: one per language, and the one before the last change.
            seen = Array(seen.suffix(7)) + [(messages, identity)]
            return identity
        }
    }
}
