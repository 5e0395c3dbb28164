import Foundation
import Literate
import StrictJSON

/// The site's own words: every word a reader sees that the book's Markdown does not give —
/// badges, navigation, labels, the generated pages' headings and sentences, the scripts'
/// messages — read from the theme's `words.json`, so that a translated build can replace them all.
///
/// The file is one flat JSON object, one `"key": "value"` pair per line. Keys are lowercase and
/// dotted by area (`nav.next`, `badge.compiled`, `lab.aasa.button`); a value is plain text, or
/// HTML or Markdown when its key ends in `.html` or `.markdown`. A value may hold `{name}`
/// placeholders, which ``format(_:_:)`` fills.
///
/// ```swift
/// let words = try SiteWords(json: #"{"reading.minutes": "About {minutes} min to read"}"#)
/// words.format("reading.minutes", ["minutes": "4"])   // "About 4 min to read"
/// words["nav.next"]                                     // "nav.next": a missing word shows its key
/// ```
///
/// A missing word never becomes an empty string: it shows its key, and the build reports it
/// before that can happen (``missing(_:)``, checked for the generator's words, the template's and
/// the scripts').
public struct SiteWords: Sendable, Hashable {
    /// The words by key.
    public var entries: [String: String]

    /// The theme's file of words, relative to the theme folder.
    public static let file = "words.json"

    public init(_ entries: [String: String] = [:]) {
        self.entries = entries
    }

    /// Reads a `words.json` text. Throws ``WeaveMessage/invalidWords(line:detail:)`` at the line
    /// of the first problem: a syntax error, a value that is not a string, a key that is not
    /// lowercase and dotted, or a key written twice.
    public init(json text: String) throws(WeaveMessage) {
        let data = Data(text.utf8)
        if let problem = JSONSyntax.firstProblem(in: data) {
            throw .invalidWords(line: problem.line, detail: problem.message)
        }
        guard case .object(let members)? = try? JSONValue(data: data) else {
            throw .invalidWords(line: 1, detail: "the file must be one JSON object of words")
        }
        // Where each value stands is found only for an error message: it costs more than the rest.
        func line(_ key: String) -> Int {
            JSONSyntax.valuePositions(in: data)?[JSONSyntax.path("$", member: key)]?.line ?? 1
        }
        var seen: [String: Int] = [:]
        for (index, textLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let key = Self.key(onLine: textLine) else { continue }
            if let first = seen[key] {
                throw .invalidWords(
                    line: index + 1, detail: "the key '\(key)' is written twice (first on line \(first))")
            }
            seen[key] = index + 1
        }
        var entries: [String: String] = [:]
        for (key, value) in members {
            guard Self.isKey(key) else {
                throw .invalidWords(
                    line: line(key),
                    detail: "'\(key)' is not a key: write lowercase words joined by dots, such as 'nav.next'")
            }
            guard case .string(let word) = value else {
                throw .invalidWords(line: line(key), detail: "the word '\(key)' is not a string")
            }
            entries[key] = word
        }
        self.entries = entries
    }

    /// The word for `key`, or the key itself when there is none (so that a missing word shows).
    public subscript(key: String) -> String {
        entries[key] ?? key
    }

    /// The word for `key` with each `{name}` placeholder replaced by `values[name]`; placeholders
    /// without a value stay as they are.
    ///
    /// ```swift
    /// words.format("nav.minutes", ["minutes": "12"])   // "12 min"
    /// ```
    public func format(_ key: String, _ values: [String: String]) -> String {
        Self.fill(self[key], values)
    }

    /// The keys of `keys` that have no word, sorted.
    public func missing<Keys: Sequence>(_ keys: Keys) -> [String] where Keys.Element == String {
        Set(keys.filter { entries[$0] == nil }).sorted()
    }

    /// `word` with each `{name}` placeholder replaced by `values[name]`, and the text around
    /// them passed through `literal` (an escape for the context the word goes into).
    static func fill(
        _ word: String, _ values: [String: String], literal: (String) -> String = { $0 }
    ) -> String {
        var result = ""
        var text = ""
        var rest = Substring(word)
        while let open = rest.firstIndex(of: "{") {
            text += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}"),
                let value = values[String(rest[afterOpen..<close])]
            else {
                text.append("{")
                rest = rest[afterOpen...]
                continue
            }
            result += literal(text) + value
            text = ""
            rest = rest[rest.index(after: close)...]
        }
        return result + literal(text + rest)
    }

    /// Whether `text` is a key: lowercase letters, digits and `-`, in two or more parts joined by dots.
    static func isKey(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2
            && parts.allSatisfy { part in
                !part.isEmpty
                    && part.utf8.allSatisfy {
                        ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                            || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-")
                    }
            }
    }

    /// The key a line of the file starts with (`  "nav.next": "Next",` gives `nav.next`).
    private static func key(onLine line: Substring) -> String? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix("\"") else { return nil }
        let afterQuote = trimmed.dropFirst()
        guard let end = afterQuote.firstIndex(of: "\""),
            afterQuote[afterQuote.index(after: end)...].drop(while: { $0 == " " }).hasPrefix(":")
        else { return nil }
        return String(afterQuote[..<end])
    }

    // MARK: The scripts' words

    /// The words of `keys` as one line of JSON for a page's
    /// `<script id="site-words" type="application/json">`: keys sorted, and every `<` written
    /// `\u003c`, so that no word can close the element.
    func scriptJSON(_ keys: [String]) -> String {
        var out = "{"
        for (index, key) in keys.sorted().enumerated() {
            if index > 0 { out += "," }
            out += Self.jsonString(key) + ":" + Self.jsonString(self[key])
        }
        return out + "}"
    }

    /// A JSON string literal that cannot end the `<script>` element it sits in: `<` escaped.
    private static func jsonString(_ text: String) -> String {
        let quoted = JSONValue.quoted(text)
        // Most words hold no `<`: Foundation's replacement walks the text even then.
        return quoted.containsBytes("<") ? quoted.replacingOccurrences(of: "<", with: "\\u003c") : quoted
    }

    /// The keys a theme script asks for: each `t("key"` call in its text, with the line of the
    /// first, in order. Keys are always written as literals, so that this scan finds every one.
    static func scriptKeys(in script: String) -> [(key: String, line: Int)] {
        var found: [(key: String, line: Int)] = []
        var seen: Set<String> = []
        var script = script
        script.withUTF8 { bytes in
            let (newline, quote) = (UInt8(ascii: "\n"), UInt8(ascii: "\""))
            var line = 1
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == newline { line += 1 }
                guard byte == UInt8(ascii: "t"), index + 2 < bytes.count,
                    bytes[index + 1] == UInt8(ascii: "("),
                    bytes[index + 2] == quote
                else {
                    index += 1
                    continue
                }
                // `t(` alone, not the end of another name (`split("`).
                if index > 0, isNamePart(bytes[index - 1]) {
                    index += 3
                    continue
                }
                var end = index + 3
                while end < bytes.count, bytes[end] != quote, bytes[end] != newline { end += 1 }
                // Without its closing quote on the line, the rest of the line holds no key.
                guard end < bytes.count, bytes[end] == quote else {
                    index = end
                    continue
                }
                let key = String(
                    decoding: UnsafeBufferPointer(rebasing: bytes[(index + 3)..<end]), as: UTF8.self)
                if isKey(key), seen.insert(key).inserted { found.append((key, line)) }
                index = end + 1
            }
        }
        return found
    }

    /// A byte that may end a JavaScript name: an ASCII letter, digit, `_` or `$`, or any byte of
    /// a character beyond ASCII (most of which that stand there are letters).
    private static func isNamePart(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...:
            return true
        default:
            return false
        }
    }
}

extension SiteWords {
    /// Reads `words.json` from a theme folder. A missing or malformed file is a `Diagnostic` at
    /// `site/words.json` (at the line of the problem).
    /// The words files read lately, by their text: every build of every language reads the file.
    private static let parsed = Memo<MemoText, Result<SiteWords, WeaveMessage>>(capacity: 4)

    public static func load(themeFolder: URL) throws(Diagnostic) -> SiteWords {
        let url = themeFolder.appendingPathComponent(file)
        guard let text = Theme.read(url) else {
            throw Diagnostic(
                .error, text: WeaveMessage.wordsMissing(path: url.path).text,
                at: SourceLocation(path: "site/" + file, line: 1))
        }
        do {
            return try parsed.value(
                for: MemoText(text),
                catching: { () throws(WeaveMessage) in
                    try SiteWords(json: text)
                })
        } catch {
            var line = 1
            if case .invalidWords(let at, _) = error { line = at }
            throw Diagnostic(.error, text: error.text, at: SourceLocation(path: "site/" + file, line: line))
        }
    }

    /// An error naming every key of `keys` that has no word, and who uses them; nil when none is
    /// missing.
    public func missingDiagnostic<Keys: Sequence>(_ keys: Keys, usedBy user: String) -> Diagnostic?
    where Keys.Element == String {
        let absent = missing(keys)
        guard !absent.isEmpty else { return nil }
        return Diagnostic(
            .error, text: WeaveMessage.missingWords(keys: absent, user: user).text,
            at: SourceLocation(path: "site/" + Self.file, line: 1))
    }
}

extension SiteInput {
    /// The words every page of this build says: the options' (a translated build's) when given,
    /// else the theme's.
    var words: SiteWords { options.words ?? theme.words }
}

/// The words the site generator's Swift says, each a key of the theme's `words.json`: one
/// declared list, which every build checks against its words before it writes a page.
enum WeaveWord: String, CaseIterable, Sendable {
    // A borrowed theme's pages that describe a book: plain defaults.
    case themeHome = "borrowed.home.markdown"
    case themeNotFound = "borrowed.not-found.markdown"
    /// `<meta name="description">`: the book's name and the page's title.
    case pageDescription = "page.description"

    case badgeCompiled = "badge.compiled"
    case badgeCompiledTitle = "badge.compiled.title"
    case badgeTested = "badge.tested"
    case badgeTestedTitle = "badge.tested.title"
    case badgeTangled = "badge.tangled"
    case badgeTangledTitle = "badge.tangled.title"
    case badgeChecked = "badge.checked"
    case badgeCheckedTitle = "badge.checked.title"
    case badgeFailed = "badge.failed"
    case badgeFailedTitle = "badge.failed.title"
    case badgeParseChecked = "badge.parse-checked"
    case badgeParseCheckedTitle = "badge.parse-checked.title"
    case badgeUnused = "badge.unused"
    case badgeUnusedTitle = "badge.unused.title"
    case badgeDisplayOnly = "badge.display-only"
    case badgeDisplayOnlyTitle = "badge.display-only.title"

    case navChapters = "nav.chapters"
    case navExercises = "nav.exercises"
    case navReference = "nav.reference"
    case navMinutes = "nav.minutes"
    case navPrint = "nav.print"
    case tocTitle = "toc.title"
    case headingAnchorLabel = "heading.anchor.label"
    case languageSwitchTitle = "language.switch.title"
    case translationComplete = "translation.complete"
    case translationPartial = "translation.partial"
    case homeContents = "home.contents"
    case homeExercises = "home.exercises"
    case exerciseHints = "exercise.hints"
    case exerciseSolution = "exercise.solution"
    case exerciseSolutionIntro = "exercise.solution.intro"
    case pagerLabel = "pager.label"
    case pagerPrevious = "pager.previous"
    case pagerNext = "pager.next"
    case printTitle = "print.title"
    case readingMinutes = "reading.minutes"

    case codeUsedIn = "code.used-in.html"
    case codeAtLine = "code.at-line"
    case codeFoldLabel = "code.fold.label"
    case codeFoldTestOne = "code.fold.test.one"
    case codeFoldTestOther = "code.fold.test.other"
    case codeFoldLineOne = "code.fold.line.one"
    case codeFoldLineOther = "code.fold.line.other"
    case codeFoldSummary = "code.fold.summary"

    case tryitLabel = "tryit.label"
    case tryitTitle = "tryit.title"
    case tryitPath = "tryit.path"
    case tryitHeaders = "tryit.headers"
    case tryitBody = "tryit.body"
    case tryitNoBody = "tryit.no-body"
    case tryitSend = "tryit.send"
    case tryitOffline = "tryit.offline.html"
    /// What a page's script replaces with the running server's publishable key.
    case tryitPublishableKey = "tryit.publishable-key"
    case tryitSecretKey = "tryit.secret-key"
    case tryitSecretKeyNote = "tryit.secret-key-note.html"

    case tableYes = "table.yes"
    case tableNo = "table.no"

    case glossaryTitle = "glossary.title"
    case glossaryAlso = "glossary.also"
    case glossaryExplainedIn = "glossary.explained-in.markdown"

    case snippetsTitle = "snippets.title"
    case snippetsIntro = "snippets.intro.markdown"
    case snippetsByStatus = "snippets.by-status"
    case snippetsStatusTested = "snippets.status.tested"
    case snippetsStatusCompiled = "snippets.status.compiled"
    case snippetsStatusTangled = "snippets.status.tangled"
    case snippetsStatusParseChecked = "snippets.status.parse-checked"
    case snippetsStatusChecked = "snippets.status.checked"
    case snippetsStatusFailed = "snippets.status.failed"
    case snippetsStatusUnused = "snippets.status.unused"
    case snippetsStatusDisplayOnly = "snippets.status.display-only"
    case snippetsCoverage = "snippets.coverage.markdown"
    case snippetsNoCoverage = "snippets.no-coverage.markdown"
    case snippetsTangled = "snippets.tangled"
    case snippetsOthers = "snippets.others"
    case snippetsColumnChunk = "snippets.column.chunk"
    case snippetsColumnWritesTo = "snippets.column.writes-to"
    case snippetsColumnModule = "snippets.column.module"
    case snippetsColumnStatus = "snippets.column.status"
    case snippetsColumnTested = "snippets.column.tested"
    case snippetsColumnChapter = "snippets.column.chapter"
    case snippetsColumnBlock = "snippets.column.block"
    case snippetsColumnLanguage = "snippets.column.language"
    case snippetsLine = "snippets.line"

    case citationsEntryLink = "citations.entry-link"
    case citationsCitedNowhere = "citations.cited-nowhere"
    case citationsCitedIn = "citations.cited-in.markdown"

    case apiMissing = "api.missing.markdown"
    case apiVersion = "api.version.markdown"
    case apiVersionOpenAPI = "api.version-openapi.markdown"
    case apiServers = "api.servers"
    case apiAuthentication = "api.authentication"
    case apiEndpoints = "api.endpoints"
    case apiSchemas = "api.schemas"
    case apiParameters = "api.parameters"
    case apiRequestBody = "api.request-body"
    case apiRequestBodyRequired = "api.request-body-required"
    case apiResponses = "api.responses"
    case apiType = "api.type.markdown"
    case apiEnum = "api.enum.markdown"
    case apiExample = "api.example.markdown"
    case apiColumnScheme = "api.column.scheme"
    case apiColumnType = "api.column.type"
    case apiColumnWhere = "api.column.where"
    case apiColumnDescription = "api.column.description"
    case apiColumnName = "api.column.name"
    case apiColumnIn = "api.column.in"
    case apiColumnRequired = "api.column.required"
    case apiColumnProperty = "api.column.property"
    case apiTypeAny = "api.type.any"
    case apiTypeOr = "api.type.or"
    case apiTypeAllOf = "api.type.all-of"
    case apiTypeOneOf = "api.type.one-of"
    case apiTypeArrayOf = "api.type.array-of"
    case apiTypeNullable = "api.type.nullable"
}

extension SiteWords {
    subscript(_ word: WeaveWord) -> String { self[word.rawValue] }

    func format(_ word: WeaveWord, _ values: [String: String]) -> String { format(word.rawValue, values) }

    /// The word for Markdown: a `.markdown` word as it is, any other with its text escaped (so
    /// that it reads literally); the values go in as they are, being Markdown already.
    func markdown(_ word: WeaveWord, _ values: [String: String] = [:]) -> String {
        word.rawValue.hasSuffix(".markdown")
            ? format(word, values) : Self.fill(self[word], values, literal: MarkdownText.escape)
    }

    /// A Markdown table's header row and delimiter row, its columns named by `columns`.
    func tableHeader(_ columns: [WeaveWord]) -> String {
        "| " + columns.map { markdown($0) }.joined(separator: " | ") + " |\n|"
            + String(repeating: " --- |", count: columns.count) + "\n"
    }
}
