import Foundation
import Literate
import ProcessRunner
import Weave

/// One finding of `workbook i18n check`: a PO file, the line of the `msgstr` it is about (nil for
/// a finding about the whole file), and what is wrong, printed as editors expect.
///
/// ```swift
/// TranslationFinding(path: "po/vi.po", line: 40, severity: .error, text: "the translation …")
///     .description  // "po/vi.po:40: error: the translation …"
/// ```
public struct TranslationFinding: Equatable, Sendable, CustomStringConvertible {
    public enum Severity: String, Equatable, Sendable {
        case warning, error
    }

    public var path: String
    public var line: Int?
    public var severity: Severity
    public var text: String

    public init(path: String, line: Int?, severity: Severity, text: String) {
        (self.path, self.line, self.severity, self.text) = (path, line, severity, text)
    }

    public var description: String {
        "\(path)\(line.map { ":\($0)" } ?? ""): \(severity.rawValue): \(text)"
    }
}

/// What ``Translations/check(root:msgfmt:)`` found in one PO file.
public struct TranslationCheckReport: Equatable, Sendable {
    /// The PO file, as `po/vi.po`.
    public var path: String
    /// The messages whose translations were checked: translated and not fuzzy.
    public var checked: Int
    /// GNU msgfmt's findings first, in its order, then the book's own rules, in file order.
    public var findings: [TranslationFinding]

    public init(path: String, checked: Int, findings: [TranslationFinding]) {
        (self.path, self.checked, self.findings) = (path, checked, findings)
    }

    public var errors: Int { findings.filter { $0.severity == .error }.count }
    public var warnings: Int { findings.filter { $0.severity == .warning }.count }

    /// `i18n: po/vi.po: 1234 messages checked, 0 errors` (and `, 1 warning` when there are any).
    public var summary: String {
        var line =
            "i18n: \(path): \(checked) message\(checked == 1 ? "" : "s") checked, "
            + "\(errors) error\(errors == 1 ? "" : "s")"
        if warnings > 0 { line += ", \(warnings) warning\(warnings == 1 ? "" : "s")" }
        return line
    }
}

extension Translations {
    /// How long one run of msgfmt may take on one PO file.
    public static let msgfmtTimeout: TimeInterval = 120

    /// Checks every `po/LANG.po` of the book at `root` (see ``TranslationChecks``): GNU gettext's
    /// `msgfmt --check`, then the book's own rules on every translated message that is not fuzzy.
    ///
    /// Fails as a tool failure when there is a PO file and no `msgfmt`, and as bad input when a PO
    /// file cannot be read or is not UTF-8. A PO file gettext cannot parse is not a failure: its
    /// errors are findings, at their lines.
    public static func check(
        root: URL, msgfmt: String? = BookChecker.findExecutable("msgfmt")
    ) throws(TranslationError) -> [TranslationCheckReport] {
        let languages = try languages(root: root)
        guard !languages.isEmpty else { return [] }
        guard let msgfmt else {
            throw TranslationError(
                "msgfmt not found: install GNU gettext (Debian: apt-get install gettext)", isToolFailure: true
            )
        }
        var reports: [TranslationCheckReport] = []
        for language in languages {
            let path = "\(BookMessages.folder)/\(language).po"
            let file = root.appendingPathComponent(path)
            let text = try BookMessages.readText(file, path: path)
            let result = Subprocess.run(
                msgfmt, ["--check", "--statistics", "-o", "/dev/null", path], in: root,
                timeout: msgfmtTimeout,
                stopsOnInterrupt: true)
            var findings = TranslationChecks.msgfmtFindings(
                result.output, path: path, status: result.status, timedOut: result.timedOut)
            let read: POFile?
            do {
                read = try POFile.read(file, path: path)
            } catch {
                // msgfmt reports what libgettextpo refuses, at the same lines; say it once.
                if !findings.contains(where: { $0.severity == .error }) {
                    findings += TranslationChecks.findings(inErrorText: error.description, path: path)
                }
                read = nil
            }
            var checked = 0
            if let read {
                let own = TranslationChecks.findings(text: text, path: path, file: read)
                checked = own.checked
                findings += own.findings
            }
            reports.append(TranslationCheckReport(path: path, checked: checked, findings: findings))
        }
        return reports
    }
}

/// `workbook check`'s hook for the translations: ``Translations/check(root:msgfmt:)`` as a check of
/// the book as a whole, so that the engine's `check` command runs it without knowing about PO
/// files. A book without a `po/LANG.po` gets no findings and no summary line.
public struct TranslationCheck: BookCheck {
    public init() {}

    public var name: String { "i18n" }

    public func check(_ book: Book) -> BookCheckResult {
        let reports: [TranslationCheckReport]
        do {
            reports = try Translations.check(root: book.root)
        } catch {
            return BookCheckResult(diagnostics: error.description.split(separator: "\n").map(Self.diagnostic))
        }
        guard !reports.isEmpty else { return BookCheckResult(diagnostics: []) }
        return BookCheckResult(
            diagnostics: reports.flatMap { $0.findings.map(\.diagnostic) },
            summary: reports.map(\.summary).joined(separator: "\n"))
    }

    /// A line of a ``TranslationError``: `po/vi.po:3: error: text` at its place, any other line
    /// (`msgfmt not found: …`) an error without one.
    private static func diagnostic(_ line: Substring) -> Diagnostic {
        let path = String(line.prefix { $0 != ":" })
        let finding = TranslationChecks.findings(inErrorText: String(line), path: path)[0]
        guard finding.line != nil else { return Diagnostic(.error, text: String(line), at: nil) }
        return finding.diagnostic
    }
}

extension TranslationFinding {
    /// The finding as the engine's diagnostic: at column 1 of its line, or, for a finding about
    /// the whole file, without a place and with the file's name in front.
    var diagnostic: Diagnostic {
        let severity: Diagnostic.Severity = severity == .error ? .error : .warning
        guard let line else { return Diagnostic(severity, text: "\(path): \(text)", at: nil) }
        return Diagnostic(severity, text: text, at: SourceLocation(path: path, line: line))
    }
}

/// The rules a translation of the book is held to, as pure functions over strings; the one that
/// reads files is ``Translations/check(root:msgfmt:)``.
///
/// For every message that is translated and not fuzzy:
///
/// - **What must be kept.** The translation has the source's inline code spans (the text inside
///   backtick runs, matched as CommonMark does: a run of N backticks closes at the next run of
///   exactly N), its link and image targets (`](target)`, and autolinks such as
///   `<https://example.com>`), its citations whole (a link whose target is `source:KEY` or
///   `decision:KEY` keeps its text word for word: it is the label of the book's bibliography),
///   its inline HTML tags, and its `{placeholders}`: each as many times as the source has it.
///   Link titles and image descriptions are text, and are translated.
/// - **The Markdown block structure stays.** No line is empty (that would split a paragraph in
///   two). No line after the first starts, after its indentation, with a block marker the
///   source's lines (after its first) do not also
///   start with: `#` to `######` then a space (a heading), `>` (a block quote), `|` (a table
///   row), `-`, `*` or `+` then a space (a list item), `1.` or `1)` then a space (a numbered
///   item), three backticks or tildes (a code block), a line of only `=` or `-` (which turns the
///   line before into a heading), or `***` or `___` (a thematic break). Escape a marker that
///   must begin a line: `\#`, `\|`, `1\.`. The rules do not know which kind of element a message
///   comes from, so a heading or a table cell translated over two lines is not caught (the
///   translated site puts a translation back on its source's lines, word by word); a line
///   break inside a paragraph or a list item is harmless.
///
/// And per file: a header without a `Language:` value is a warning.
public enum TranslationChecks {
    /// The findings of the book's own rules for the PO file `text` at `path`, which libgettextpo
    /// read as `file`: a warning for a header without a language, then each translated message's
    /// problems at the line of its `msgstr`. `checked` counts the messages whose translations
    /// were checked.
    ///
    /// The lines come from the text itself (libgettextpo does not give them): its entries are
    /// matched with `file`'s in order by their `msgid`, leaving out the header and obsolete
    /// (`#~`) entries, as libgettextpo does.
    public static func findings(text: String, path: String, file: POFile) -> (
        checked: Int, findings: [TranslationFinding]
    ) {
        let entries = POText.entries(text)
        var findings: [TranslationFinding] = []
        let header = entries.first { $0.msgctxt == nil && $0.msgid == "" }
        if let problem = languageProblem(header: header?.msgstr, path: path) {
            findings.append(
                TranslationFinding(
                    path: path, line: header?.msgstrLine ?? 1, severity: .warning, text: problem))
        }
        var positions = entries.filter { !($0.msgctxt == nil && $0.msgid == "") }[...]
        var checked = 0
        for entry in file.entries {
            var line: Int?
            if let index = positions.firstIndex(where: { $0.msgid == entry.msgid }) {
                line = positions[index].msgstrLine
                positions = positions[(index + 1)...]
            }
            guard !entry.isFuzzy, !entry.msgstr.isEmpty else { continue }
            checked += 1
            for problem in problems(original: entry.msgid, translation: entry.msgstr) {
                findings.append(TranslationFinding(path: path, line: line, severity: .error, text: problem))
            }
        }
        return (checked, findings)
    }

    /// Everything wrong with `translation` as a translation of `original` (a msgid): what it drops
    /// or adds (``keptElements(_:)``), then its block structure
    /// (``structureProblems(original:translation:)``).
    ///
    /// ```swift
    /// TranslationChecks.problems(original: "Send `li2_cid`.", translation: "Gửi li2_cid.")
    /// // ["the translation drops the code span `li2_cid` (the source has it 1 time, the translation 0)"]
    /// ```
    public static func problems(original: String, translation: String) -> [String] {
        let kept = (keptElements(original), keptElements(translation))
        var found: [String] = []
        found += compare("code span", kept.0.codeSpans, kept.1.codeSpans, show: MarkdownText.code)
        found += compare("link target", kept.0.targets, kept.1.targets, show: MarkdownText.code)
        found += compare("citation", kept.0.citations, kept.1.citations) { $0 }
        found += compare("HTML tag", kept.0.htmlTags, kept.1.htmlTags, show: MarkdownText.code)
        found += compare("placeholder", kept.0.placeholders, kept.1.placeholders, show: MarkdownText.code)
        return found + structureProblems(original: original, translation: translation)
    }

    /// The parts of a message that a translation keeps as they are, in the order they appear.
    public struct KeptElements: Equatable, Sendable {
        /// The contents of inline code spans, as CommonMark reads them (a space at both ends
        /// stripped once, a line break read as a space).
        public var codeSpans: [String] = []
        /// The targets of links and images, and of autolinks; not those of citations.
        public var targets: [String] = []
        /// Links to `source:KEY` or `decision:KEY`, whole: `[Apple: Title](source:key)`.
        public var citations: [String] = []
        /// Inline HTML tags as written (white space inside read as one space): `<kbd>`, `</kbd>`.
        public var htmlTags: [String] = []
        /// `{name}`: a word in braces, outside code spans, that the site fills in.
        public var placeholders: [String] = []

        public init(
            codeSpans: [String] = [], targets: [String] = [], citations: [String] = [],
            htmlTags: [String] = [],
            placeholders: [String] = []
        ) {
            (self.codeSpans, self.targets, self.citations) = (codeSpans, targets, citations)
            (self.htmlTags, self.placeholders) = (htmlTags, placeholders)
        }
    }

    /// The targets of links whose label must stay word for word: the book's citations.
    public static let citationSchemes = ["source:", "decision:"]

    /// What `text` holds that a translation must keep (see ``TranslationChecks``).
    ///
    /// ```swift
    /// TranslationChecks.keptElements("Read ``a ` b`` and [the guide](https://x.example/{id}).")
    /// // codeSpans ["a ` b"], targets ["https://x.example/{id}"], placeholders ["{id}"]
    /// ```
    public static func keptElements(_ text: String) -> KeptElements {
        var scan = InlineScan(text)
        scan.run()
        return scan.kept
    }

    /// The block-structure rules of ``TranslationChecks`` for one message: each problem once.
    public static func structureProblems(original: String, translation: String) -> [String] {
        let lines = translation.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 1 else { return [] }
        var found: [String] = []
        if lines.dropFirst().dropLast().contains(where: { $0.allSatisfy(\.isWhitespace) }) {
            found.append("the translation has an empty line, which would split the paragraph in two")
        }
        let sourceMarkers = Set(
            original.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().compactMap {
                BlockMarker(line: $0)?.kind
            })
        var reported: Set<BlockMarker.Kind> = []
        for (index, line) in lines.enumerated().dropFirst() {
            guard let marker = BlockMarker(line: line), !sourceMarkers.contains(marker.kind),
                reported.insert(marker.kind).inserted
            else { continue }
            found.append(
                "line \(index + 1) of the translation begins with \(MarkdownText.code(marker.text)), which would "
                    + "\(marker.kind.effect); escape it (\(MarkdownText.code(marker.escaped))) or move it off the start of the line"
            )
        }
        return found
    }

    /// A warning's text when the header (`msgstr` of the `msgid ""` entry) names no language;
    /// nil when it does.
    static func languageProblem(header: String?, path: String) -> String? {
        let value = header?.split(separator: "\n").first { $0.hasPrefix("Language:") }?
            .dropFirst("Language:".count).trimmingCharacters(in: .whitespaces)
        guard value?.isEmpty ?? true else { return nil }
        let language = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return "the header names no language: add the line \"Language: \(language)\\n\" to it"
    }

    // MARK: GNU msgfmt's output

    /// The findings in what `msgfmt --check --statistics` printed for the PO file at `path`: each
    /// `path:line: text` line an error (a warning when it says `warning:`), a line that starts
    /// with white space joined to the one before. Its statistics, its count of fatal errors and
    /// its warnings about the `Language` header field (``languageProblem(header:path:)`` says
    /// that better) are left out. A failed run that printed no error is one error.
    public static func msgfmtFindings(
        _ output: String, path: String, status: Int32, timedOut: Bool = false
    ) -> [TranslationFinding] {
        if timedOut {
            return [
                TranslationFinding(
                    path: path, line: nil, severity: .error,
                    text: "msgfmt took longer than \(Int(Translations.msgfmtTimeout)) s")
            ]
        }
        var findings: [TranslationFinding] = []
        var skipped = false
        for raw in output.split(separator: "\n") {
            if raw.first == " " || raw.first == "\t" {
                if !skipped, let last = findings.indices.last {
                    findings[last].text += " " + raw.trimmingCharacters(in: .whitespaces)
                }
                continue
            }
            var line = Substring(raw)
            // msgfmt names itself as it was started: `msgfmt: `, or its whole path then `: `.
            if let colon = line.range(of: ": "), line[..<colon.lowerBound].hasSuffix("msgfmt") {
                line = line[colon.upperBound...]
            }
            skipped = isStatistics(line) || (line.hasPrefix("found ") && line.contains("fatal error"))
            if skipped { continue }
            var finding = finding(inLine: line, path: path)
            if finding.text.hasPrefix("warning: ") {
                finding.severity = .warning
                finding.text.removeFirst("warning: ".count)
            }
            skipped = finding.severity == .warning && finding.text.contains("header field 'Language'")
            if !skipped { findings.append(finding) }
        }
        if status != 0, !findings.contains(where: { $0.severity == .error }) {
            findings.append(
                TranslationFinding(
                    path: path, line: nil, severity: .error, text: "msgfmt failed (status \(status))"))
        }
        return findings
    }

    /// `3 translated messages, 1 fuzzy translation, 2 untranslated messages.`
    private static func isStatistics(_ line: Substring) -> Bool {
        let rest = line.drop(while: \.isNumber)
        return rest.count < line.count && rest.hasPrefix(" translated message")
    }

    /// `path:12: text`, `path:12:3: text` or `path: text` as a finding (an error; `text` may
    /// still say `warning: `); any other line as an error about `path` with no line.
    private static func finding(inLine line: Substring, path: String) -> TranslationFinding {
        guard line.hasPrefix(path + ":") else {
            return TranslationFinding(path: path, line: nil, severity: .error, text: String(line))
        }
        var rest = line.dropFirst(path.count + 1)
        let digits = rest.prefix(while: \.isASCIIDigit)
        guard !digits.isEmpty, let number = Int(digits), rest.dropFirst(digits.count).first == ":" else {
            return TranslationFinding(
                path: path, line: nil, severity: .error, text: rest.trimmingCharacters(in: .whitespaces))
        }
        rest = rest.dropFirst(digits.count + 1)
        let column = rest.prefix(while: \.isASCIIDigit)
        if !column.isEmpty, rest.dropFirst(column.count).first == ":" {
            rest = rest.dropFirst(column.count + 1)
        }
        return TranslationFinding(
            path: path, line: number, severity: .error, text: rest.trimmingCharacters(in: .whitespaces))
    }

    /// The lines of a ``TranslationError``'s text about the PO file at `path` as findings:
    /// `po/vi.po:4: error: text` at its line, any other line as an error about the whole file.
    static func findings(inErrorText text: String, path: String) -> [TranslationFinding] {
        text.split(separator: "\n").map { line in
            var finding = finding(inLine: line, path: path)
            if finding.text.hasPrefix("error: ") { finding.text.removeFirst("error: ".count) }
            return finding
        }
    }

    // MARK: Comparing and quoting

    /// A finding per value that `translation` has a different number of times than `source`, in
    /// the order the values first appear (the source's first).
    private static func compare(
        _ kind: String, _ source: [String], _ translation: [String], show: (String) -> String
    ) -> [String] {
        var counts: [String: (source: Int, translation: Int)] = [:]
        var order: [String] = []
        for value in source {
            if counts[value] == nil { order.append(value) }
            counts[value, default: (0, 0)].source += 1
        }
        for value in translation {
            if counts[value] == nil { order.append(value) }
            counts[value, default: (0, 0)].translation += 1
        }
        return order.compactMap { value in
            let (inSource, inTranslation) = counts[value] ?? (0, 0)
            guard inSource != inTranslation else { return nil }
            let verb = inSource > inTranslation ? "drops" : "adds"
            return "the translation \(verb) the \(kind) \(show(value)) (the source has it \(inSource) "
                + "time\(inSource == 1 ? "" : "s"), the translation \(inTranslation))"
        }
    }

}

// MARK: Markdown block markers

/// A line that would start a Markdown block if it began a line of a paragraph.
private struct BlockMarker {
    enum Kind: Hashable {
        case heading, quote, tableRow, bullet, numbered, fence, underline, thematicBreak

        var effect: String {
            switch self {
            case .heading: "start a heading"
            case .quote: "start a block quote"
            case .tableRow: "start a table row"
            case .bullet: "start a list item"
            case .numbered: "start a numbered list item"
            case .fence: "start a code block"
            case .underline: "turn the line before it into a heading"
            case .thematicBreak: "draw a horizontal rule"
            }
        }

    }

    var kind: Kind
    /// The marker as written (`## `, `- `, `12) `, a whole underline).
    var text: String

    /// The marker's character that decides, with a backslash before it: `\#`, `\+`, `12\)`.
    var escaped: String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard kind == .numbered else { return "\\" + String(trimmed.prefix(1)) }
        return String(trimmed.dropLast()) + "\\" + String(trimmed.suffix(1))
    }

    init?(line: Substring) {
        let content = line.drop { $0 == " " || $0 == "\t" }
        let marks = content.filter { $0 != " " && $0 != "\t" }
        func spaced(_ count: Int) -> Bool {
            let after = content.dropFirst(count).first
            return after == nil || after == " " || after == "\t"
        }
        let hashes = content.prefix { $0 == "#" }.count
        let trimmed = content.reversed().drop { $0 == " " || $0 == "\t" }
        if !trimmed.isEmpty, trimmed.allSatisfy({ $0 == "=" }) || trimmed.allSatisfy({ $0 == "-" }) {
            (kind, text) = (.underline, String(trimmed.reversed()))
        } else if marks.count >= 3, let mark = marks.first, "*-_".contains(mark),
            marks.allSatisfy({ $0 == mark })
        {
            (kind, text) = (.thematicBreak, String(content))
        } else if (1...6).contains(hashes), spaced(hashes) {
            (kind, text) = (.heading, String(content.prefix(hashes + 1)))
        } else if content.hasPrefix(">") {
            (kind, text) = (.quote, ">")
        } else if content.hasPrefix("|") {
            (kind, text) = (.tableRow, "|")
        } else if content.hasPrefix("```") || content.hasPrefix("~~~") {
            (kind, text) = (.fence, String(content.prefix(3)))
        } else if let first = content.first, "-*+".contains(first), content.count > 1, spaced(1) {
            (kind, text) = (.bullet, String(content.prefix(2)))
        } else {
            let digits = content.prefix(while: \.isASCIIDigit)
            guard (1...9).contains(digits.count), let mark = content.dropFirst(digits.count).first,
                mark == "." || mark == ")", content.count > digits.count + 1, spaced(digits.count + 1)
            else { return nil }
            (kind, text) = (.numbered, String(content.prefix(digits.count + 2)))
        }
    }
}

// MARK: Inline Markdown

/// One left-to-right pass over a message, as CommonMark reads inlines: backslash escapes, code
/// spans, autolinks and raw HTML first (the leftmost wins, and what is inside them is no
/// Markdown), then links and placeholders in what is left.
private struct InlineScan {
    let scalars: [Unicode.Scalar]
    /// Inside a code span, an autolink or an HTML tag.
    var masked: [Bool]
    /// A backslash that escapes the next character, or that character.
    var escaped: [Bool]
    var kept = TranslationChecks.KeptElements()

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        masked = Array(repeating: false, count: scalars.count)
        escaped = Array(repeating: false, count: scalars.count)
    }

    mutating func run() {
        protectedSpans()
        links()
        placeholders()
    }

    private func string(_ range: Range<Int>) -> String {
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars[range])
        return result
    }

    private mutating func mask(_ range: Range<Int>) {
        for index in range { masked[index] = true }
    }

    private mutating func protectedSpans() {
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\", index + 1 < scalars.count, scalars[index + 1].isASCIIPunctuation {
                escaped[index] = true
                escaped[index + 1] = true
                index += 2
            } else if scalar == "`" {
                index = codeSpan(at: index)
            } else if scalar == "<", let end = autolinkEnd(at: index) {
                kept.targets.append(string((index + 1)..<(end - 1)))
                mask(index..<end)
                index = end
            } else if scalar == "<", let end = htmlTagEnd(at: index) {
                kept.htmlTags.append(
                    string(index..<end).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
                        .joined(separator: " "))
                mask(index..<end)
                index = end
            } else {
                index += 1
            }
        }
    }

    /// The code span opening with the backtick run at `start`; where scanning goes on.
    private mutating func codeSpan(at start: Int) -> Int {
        let open = runEnd(from: start)
        let length = open - start
        var index = open
        while index < scalars.count {
            guard scalars[index] == "`" else {
                index += 1
                continue
            }
            let end = runEnd(from: index)
            if end - index == length {
                var content = string(open..<index).replacingOccurrences(of: "\n", with: " ")
                if content.count >= 2, content.hasPrefix(" "), content.hasSuffix(" "),
                    content.contains(where: { $0 != " " })
                {
                    content = String(content.dropFirst().dropLast())
                }
                kept.codeSpans.append(content)
                mask(start..<end)
                return end
            }
            index = end
        }
        // No closing run of the same length: the backticks are text.
        return open
    }

    private func runEnd(from start: Int) -> Int {
        var end = start
        while end < scalars.count, scalars[end] == "`" { end += 1 }
        return end
    }

    /// `<scheme:…>` or `<name@host>`: the index after its `>`.
    private func autolinkEnd(at start: Int) -> Int? {
        var index = start + 1
        let schemeStart = index
        while index < scalars.count, index - schemeStart < 33,
            scalars[index].isASCIILetter
                || (index > schemeStart && "+.-".unicodeScalars.contains(scalars[index]))
                || (index > schemeStart && scalars[index].isASCIIDigit)
        {
            index += 1
        }
        if (2...32).contains(index - schemeStart), index < scalars.count, scalars[index] == ":" {
            while index < scalars.count, scalars[index] != ">", scalars[index] != "<",
                scalars[index].value > 0x20
            {
                index += 1
            }
            if index < scalars.count, scalars[index] == ">" { return index + 1 }
            return nil
        }
        // An email address.
        index = start + 1
        let local = ".!#$%&'*+/=?^_`{|}~-".unicodeScalars
        while index < scalars.count, scalars[index].isASCIIAlphanumeric || local.contains(scalars[index]) {
            index += 1
        }
        guard index > start + 1, index < scalars.count, scalars[index] == "@" else { return nil }
        index += 1
        let hostStart = index
        while index < scalars.count,
            scalars[index].isASCIIAlphanumeric || scalars[index] == "-"
                || scalars[index] == "."
        {
            index += 1
        }
        guard index > hostStart, index < scalars.count, scalars[index] == ">" else { return nil }
        return index + 1
    }

    /// An open tag, a closing tag or a comment, as CommonMark's raw HTML: the index after it.
    private func htmlTagEnd(at start: Int) -> Int? {
        var index = start + 1
        func at(_ text: String) -> Bool {
            let wanted = Array(text.unicodeScalars)
            return index + wanted.count <= scalars.count
                && Array(scalars[index..<(index + wanted.count)]) == wanted
        }
        func skipSpace() -> Bool {
            let before = index
            while index < scalars.count, [" ", "\t", "\n"].contains(scalars[index]) { index += 1 }
            return index > before
        }
        if at("!--") {
            index += 3
            while index < scalars.count {
                if at("-->") { return index + 3 }
                index += 1
            }
            return nil
        }
        let closing = index < scalars.count && scalars[index] == "/"
        if closing { index += 1 }
        guard index < scalars.count, scalars[index].isASCIILetter else { return nil }
        while index < scalars.count, scalars[index].isASCIIAlphanumeric || scalars[index] == "-" {
            index += 1
        }
        if closing {
            _ = skipSpace()
            return index < scalars.count && scalars[index] == ">" ? index + 1 : nil
        }
        while true {
            let spaced = skipSpace()
            guard index < scalars.count else { return nil }
            if scalars[index] == ">" { return index + 1 }
            if at("/>") { return index + 2 }
            let nameStart = "_:".unicodeScalars
            guard spaced, scalars[index].isASCIILetter || nameStart.contains(scalars[index]) else {
                return nil
            }
            let nameRest = "_.:-".unicodeScalars
            while index < scalars.count,
                scalars[index].isASCIIAlphanumeric || nameRest.contains(scalars[index])
            {
                index += 1
            }
            let afterName = index
            _ = skipSpace()
            guard index < scalars.count, scalars[index] == "=" else {
                index = afterName
                continue
            }
            index += 1
            _ = skipSpace()
            guard index < scalars.count else { return nil }
            let quote = scalars[index]
            if quote == "\"" || quote == "'" {
                index += 1
                while index < scalars.count, scalars[index] != quote { index += 1 }
                guard index < scalars.count else { return nil }
                index += 1
            } else {
                let before = index
                let stops = " \t\n\"'=<>`".unicodeScalars
                while index < scalars.count, !stops.contains(scalars[index]) { index += 1 }
                guard index > before else { return nil }
            }
        }
    }

    /// `[text](target)` and `![text](target)`: each `](` outside code spans, with its `[` found
    /// by balancing brackets backwards and its target read forwards.
    private mutating func links() {
        var index = 0
        while index + 1 < scalars.count {
            defer { index += 1 }
            guard scalars[index] == "]", scalars[index + 1] == "(", isPlain(index), isPlain(index + 1),
                let open = openingBracket(before: index), let (target, end) = target(from: index + 2)
            else { continue }
            if TranslationChecks.citationSchemes.contains(where: target.hasPrefix) {
                kept.citations.append("[\(string((open + 1)..<index))](\(target))")
            } else {
                kept.targets.append(target)
            }
            index = end - 1
        }
    }

    private func isPlain(_ index: Int) -> Bool { !masked[index] && !escaped[index] }

    private func openingBracket(before close: Int) -> Int? {
        var depth = 0
        var index = close - 1
        while index >= 0 {
            if isPlain(index) {
                if scalars[index] == "]" {
                    depth += 1
                } else if scalars[index] == "[" {
                    if depth == 0 { return index }
                    depth -= 1
                }
            }
            index -= 1
        }
        return nil
    }

    /// The destination of a link whose `(` ends before `start`, and the index after its `)`;
    /// nil when the parenthesis does not hold a destination and an optional title.
    private func target(from start: Int) -> (String, Int)? {
        var index = start
        func skipSpace() {
            while index < scalars.count, [" ", "\t", "\n"].contains(scalars[index]) { index += 1 }
        }
        skipSpace()
        var destination = ""
        if index < scalars.count, scalars[index] == "<" {
            let begin = index + 1
            index = begin
            while index < scalars.count, scalars[index] != ">", scalars[index] != "\n", scalars[index] != "<"
            {
                if scalars[index] == "\\" { index += 1 }
                index += 1
            }
            guard index < scalars.count, scalars[index] == ">" else { return nil }
            destination = string(begin..<index)
            index += 1
        } else {
            let begin = index
            var depth = 0
            while index < scalars.count, scalars[index].value > 0x20 {
                if scalars[index] == "\\", index + 1 < scalars.count {
                    index += 2
                    continue
                }
                if scalars[index] == "(" { depth += 1 }
                if scalars[index] == ")" {
                    if depth == 0 { break }
                    depth -= 1
                }
                index += 1
            }
            destination = string(begin..<index)
        }
        skipSpace()
        let titleQuotes: [Unicode.Scalar: Unicode.Scalar] = ["\"": "\"", "'": "'", "(": ")"]
        if index < scalars.count, let close = titleQuotes[scalars[index]] {
            index += 1
            while index < scalars.count, scalars[index] != close {
                if scalars[index] == "\\" { index += 1 }
                index += 1
            }
            guard index < scalars.count else { return nil }
            index += 1
            skipSpace()
        }
        guard index < scalars.count, scalars[index] == ")" else { return nil }
        return (destination, index + 1)
    }

    /// `{name}`: a letter or `_`, then letters, digits and `_`, in braces, outside code spans.
    private mutating func placeholders() {
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "{", isPlain(index) else {
                index += 1
                continue
            }
            var end = index + 1
            while end < scalars.count, scalars[end].isASCIIAlphanumeric || scalars[end] == "_" { end += 1 }
            if end > index + 1, !scalars[index + 1].isASCIIDigit, end < scalars.count, scalars[end] == "}",
                isPlain(end)
            {
                kept.placeholders.append(string(index..<(end + 1)))
                index = end + 1
            } else {
                index += 1
            }
        }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    fileprivate var isASCIIAlphanumeric: Bool { isASCIILetter || isASCIIDigit }
    fileprivate var isASCIIPunctuation: Bool {
        (0x21...0x2F).contains(value) || (0x3A...0x40).contains(value) || (0x5B...0x60).contains(value)
            || (0x7B...0x7E).contains(value)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

// MARK: The lines of a PO file

/// A PO file's entries as its text has them, with the line of each keyword: what libgettextpo
/// does not tell. Obsolete entries (`#~`) and comments are left out; strings are decoded (C
/// escapes), so that an entry's `msgid` compares with libgettextpo's.
enum POText {
    struct Entry: Equatable {
        var msgctxt: String?
        var msgid: String
        var msgidLine: Int
        /// The first `msgstr` (`msgstr[0]` of a plural entry); empty when the entry has none.
        var msgstr: String
        var msgstrLine: Int?
    }

    static func entries(_ text: String) -> [Entry] {
        var entries: [Entry] = []
        var context: String?
        var current: Entry?
        /// Which string continuation lines add to.
        enum Field { case context, msgid, plural, msgstr, otherMsgstr }
        var field: Field?
        func finish() {
            if let done = current { entries.append(done) }
            current = nil
        }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") {
                field = nil
                continue
            }
            let value = decode(line)
            if line.hasPrefix("msgctxt") {
                finish()
                context = value
                field = .context
            } else if line.hasPrefix("msgid_plural") {
                field = .plural
            } else if line.hasPrefix("msgid") {
                finish()
                current = Entry(
                    msgctxt: context, msgid: value, msgidLine: number, msgstr: "", msgstrLine: nil)
                context = nil
                field = .msgid
            } else if line.hasPrefix("msgstr") {
                if current?.msgstrLine == nil {
                    current?.msgstr = value
                    current?.msgstrLine = number
                    field = .msgstr
                } else {
                    field = .otherMsgstr
                }
            } else if line.hasPrefix("\"") {
                switch field {
                case .context: context = (context ?? "") + value
                case .msgid: current?.msgid += value
                case .msgstr: current?.msgstr += value
                case .plural, .otherMsgstr, nil: break
                }
            }
        }
        finish()
        return entries
    }

    /// The string of a line such as `msgid "a \"b\"\n"` or `"more"`, its C escapes read.
    static func decode(_ line: Substring) -> String {
        guard let first = line.firstIndex(of: "\""), let last = line.lastIndex(of: "\""), first < last else {
            return ""
        }
        var result = ""
        var scalars = line[line.index(after: first)..<last].unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\", let escape = scalars.next() else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch escape {
            case "n": result += "\n"
            case "t": result += "\t"
            case "r": result += "\r"
            case "a": result += "\u{07}"
            case "b": result += "\u{08}"
            case "f": result += "\u{0C}"
            case "v": result += "\u{0B}"
            case "0"..."7":
                var value = escape.value - 0x30
                var digits = 1
                var lookahead = scalars
                while digits < 3, let next = lookahead.next(), ("0"..."7").contains(next) {
                    value = value * 8 + next.value - 0x30
                    digits += 1
                    scalars = lookahead
                }
                if let decoded = Unicode.Scalar(value) { result.unicodeScalars.append(decoded) }
            default: result.unicodeScalars.append(escape)
            }
        }
        return result
    }
}
