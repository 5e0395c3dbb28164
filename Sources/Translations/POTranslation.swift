import Foundation
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
        return SiteTranslation(
            language: language,
            markdown: { _, source in MarkdownTranslator.translate(source) { messages[$0] } },
            message: { messages[$0] })
    }
}
