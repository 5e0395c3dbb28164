import Foundation

/// The body of one tangled file, built from expanded lines: their bytes, with chunk comments and,
/// for Swift, the `#sourceLocation` directives where Swift allows them.
struct TangledBody {
    /// The file's path, for messages.
    let path: String
    let comment: CommentSyntax
    let isSwift: Bool
    /// The body as UTF-8: appending bytes costs a fraction of appending strings.
    private(set) var bytes: [UInt8] = []
    /// One entry per body line.
    private(set) var origins: [LineOrigin] = []
    /// The chapters code lines come from, in order of first appearance.
    private(set) var chapters: [String] = []
    private var layout = SwiftLayout()
    /// The chapter (index into `chapters`) and line the compiler would assign to the next
    /// physical line, once a directive has been written.
    private var mappedNext: (chapter: Int32, line: Int)?
    /// Set at each block start and after each inclusion: the next code line needs a directive.
    private var needsDirective = false
    /// A chunk's name comment, written just before its first line, once its indentation is known.
    private var pendingComment: (indentation: [UInt8], chunk: String)?
    /// What a chunk comment starts with up to the name, and ends with, in this file's syntax.
    private let chunkCommentOpening: [UInt8]
    private let chunkCommentClosing: [UInt8]
    /// `chapters` as UTF-8, for the directives.
    private var chapterBytes: [[UInt8]] = []

    /// Lines and bytes written so far.
    var lineCount: Int { origins.count }
    var byteCount: Int { bytes.count }

    /// One level of indentation, as swift-format writes it.
    static let oneLevel: [UInt8] = Array("    ".utf8)

    init(path: String, comment: CommentSyntax, isSwift: Bool) {
        self.path = path
        self.comment = comment
        self.isSwift = isSwift
        chunkCommentOpening = Array((comment.opening + "chunk: ").utf8)
        chunkCommentClosing = Array(comment.closing.utf8)
    }

    mutating func blockStart(chunk: String?, indentation: [UInt8], canImport: String?) {
        if let canImport {
            let start = bytes.count
            bytes.append(contentsOf: indentation)
            append("#if canImport(")
            append(canImport)
            append(")")
            endLine(from: start, origin: .none)
        }
        if let chunk {
            pendingComment = (canImport == nil ? indentation : indentation + Self.oneLevel, chunk)
        }
        needsDirective = isSwift
    }

    /// Back in an enclosing block after an inclusion.
    mutating func resume() { needsDirective = isSwift }

    /// A block with `canImport` ends.
    mutating func blockEnd(indentation: [UInt8], canImport: String) {
        let start = bytes.count
        bytes.append(contentsOf: indentation)
        append("#endif")
        endLine(from: start, origin: .none)
    }

    /// A line of the book, and the indentation its place adds.
    mutating func code(
        indentation: [UInt8], line: UnsafeBufferPointer<UInt8>, chapter: String, number: Int, column: Int
    ) {
        if let (commentIndentation, chunk) = pendingComment {
            pendingComment = nil
            let start = bytes.count
            bytes.append(contentsOf: commentIndentation)
            if needsExtraIndentation(before: line) { bytes.append(contentsOf: Self.oneLevel) }
            bytes.append(contentsOf: chunkCommentOpening)
            append(chunk)
            bytes.append(contentsOf: chunkCommentClosing)
            endLine(from: start, origin: .none)
        }
        let slot = slot(of: chapter)
        if needsDirective, !line.isEmpty {
            placeDirective(indentation: indentation, line: line, chapter: slot, number: number)
        }
        let start = bytes.count
        bytes.append(contentsOf: indentation)
        bytes.append(contentsOf: line)
        endLine(from: start, origin: LineOrigin(chapter: slot, line: Int32(number), column: Int32(column)))
    }

    /// The index of `chapter` in `chapters`, appended on first use.
    private mutating func slot(of chapter: String) -> Int32 {
        if let last = chapters.last, last == chapter { return Int32(chapters.count - 1) }
        if let index = chapters.firstIndex(of: chapter) { return Int32(index) }
        chapters.append(chapter)
        chapterBytes.append(Array(chapter.utf8))
        return Int32(chapters.count - 1)
    }

    /// A line written just before a closing brace, or before a case label that follows another
    /// case's body, still belongs to the block above, so swift-format wants it one level deeper.
    private func needsExtraIndentation(before line: UnsafeBufferPointer<UInt8>) -> Bool {
        let trimmed = line.trimmingLeadingBlanks
        if trimmed.first == UInt8(ascii: "}") { return true }
        return layout.isAfterACase
            && (trimmed.starts(with: "case ".utf8) || trimmed.starts(with: "default:".utf8)
                || trimmed.starts(with: "@unknown".utf8))
    }

    /// Does the line (without its indentation) import a module? Imports stay first.
    private static func isImport(_ trimmed: UnsafeBufferPointer<UInt8>) -> Bool {
        trimmed.starts(with: "import ".utf8) || trimmed.starts(with: "@testable import ".utf8)
            || trimmed.starts(with: "@preconcurrency import ".utf8)
            || trimmed.starts(with: "@_exported import ".utf8)
    }

    /// Writes the pending `#sourceLocation` before the line when Swift allows one there and the
    /// compiler's count does not already agree; otherwise keeps it pending for the next line
    /// (imports stay first, a `switch` gets it inside its first case).
    private mutating func placeDirective(
        indentation: [UInt8], line: UnsafeBufferPointer<UInt8>, chapter: Int32, number: Int
    ) {
        if let mapped = mappedNext, mapped.chapter == chapter, mapped.line == number {
            needsDirective = false
            return
        }
        // The added indentation is blanks only, so the line decides what the code starts with.
        let trimmed = line.trimmingLeadingBlanks
        guard !Self.isImport(trimmed),
            bytes.withUnsafeBufferPointer({ layout.allowsDirective(before: trimmed, output: $0) })
        else { return }
        needsDirective = false
        bytes.append(contentsOf: indentation)
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: line[..<(line.count - trimmed.count)]))
        if needsExtraIndentation(before: line) { bytes.append(contentsOf: Self.oneLevel) }
        // swift-format's canonical spelling of the directive has no spaces.
        append("#sourceLocation(file:\"")
        bytes.append(contentsOf: chapterBytes[Int(chapter)])
        append("\",line:")
        append(String(number))
        append(")\n")
        origins.append(.none)
        mappedNext = (chapter, number)
    }

    /// Ends the line that started at `start`: a newline, its origin, and (for Swift) the
    /// layout's view of it. A directive does not come here: it names the line after it.
    private mutating func endLine(from start: Int, origin: LineOrigin) {
        let end = bytes.count
        bytes.append(UInt8(ascii: "\n"))
        origins.append(origin)
        guard isSwift else { return }
        bytes.withUnsafeBufferPointer {
            layout.consume(UnsafeBufferPointer(rebasing: $0[start..<end]), at: start)
        }
        if let mapped = mappedNext { mappedNext = (mapped.chapter, mapped.line + 1) }
    }

    /// Appends a literal's bytes (a string view's generic append goes byte by byte).
    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func append(_ text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
        if done == nil { bytes.append(contentsOf: Array(text.utf8)) }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The line without its leading spaces and tabs.
    var trimmingLeadingBlanks: UnsafeBufferPointer<UInt8> {
        var index = 0
        while index < count, self[index] == UInt8(ascii: " ") || self[index] == UInt8(ascii: "\t") {
            index += 1
        }
        return UnsafeBufferPointer(rebasing: self[index...])
    }
}

/// Where a file target may be written. One per tangle: the book folder is resolved once, and
/// files in one folder share the look at that folder.
struct FileTarget {
    let root: URL
    private var rootPath: String?
    /// A target's folder (or its deepest existing ancestor), symbolic links resolved, by the
    /// target's text up to its last `/`.
    private var resolvedFolders: [String: String] = [:]

    /// The book folder's path as written (not resolved), to `lstat` targets.
    private let rootText: String

    init(root: URL) {
        self.root = root
        self.rootText = root.path
    }

    /// Why `path` may not be written inside the book folder, or nil when it may.
    mutating func problem(_ path: String) -> LiterateMessage? {
        if path.hasPrefix("/") { return .fileTargetOutsideBook(path: path, reason: "absolute path") }
        if path.hasPrefix("~") { return .fileTargetOutsideBook(path: path, reason: "home-relative path") }
        if path.hasSuffix("/") || path.isEmpty {
            return .fileTargetOutsideBook(path: path, reason: "not a file name")
        }
        var depth = 0
        for component in path.slashSeparated {
            switch component {
            case ".": continue
            case "..": depth -= 1
            default: depth += 1
            }
            if depth < 0 { return .fileTargetOutsideBook(path: path, reason: "'..' leaves the book folder") }
        }
        // A symlink inside the book may point outside it: resolve the deepest existing ancestor.
        let rootPath = self.rootPath ?? Self.resolved(root)
        self.rootPath = rootPath
        // Targets written the same way up to their last `/` share a folder.
        let folderText = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) } ?? ""
        let resolved =
            resolvedFolders[folderText]
            ?? Self.resolve(root.appendingPathComponent(path).deletingLastPathComponent(), above: rootPath)
        resolvedFolders[folderText] = resolved
        if resolved != rootPath, !resolved.hasPrefix(rootPath + "/") {
            return .fileTargetOutsideBook(path: path, reason: "a symbolic link leads outside it")
        }
        var status = stat()
        if lstat(rootText + "/" + path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
            let destination = Self.resolved(root.appendingPathComponent(path))
            if !destination.hasPrefix(rootPath + "/") {
                return .fileTargetOutsideBook(path: path, reason: "a symbolic link leads outside it")
            }
        }
        // What writing would surely fail on (a folder at the path, a name too long), found now so
        // that every command reports it at the block, and nothing is written.
        if let code = TangleWriter.writeProblem(rootText: rootText, path: path) {
            return .writeFailed(path: path, reason: TangleWriter.reason(code))
        }
        return nil
    }

    /// The deepest existing folder at or above `folder` (stopping at the book folder's length),
    /// with symbolic links resolved.
    private static func resolve(_ folder: URL, above rootPath: String) -> String {
        // `..` is taken lexically first (the depth check has kept it inside the book): Foundation's
        // deletingLastPathComponent of `a/..` is `a/../..`, which grows without end.
        var candidate = folder.standardizedFileURL
        if let real = realPath(candidate.path) { return real }
        while !FileManager.default.fileExists(atPath: candidate.path), candidate.path.count > rootPath.count {
            let parent = candidate.deletingLastPathComponent().standardizedFileURL
            guard parent.path.count < candidate.path.count else { break }
            candidate = parent
        }
        return resolved(candidate)
    }

    /// `url`'s path with symbolic links resolved: `realpath` where the file exists (every
    /// tangle asks for each target's folder, and Foundation's resolution costs far more),
    /// Foundation's resolution where it does not.
    private static func resolved(_ url: URL) -> String {
        realPath(url.standardizedFileURL.path) ?? url.resolvingSymlinksInPath().standardizedFileURL.path
    }

    private static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
