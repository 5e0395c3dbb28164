import Foundation
import Literate
import SystemErrors

/// Why a translation command stopped, in words for the person who ran it; with a place in the
/// book (`chapters/SUMMARY.md:7: ...`) when there is one.
public struct TranslationError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    /// True when a tool failed (msgmerge missing or refusing a file) rather than the book or a
    /// PO file being unreadable: the command then exits 1, not 2.
    public var isToolFailure: Bool

    public init(_ description: String, isToolFailure: Bool = false) {
        (self.description, self.isToolFailure) = (description, isToolFailure)
    }
}

/// The theme's own texts a book translates: Markdown pages (`home.md`, `404.md`, pages of its
/// own) and the strings of JSON files (the glossary's terms, the site's words), each relative to
/// the theme folder. A JSON file's messages are the string values of the named keys (every string
/// value when `keys` is nil), one `"key": "value"` pair per line as the files are written.
public struct ThemeMessages: Sendable, Equatable {
    public var folder: String
    public var markdown: [String]
    public var jsonStrings: [(file: String, keys: Set<String>?)]

    public init(folder: String, markdown: [String], jsonStrings: [(file: String, keys: Set<String>?)]) {
        (self.folder, self.markdown, self.jsonStrings) = (folder, markdown, jsonStrings)
    }

    public static let none = ThemeMessages(folder: "site", markdown: [], jsonStrings: [])

    public static func == (lhs: ThemeMessages, rhs: ThemeMessages) -> Bool {
        lhs.folder == rhs.folder && lhs.markdown == rhs.markdown
            && lhs.jsonStrings.map(\.file) == rhs.jsonStrings.map(\.file)
            && lhs.jsonStrings.map(\.keys) == rhs.jsonStrings.map(\.keys)
    }
}

/// Reads the book's translatable texts: the titles of `chapters/SUMMARY.md`, every chapter it
/// lists (in reading order), each exercise's `README.md` and `HINTS.md`, and the theme's texts
/// the book names (``ThemeMessages``).
public enum BookMessages {
    /// The folder of PO files and the template, relative to the book folder.
    public static let folder = "po"
    /// The template's name in ``folder``.
    public static let templateName = "messages.pot"

    /// The catalog of the book at `root`. Fails when a chapter or the summary cannot be read
    /// (at its line, for a malformed summary or a file that is not UTF-8).
    public static func catalog(root: URL, theme: ThemeMessages = .none) throws(TranslationError)
        -> MessageCatalog
    {
        let book: Book
        do {
            book = try Book.load(root: root, inlines: true)
        } catch {
            throw TranslationError(error.description)
        }
        var catalog = MessageCatalog()
        let summaryPath = "chapters/\(BookSummary.fileName)"
        let summaryFile = root.appendingPathComponent(summaryPath)
        if FileManager.default.fileExists(atPath: summaryFile.path) {
            catalog.add(
                try summaryTitles(try readText(summaryFile, path: summaryPath), path: summaryPath),
                path: summaryPath)
        }
        for chapter in book.chapters {
            catalog.add(MarkdownMessages.extract(chapter.source), path: chapter.path)
        }
        for folder in try exerciseFolders(root: root) {
            for name in ["README.md", "HINTS.md"] {
                let path = "exercises/\(folder)/\(name)"
                let file = root.appendingPathComponent(path)
                guard FileManager.default.fileExists(atPath: file.path) else { continue }
                catalog.add(MarkdownMessages.extract(try readText(file, path: path)), path: path)
            }
        }
        for name in theme.markdown {
            let path = "\(theme.folder)/\(name)"
            let file = root.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            catalog.add(MarkdownMessages.extract(try readText(file, path: path)), path: path)
        }
        for (name, keys) in theme.jsonStrings {
            let path = "\(theme.folder)/\(name)"
            let file = root.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            catalog.add(
                try JSONStringMessages.extract(try readText(file, path: path), keys: keys, path: path),
                path: path)
        }
        return catalog
    }

    /// The titles of the summary's parts and chapters, at their lines (not the `# Summary` line
    /// that may open it: mdBook and the site both ignore it).
    static func summaryTitles(_ text: String, path: String) throws(TranslationError) -> [SourceMessage] {
        let summary: BookSummary
        do {
            summary = try BookSummary.parse(text, path: path)
        } catch {
            throw TranslationError(error.description)
        }
        var found: [SourceMessage] = []
        var entries = summary.parts.flatMap(\.entries).makeIterator()
        var nextEntry = entries.next()
        var parts = summary.parts.map(\.title)[...]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let content = line.drop { $0 == " " }
            if let entry = nextEntry, entry.line == number {
                found.append(SourceMessage(text: entry.title, line: number))
                nextEntry = entries.next()
            } else if content.hasPrefix("# "), let part = parts.first,
                content.dropFirst(2).trimmingCharacters(in: .whitespaces) == part
            {
                found.append(SourceMessage(text: part, line: number))
                parts = parts.dropFirst()
            }
        }
        return found
    }

    /// The exercise folders (`exercises/NN-slug/`), sorted by name; none when there is no
    /// `exercises/` folder.
    static func exerciseFolders(root: URL) throws(TranslationError) -> [String] {
        let folder = root.appendingPathComponent("exercises")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else { return [] }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { name in
                    var isFolder: ObjCBool = false
                    return !name.hasPrefix(".")
                        && FileManager.default.fileExists(
                            atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder)
                        && isFolder.boolValue
                }
                .sorted()
        } catch {
            throw TranslationError("exercises: cannot list the folder (\(SystemError.describe(error)))")
        }
    }

    /// A Markdown file's text; not UTF-8 is an error at the line of the first bad byte.
    static func readText(_ file: URL, path: String) throws(TranslationError) -> String {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw TranslationError("\(path): cannot read the file (\(SystemError.describe(error)))")
        }
        if let text = String(data: data, encoding: .utf8) { return text }
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let bad = lines.firstIndex { String(data: Data($0), encoding: .utf8) == nil } ?? 0
        throw TranslationError("\(path):\(bad + 1): error: the file is not UTF-8; save it as UTF-8")
    }
}
