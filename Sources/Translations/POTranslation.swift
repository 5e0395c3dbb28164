import FileStamps
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
        let url = root.appendingPathComponent(path)
        // Reading a PO file of 2 MB takes libgettextpo over 100 ms; the live site asks for it on
        // every save, and it seldom changed. Without a stamp (no such file) it is read, to fail.
        let readTable = { () throws(TranslationError) -> [String: String] in
            var table: [String: String] = [:]
            for entry in try POFile.read(url, path: path).entries
            where !entry.isFuzzy && !entry.msgstr.isEmpty {
                table[entry.msgid] = entry.msgstr
            }
            return table
        }
        let messages: [String: String]
        if let stamp = FileStamp.of(url.path) {
            messages = try tables.value(for: StampedFile(path: url.path, stamp: stamp), catching: readTable)
        } else {
            messages = try readTable()
        }
        let catalog = Catalogs.identity(of: messages)
        return SiteTranslation(
            language: language,
            markdown: { path, source in
                translated.value(
                    for: TranslatedSource(path: path, catalog: catalog, source: MemoText(source))
                ) {
                    MarkdownTranslator.translate(source) { messages[$0] }
                }
            },
            message: { messages[$0] })
    }

    /// The message tables read lately, by their PO file's path and stamp (device, inode, size,
    /// modification time), as the theme's and the citations' memos key their files.
    private static let tables = Memo<StampedFile, Result<[String: String], TranslationError>>(capacity: 8)

    private struct StampedFile: Hashable, Sendable {
        var path: String
        var stamp: FileStamp
    }

    /// The files translated lately, by their text and the messages they were translated with: a
    /// rebuild translates again only the files that changed, unless a message did.
    private static let translated = Memo<TranslatedSource, TranslatedMarkdown>(capacity: 512, keeping: 4) {
        $0.path
    }

    private struct TranslatedSource: Hashable, Sendable {
        var path: String
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
