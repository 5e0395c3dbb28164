/// Every message the engine prints, declared in one place so tests can pin the texts.
public enum LiterateMessage: Hashable, Sendable {
    case undefinedChunk(name: String, suggestion: String?)
    case referenceCycle(path: [String])
    /// One more inclusion would nest chunks deeper than ``TangleLimits/depth``.
    case nestingTooDeep(path: [String], limit: Int)
    /// Expanding `chunk` (nil: the file's own blocks) would pass one of ``TangleLimits``.
    case expansionTooLarge(chunk: String?, path: String, limit: TangleLimits.Exceeded)
    case invalidChunkName(String)
    case unknownAttribute(key: String, known: [String])
    case malformedAttributes(detail: String)
    case duplicateAttribute(String)
    case fileTargetOutsideBook(path: String, reason: String)
    case fileTargetNotSupported(path: String)
    case conflictingLanguages(path: String, first: String, other: String)
    case unclosedFence
    case noChaptersFolder(path: String)
    case noChapters(path: String)
    case unreadableChapter(path: String, reason: String)
    /// A chapter byte that starts no well-formed UTF-8 sequence (RFC 3629).
    case invalidUTF8(byte: UInt8)
    /// `chapters/SUMMARY.md`: a line that is neither a part heading, a chapter link nor blank.
    case summaryLine
    case summaryEntryBeforePart
    case summaryLink(file: String)
    case summaryListedTwice(file: String, firstLine: Int)
    case summaryMissingChapter(file: String)
    case summaryUnlistedChapter(path: String)
    case handEdited(path: String)
    case notGenerated(path: String)
    case driftedFile(path: String)
    case missingFile(path: String)
    case orphanedFile(path: String)
    case removedOrphan(path: String)
    case unknownChecker(name: String, known: [String])
    case checkerNeedsBlockLanguage(name: String)
    case invalidJSON(detail: String)
    case unusedChunk(name: String)
    case swiftParseFailed(detail: String)
    case writeFailed(path: String, reason: String)
    case external(String)

    public var text: String {
        switch self {
        case .undefinedChunk(let name, let suggestion):
            if let suggestion {
                return "no chunk named '\(name)'; did you mean '\(suggestion)'?"
            }
            return "no chunk named '\(name)'"
        case .referenceCycle(let path):
            return "chunk reference cycle: " + path.joined(separator: " → ")
        case .nestingTooDeep(let path, let limit):
            // The whole path can be thousands of names: its two ends say where to look.
            let shown = path.count > 4 ? Array(path.prefix(2)) + ["…"] + Array(path.suffix(1)) : path
            return "chunk nesting deeper than \(TangleLimits.grouped(limit)): "
                + shown.joined(separator: " → ")
        case .expansionTooLarge(let chunk, let path, let limit):
            let subject = chunk.map { "⟨\($0)⟩" } ?? "'\(path)'"
            return "\(subject) would expand to more than \(limit.text) (the limit for one generated file)"
        case .invalidChunkName(let name):
            return "invalid chunk name '\(name)': a name starts with a letter and holds letters, "
                + "digits, '-', '_' and '.'"
        case .unknownAttribute(let key, let known):
            return "unknown attribute '\(key)' (known: \(known.joined(separator: ", ")))"
        case .malformedAttributes(let detail):
            return "malformed attributes: \(detail)"
        case .duplicateAttribute(let key):
            return "attribute '\(key)' given twice"
        case .fileTargetOutsideBook(let path, let reason):
            return "file target '\(path)' is outside the book folder (\(reason))"
        case .fileTargetNotSupported(let path):
            return "cannot tangle to '\(path)': no comment syntax known for its extension, so the "
                + "generated-file header cannot be written"
        case .conflictingLanguages(let path, let first, let other):
            return "blocks for '\(path)' mix languages '\(first)' and '\(other)'"
        case .unclosedFence:
            return "code fence is never closed; it swallows the rest of the chapter"
        case .noChaptersFolder(let path):
            return "no chapters folder at '\(path)'"
        case .noChapters(let path):
            return "no Markdown chapters (*.md) in '\(path)'"
        case .unreadableChapter(let path, let reason):
            return "cannot read '\(path)': \(reason)"
        case .invalidUTF8(let byte):
            let hex = String(byte, radix: 16, uppercase: true)
            return "invalid UTF-8 byte 0x" + (byte < 0x10 ? "0" : "") + hex
        case .summaryLine:
            return "expected a part heading ('# Part title') or a chapter link ('- [Chapter title](file.md)')"
        case .summaryEntryBeforePart:
            return "a chapter link before the first part heading; start with '# Part title'"
        case .summaryLink(let file):
            return "'\(file)' is not a chapter: link a .md file of chapters/ by its name, such as 01-intro.md"
        case .summaryListedTwice(let file, let firstLine):
            return
                "'\(file)' is listed twice (first on line \(firstLine)); a chapter has one place in reading order"
        case .summaryMissingChapter(let file):
            return "'\(file)' is listed but there is no chapters/\(file)"
        case .summaryUnlistedChapter(let path):
            return "\(path) is not listed: add it to chapters/SUMMARY.md where it belongs in reading order"
        case .handEdited(let path):
            return "'\(path)' was edited by hand (its body no longer matches its header hash); "
                + "move the change into the chapter, or rerun with --force to overwrite it"
        case .notGenerated(let path):
            return "'\(path)' exists and was not generated by tangle; refusing to overwrite it "
                + "(rerun with --force to replace it)"
        case .driftedFile(let path):
            return "'\(path)' is out of date with the book"
        case .missingFile(let path):
            return "'\(path)' has not been tangled yet"
        case .orphanedFile(let path):
            return "'\(path)' is a generated file whose chunks are gone from the book"
        case .removedOrphan(let path):
            return "removed '\(path)': its chunks are gone from the book"
        case .unknownChecker(let name, let known):
            return "unknown checker '\(name)' (known: \(known.joined(separator: ", ")))"
        case .checkerNeedsBlockLanguage(let name):
            return "checker '\(name)' needs a block language"
        case .invalidJSON(let detail):
            return "invalid JSON: \(detail)"
        case .unusedChunk(let name):
            return "chunk '\(name)' is never included in a file"
        case .swiftParseFailed(let detail):
            return detail
        case .writeFailed(let path, let reason):
            return "cannot write '\(path)': \(reason)"
        case .external(let text):
            return text
        }
    }
}
