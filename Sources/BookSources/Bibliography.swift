import Foundation
import Literate
import StrictJSON

/// The book's bibliography, `chapters/sources.json`: every page or section the book cites, and
/// every rule the book decides itself, each under a key that citations name.
///
/// ```json
/// {
///   "sources": [
///     { "key": "rfc3986-3.1", "label": "RFC 3986 §3.1", "title": "Uniform Resource Identifier
///       (URI): Generic Syntax, section 3.1, Scheme", "publisher": "IETF",
///       "url": "https://www.rfc-editor.org/rfc/rfc3986#section-3.1", "read": "2026-12-05" }
///   ],
///   "decisions": [
///     { "key": "book-record-ttl", "label": "this book: deferred records live 24 hours",
///       "reason": "Li2 says records expire, not when; a day covers a store visit and an install." }
///   ]
/// }
/// ```
///
/// A source with no public copy has `"url": null`; the site says so.
public struct Bibliography: Sendable, Equatable {
    /// A document the book cites.
    public struct Source: Sendable, Equatable {
        public var key: String
        /// What readers see where it is cited: `Apple: Supporting associated domains`.
        public var label: String
        public var title: String
        /// Apple, Android, AOSP, IETF, Li2, … or `Practitioner: NAME` for a practitioner's report.
        public var publisher: String
        /// An `https` address, with the section's anchor when the page has one; nil when the
        /// document has no public copy.
        public var url: String?
        /// The day it was read, `YYYY-MM-DD`.
        public var read: String
        /// Where the entry starts in the file.
        public var line: Int
        public var column: Int
    }

    /// A rule the book decides itself, where Li2 and the platforms say nothing or leave a choice.
    public struct Decision: Sendable, Equatable {
        public var key: String
        /// `this book: ` and what is decided.
        public var label: String
        /// One line: why.
        public var reason: String
        public var line: Int
        public var column: Int
    }

    /// Either kind of entry.
    public enum Entry: Sendable, Equatable {
        case source(Source)
        case decision(Decision)

        public var key: String {
            switch self {
            case .source(let source): source.key
            case .decision(let decision): decision.key
            }
        }

        public var label: String {
            switch self {
            case .source(let source): source.label
            case .decision(let decision): decision.label
            }
        }

        /// Where the entry starts in the bibliography.
        public var location: SourceLocation {
            switch self {
            case .source(let source):
                SourceLocation(path: Bibliography.path, line: source.line, column: source.column)
            case .decision(let decision):
                SourceLocation(path: Bibliography.path, line: decision.line, column: decision.column)
            }
        }
    }

    /// The file, relative to the book.
    public static let path = "chapters/sources.json"
    /// What every decision's label starts with.
    public static let decisionPrefix = "this book: "

    public var sources: [Source] { didSet { index = Self.index(sources, decisions) } }
    public var decisions: [Decision] { didSet { index = Self.index(sources, decisions) } }
    /// Every entry by its key and by its label (the first entry wins), kept with the lists.
    private var index: [String: Entry]

    public init(sources: [Source] = [], decisions: [Decision] = []) {
        (self.sources, self.decisions) = (sources, decisions)
        index = Self.index(sources, decisions)
    }

    /// Equal bibliographies have equal sources and decisions (the index follows from them).
    public static func == (lhs: Bibliography, rhs: Bibliography) -> Bool {
        lhs.sources == rhs.sources && lhs.decisions == rhs.decisions
    }

    /// Every entry, sources first, in file order.
    public var entries: [Entry] { sources.map(Entry.source) + decisions.map(Entry.decision) }

    /// The entry whose key or label is `text`.
    public func entry(_ text: String) -> Entry? { index[text] }

    private static func index(_ sources: [Source], _ decisions: [Decision]) -> [String: Entry] {
        var index: [String: Entry] = [:]
        for entry in sources.map(Entry.source) + decisions.map(Entry.decision) {
            if index[entry.key] == nil { index[entry.key] = entry }
            if index[entry.label] == nil { index[entry.label] = entry }
        }
        return index
    }

    /// Reads the book's bibliography. A book without the file has an empty one; a file that
    /// cannot be read or is not valid gives what could be read and an error at each problem.
    public static func read(bookRoot: URL) -> (Bibliography, [Diagnostic]) {
        let url = bookRoot.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: url.path) else { return (Bibliography(), []) }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return (
                Bibliography(),
                [.init(.error, text: SourceMessage.unreadable.text, at: .init(path: path, line: 1))]
            )
        }
        return parse(data, path: path)
    }

    /// Reads a bibliography's text; `path` names the file in diagnostics.
    public static func parse(_ data: Data, path: String) -> (Bibliography, [Diagnostic]) {
        if let problem = JSONSyntax.firstProblem(in: data) {
            return (
                Bibliography(),
                [
                    .init(
                        .error, text: SourceMessage.invalidJSON(problem.message).text,
                        at: .init(path: path, line: problem.line, column: problem.column))
                ]
            )
        }
        guard let value = try? JSONValue(data: data), case .object(let root) = value,
            let positions = JSONSyntax.valuePositions(in: data)
        else {
            return (
                Bibliography(),
                [.init(.error, text: SourceMessage.notAnObject.text, at: .init(path: path, line: 1))]
            )
        }
        var reader = EntryReader(path: path, positions: positions)
        for name in root.keys.sorted() where name != "sources" && name != "decisions" {
            reader.error(.unknownMember(name, allowed: ["sources", "decisions"]), at: name)
        }
        var bibliography = Bibliography()
        bibliography.sources = reader.list(root["sources"], at: "sources", required: true) {
            reader, object, at in
            reader.source(object, at: at)
        }
        bibliography.decisions = reader.list(root["decisions"], at: "decisions", required: false) {
            reader, object, at in reader.decision(object, at: at)
        }
        var seen: [String: String] = [:]
        for entry in bibliography.entries {
            for (name, text) in [("key", entry.key), ("label", entry.label)] {
                var location = entry.location
                location.path = path
                if let first = seen[text] {
                    reader.diagnostics.append(
                        .init(
                            .error, text: SourceMessage.duplicate(name, text, first: first).text, at: location
                        ))
                } else {
                    seen[text] = "line \(location.line)"
                }
            }
        }
        return (bibliography, reader.diagnostics.sorted(by: Diagnostic.bookOrder))
    }
}

/// Reads the entries of a bibliography's JSON value, one diagnostic per problem at its place.
private struct EntryReader {
    let path: String
    let positions: [String: JSONSyntax.Position]
    var diagnostics: [Diagnostic] = []

    static let sourceMembers = ["key", "label", "title", "publisher", "url", "read"]
    static let decisionMembers = ["key", "label", "reason"]

    func location(_ jsonPath: String) -> SourceLocation {
        let position = positions[jsonPath] ?? JSONSyntax.Position(line: 1, column: 1)
        return SourceLocation(path: path, line: position.line, column: position.column)
    }

    mutating func error(_ message: SourceMessage, at jsonPath: String) {
        diagnostics.append(.init(.error, text: message.text, at: location(jsonPath)))
    }

    /// The entries of the array at `at`, each read by `read`; an entry with a problem is left out.
    mutating func list<Entry>(
        _ value: JSONValue?, at: String, required: Bool,
        _ read: (inout EntryReader, [String: JSONValue], String) -> Entry?
    ) -> [Entry] {
        guard let value else {
            if required { error(.missingMember(at), at: "$") }
            return []
        }
        guard case .array(let items) = value else {
            error(.notAnArray(at), at: at)
            return []
        }
        var entries: [Entry] = []
        for (index, item) in items.enumerated() {
            let itemPath = JSONSyntax.path(at, index: index)
            guard case .object(let object) = item else {
                error(.entryNotAnObject, at: itemPath)
                continue
            }
            if let entry = read(&self, object, itemPath) { entries.append(entry) }
        }
        return entries
    }

    mutating func source(_ object: [String: JSONValue], at entryPath: String) -> Bibliography.Source? {
        let before = diagnostics.count
        unknownMembers(object, allowed: Self.sourceMembers, at: entryPath)
        let key = string(object, "key", at: entryPath)
        let label = string(object, "label", at: entryPath)
        let title = string(object, "title", at: entryPath)
        let publisher = string(object, "publisher", at: entryPath)
        let read = string(object, "read", at: entryPath)
        var url: String?
        let urlPath = JSONSyntax.path(entryPath, member: "url")
        switch object["url"] {
        case nil: error(.missingMember("url"), at: entryPath)
        case .null: url = nil
        case .string(let text):
            url = text
            if !Self.isHTTPS(text) { error(.notHTTPS(text), at: urlPath) }
        default: error(.notAString("url", orNull: true), at: urlPath)
        }
        if let key { checkKey(key, at: JSONSyntax.path(entryPath, member: "key")) }
        if let label, label.hasPrefix(Bibliography.decisionPrefix) || label == "this book" {
            error(.sourceLabelIsADecision(label), at: JSONSyntax.path(entryPath, member: "label"))
        }
        if let read, !Self.isDate(read) {
            error(.invalidDate(read), at: JSONSyntax.path(entryPath, member: "read"))
        }
        guard diagnostics.count == before, let key, let label, let title, let publisher, let read else {
            return nil
        }
        let start = location(entryPath)
        return Bibliography.Source(
            key: key, label: label, title: title, publisher: publisher, url: url, read: read,
            line: start.line, column: start.column)
    }

    mutating func decision(_ object: [String: JSONValue], at entryPath: String) -> Bibliography.Decision? {
        let before = diagnostics.count
        unknownMembers(object, allowed: Self.decisionMembers, at: entryPath)
        let key = string(object, "key", at: entryPath)
        let label = string(object, "label", at: entryPath)
        let reason = string(object, "reason", at: entryPath)
        if let key { checkKey(key, at: JSONSyntax.path(entryPath, member: "key")) }
        if let label,
            !label.hasPrefix(Bibliography.decisionPrefix) || label.count <= Bibliography.decisionPrefix.count
        {
            error(.decisionLabel(label), at: JSONSyntax.path(entryPath, member: "label"))
        }
        if let reason, reason.contains("\n") {
            error(.reasonNotOneLine, at: JSONSyntax.path(entryPath, member: "reason"))
        }
        guard diagnostics.count == before, let key, let label, let reason else { return nil }
        let start = location(entryPath)
        return Bibliography.Decision(
            key: key, label: label, reason: reason, line: start.line, column: start.column)
    }

    /// A member that must be a non-empty string.
    private mutating func string(_ object: [String: JSONValue], _ name: String, at entryPath: String)
        -> String?
    {
        guard let value = object[name] else {
            error(.missingMember(name), at: entryPath)
            return nil
        }
        guard case .string(let text) = value, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            error(.notAString(name, orNull: false), at: JSONSyntax.path(entryPath, member: name))
            return nil
        }
        return text
    }

    private mutating func unknownMembers(
        _ object: [String: JSONValue], allowed: [String], at entryPath: String
    ) {
        for name in object.keys.sorted() where !allowed.contains(name) {
            error(.unknownMember(name, allowed: allowed), at: JSONSyntax.path(entryPath, member: name))
        }
    }

    /// Keys are what links name: lower-case letters, digits, `-` and `.`, starting with a letter
    /// or digit, so that `source:KEY` reads as one word in Markdown.
    private mutating func checkKey(_ key: String, at keyPath: String) {
        let allowed = key.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "."
        }
        if !allowed || key.first == "-" || key.first == "." { error(.invalidKey(key), at: keyPath) }
    }

    static func isHTTPS(_ text: String) -> Bool {
        guard text.hasPrefix("https://"), let components = URLComponents(string: text),
            let host = components.host, !host.isEmpty
        else { return false }
        return !text.contains(where: \.isWhitespace)
    }

    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return false }
        return year >= 1990 && (1...12).contains(month) && (1...31).contains(day)
    }
}
