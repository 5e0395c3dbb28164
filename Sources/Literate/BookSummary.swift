import Foundation

/// `chapters/SUMMARY.md`: the book's parts and its reading order, in mdBook's form. It may open
/// with a title line (`# Summary`), which mdBook ignores and so does this engine; then each
/// `# Part title` heading starts a part, and each `- [Chapter title](file.md)` line under it
/// lists a chapter of `chapters/`, in reading order. Blank lines may stand anywhere. The file is
/// not a chapter.
///
/// mdBook reads the first heading as the title whatever follows it. Here the first heading is
/// the title only when another heading comes before any chapter, so that a summary that starts
/// with its first part still reads as before; begin with `# Summary` and both read it alike.
/// Unlike mdBook, every chapter belongs to a part (no prefix, suffix, nested or draft chapters).
///
/// ```markdown
/// # Summary
///
/// # Part I: The guide
///
/// - [Custom URL schemes](01-custom-url-schemes.md)
/// - [Routing](02-routing.md)
/// ```
public struct BookSummary: Equatable, Sendable {
    /// One listed chapter: its title, its file name in `chapters/`, and where the line is.
    public struct Entry: Equatable, Sendable {
        public var title: String
        public var file: String
        public var line: Int
        public var column: Int
    }

    public struct Part: Equatable, Sendable {
        public var title: String
        public var entries: [Entry]
    }

    /// The title line's text (`Summary`), when the summary opens with one.
    public var title: String?
    public var parts: [Part]
    /// The line after the last entry: where an unlisted chapter would be added.
    public var endLine: Int

    /// The file name in `chapters/`.
    public static let fileName = "SUMMARY.md"

    /// Reads the summary at `path` (for diagnostics), failing at the first line that is neither
    /// a part heading, a chapter link nor blank.
    public static func parse(_ text: String, path: String) throws(Diagnostic) -> BookSummary {
        var parts: [Part] = []
        var seen: [String: Int] = [:]
        var lineNumber = 0
        var endLine = 1
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            let indent = line.prefix { $0 == " " }.count
            let content = line.dropFirst(indent)
            func fail(_ message: LiterateMessage, column: Int = indent + 1) -> Diagnostic {
                .error(message, at: SourceLocation(path: path, line: lineNumber, column: column))
            }
            if content.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            if content.hasPrefix("# ") {
                let title = content.dropFirst(2).trimmingCharacters(in: .whitespaces)
                guard !title.isEmpty else { throw fail(.summaryLine) }
                parts.append(Part(title: title, entries: []))
                continue
            }
            guard content.hasPrefix("- ["), let close = content.range(of: "]("), content.hasSuffix(")") else {
                throw fail(.summaryLine)
            }
            guard !parts.isEmpty else { throw fail(.summaryEntryBeforePart) }
            let title = String(content[content.index(content.startIndex, offsetBy: 3)..<close.lowerBound])
            let file = String(content[close.upperBound..<content.index(before: content.endIndex)])
            let fileColumn = indent + 1 + content.distance(from: content.startIndex, to: close.upperBound)
            guard file.hasSuffix(".md"), !file.contains("/"), !file.hasPrefix("."), file != fileName else {
                throw fail(.summaryLink(file: file), column: fileColumn)
            }
            if let first = seen[file] {
                throw fail(.summaryListedTwice(file: file, firstLine: first), column: fileColumn)
            }
            seen[file] = lineNumber
            parts[parts.count - 1].entries.append(
                Entry(title: title, file: file, line: lineNumber, column: fileColumn))
            endLine = lineNumber + 1
        }
        guard !parts.isEmpty else {
            throw .error(.summaryLine, at: SourceLocation(path: path, line: 1, column: 1))
        }
        // A first heading followed by another heading before any chapter is the book's title.
        var title: String?
        if parts.count > 1, parts[0].entries.isEmpty {
            title = parts.removeFirst().title
        }
        return BookSummary(title: title, parts: parts, endLine: endLine)
    }
}
