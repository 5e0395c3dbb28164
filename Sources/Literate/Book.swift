import FileStamps
import Foundation
import SystemErrors

/// One chapter: its path relative to the book folder, its text and its parsed tree.
public struct Chapter: Sendable {
    /// For example `chapters/03-universal-links.md`.
    public private(set) var path: String
    public private(set) var source: String
    /// The parsed tree; an empty document for a chapter read for tangling only.
    public private(set) var document: MarkdownNode
    /// The chapter's code blocks and their findings, collected once when it is parsed (straight
    /// from cmark for a chapter read for tangling only): every build tangles the whole book.
    let scannedBlocks: ScannedBlocks

    /// Parses `source`. With `inlines: false` the chapter is read for tangling and checks only:
    /// its code blocks are collected straight from cmark and `document` stays empty, which
    /// saves most of the work of building a tree for a large book.
    public init(path: String, source: String, inlines: Bool = true) {
        self = Self.parsed.value(for: ChapterKey(path: path, source: MemoText(source), inlines: inlines)) {
            Chapter(parsing: source, path: path, inlines: inlines)
        }
    }

    /// The chapters parsed lately: a rebuild parses again only the chapters that changed.
    private static let parsed = Memo<ChapterKey, Chapter>(capacity: 512, keeping: 8) { $0.path }

    private struct ChapterKey: Hashable, Sendable {
        var path: String
        var source: MemoText
        var inlines: Bool
    }

    private init(parsing source: String, path: String, inlines: Bool) {
        self.path = path
        self.source = source
        if inlines {
            let document = MarkdownParser.parse(source)
            var collector = CodeBlockCollector(chapter: path)
            document.walk(&collector)
            self.document = document
            self.scannedBlocks = ScannedBlocks(blocks: collector.blocks, diagnostics: collector.diagnostics)
        } else {
            self.document = MarkdownNode(kind: .document, line: 1, column: 1, endLine: 1)
            self.scannedBlocks = MarkdownParser.scanCodeBlocks(source, chapter: path)
        }
    }
}

/// A book: the Markdown files in `DIR/chapters`, in the reading order of `chapters/SUMMARY.md`
/// (``BookSummary``), or in file-name order when there is none.
public struct Book: Sendable {
    /// A part of the book, as the summary names it, with its chapters' paths in reading order.
    public struct Part: Equatable, Sendable {
        public var title: String
        public var chapters: [String]

        public init(title: String, chapters: [String]) {
            (self.title, self.chapters) = (title, chapters)
        }
    }

    /// The book folder; file targets are relative to it.
    public var root: URL
    /// In reading order.
    public var chapters: [Chapter]
    /// The summary's parts; empty for a book without `chapters/SUMMARY.md`.
    public var parts: [Part]

    public init(root: URL, chapters: [Chapter], parts: [Part] = []) {
        (self.root, self.chapters, self.parts) = (root, chapters, parts)
    }

    /// Reads every chapter of `root/chapters`, in reading order.
    ///
    /// Throws a `Diagnostic` when the folder is missing, holds no chapter, a chapter cannot be
    /// read, or a chapter is not UTF-8 (then at its first bad byte; the first such chapter only);
    /// and, with a `SUMMARY.md`, at its first malformed line, a listed chapter that does not exist
    /// or a chapter that is not listed.
    /// With `inlines: false`, chapters are parsed to blocks only: enough for tangling and checks.
    public static func load(root: URL, inlines: Bool = true) throws(Diagnostic) -> Book {
        let folder = root.appendingPathComponent("chapters")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw .error(.noChaptersFolder(path: folder.path), at: nil)
        }
        var names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasSuffix(".md") && !$0.hasPrefix(".") }
                .sorted()
        } catch {
            throw .error(
                .unreadableChapter(path: folder.path, reason: SystemError.describe(error)), at: nil)
        }
        let (ordered, parts) = try readingOrder(of: names, in: folder)
        names = ordered
        guard !names.isEmpty else { throw .error(.noChapters(path: folder.path), at: nil) }
        // Parsing dominates; chapters are independent, so parse them in parallel. A chapter
        // file with the stamp it had at an earlier load is not read again: a save reads the
        // chapter it changed.
        let results = ConcurrentMap.map(names) { name -> Result<Chapter, Diagnostic> in
            let file = folder.path + "/" + name
            guard let stamp = FileStamp.of(file) else { return read(name, in: folder, inlines: inlines) }
            return stampedChapters.value(for: StampedChapter(file: file, stamp: stamp, inlines: inlines)) {
                read(name, in: folder, inlines: inlines)
            }
        }
        var chapters: [Chapter] = []
        for result in results {
            switch result {
            case .success(let chapter): chapters.append(chapter)
            case .failure(let diagnostic): throw diagnostic
            }
        }
        return Book(root: root, chapters: chapters, parts: parts)
    }

    /// The chapters read lately, by their file's stamp.
    private static let stampedChapters = Memo<StampedChapter, Result<Chapter, Diagnostic>>(
        capacity: 512, keeping: 4
    ) { $0.file }

    private struct StampedChapter: Hashable, Sendable {
        var file: String
        var stamp: FileStamp
        var inlines: Bool
    }

    /// The chapter `folder/name`, or why it cannot be read.
    private static func read(_ name: String, in folder: URL, inlines: Bool) -> Result<Chapter, Diagnostic> {
        let path = "chapters/\(name)"
        guard let data = FileBytes.contents(ofFile: folder.path + "/" + name) else {
            return .failure(.error(.unreadableChapter(path: path, reason: "cannot open the file"), at: nil))
        }
        switch FileBytes.utf8Text(data) {
        case .success(let text):
            return .success(Chapter(path: path, source: text, inlines: inlines))
        case .failure(let bad):
            return .failure(
                .error(
                    .invalidUTF8(byte: bad.byte),
                    at: SourceLocation(path: path, line: bad.line, column: bad.column)))
        }
    }

    /// The chapter files in reading order, and the parts, from `chapters/SUMMARY.md` when it
    /// exists (`names` is every `.md` file of the folder, sorted).
    static func readingOrder(of names: [String], in folder: URL) throws(Diagnostic) -> ([String], [Part]) {
        let summaryName = BookSummary.fileName
        guard names.contains(summaryName) else { return (names, []) }
        let path = "chapters/\(summaryName)"
        guard let bytes = FileBytes.contents(ofFile: folder.path + "/" + summaryName) else {
            throw .error(.unreadableChapter(path: path, reason: "cannot open the file"), at: nil)
        }
        let text: String
        switch FileBytes.utf8Text(bytes) {
        case .success(let decoded): text = decoded
        case .failure(let bad):
            throw .error(
                .invalidUTF8(byte: bad.byte),
                at: SourceLocation(path: path, line: bad.line, column: bad.column))
        }
        let summary = try BookSummary.parse(text, path: path)
        let present = Set(names)
        var ordered: [String] = []
        for entry in summary.parts.flatMap(\.entries) {
            guard present.contains(entry.file) else {
                throw .error(
                    .summaryMissingChapter(file: entry.file),
                    at: SourceLocation(path: path, line: entry.line, column: entry.column))
            }
            ordered.append(entry.file)
        }
        let listed = Set(ordered)
        if let unlisted = names.first(where: { $0 != summaryName && !listed.contains($0) }) {
            throw .error(
                .summaryUnlistedChapter(path: "chapters/\(unlisted)"),
                at: SourceLocation(path: path, line: summary.endLine, column: 1))
        }
        let parts = summary.parts.map {
            Part(title: $0.title, chapters: $0.entries.map { "chapters/\($0.file)" })
        }
        return (ordered, parts)
    }
}

/// Whole files read with `open` and `read`: no `Data`, no `URL`, one buffer per file.
enum FileBytes {
    /// The file's bytes, or nil when it cannot be opened or read (or is a folder).
    static func contents(ofFile path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else { return nil }
        // The size is a hint: read until the end, in case the file grows or is not regular.
        var bytes: [UInt8] = []
        var capacity = max(Int(status.st_size), 0) + 1
        while true {
            var failed = false
            let previous = bytes
            bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                count = buffer.initialize(from: previous).1
                while count < buffer.count {
                    let got = read(descriptor, buffer.baseAddress! + count, buffer.count - count)
                    if got < 0, errno == EINTR { continue }
                    if got <= 0 {
                        failed = got < 0
                        return
                    }
                    count += got
                }
            }
            if failed { return nil }
            // A short read means the end of the file; a full buffer may mean more to come.
            if bytes.count < capacity { return bytes }
            capacity *= 2
        }
    }

    /// The text of UTF-8 bytes, or where they stop being UTF-8. A leading byte order mark is
    /// dropped, as `String(data:encoding:)` does.
    static func utf8Text(_ bytes: [UInt8]) -> Result<String, InvalidUTF8> {
        let hasMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        let text = bytes[(hasMark ? 3 : 0)...]
        if let string = String(validating: text, as: UTF8.self) { return .success(string) }
        // Rare, so the bytes are only read a second time to find the place.
        if let bad = firstInvalidUTF8(text) { return .failure(bad) }
        return .success(String(decoding: text, as: UTF8.self))
    }

    /// The first byte that starts no well-formed sequence of RFC 3629 section 4's syntax (a
    /// sequence cut short is reported at its first byte), or nil when all of `bytes` is UTF-8.
    ///
    /// Positions are those of cmark, so of every diagnostic of the engine: lines end at `\n`,
    /// `\r\n` or a lone `\r` (CommonMark's line endings), and the column counts bytes, not
    /// characters, from 1 at the start of the line. `bytes` starts after any byte order mark.
    static func firstInvalidUTF8(_ bytes: ArraySlice<UInt8>) -> InvalidUTF8? {
        var line = 1
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                // `\r\n` ends one line: its `\n` counts it.
                let endsLine =
                    byte == 0x0A || (byte == 0x0D && (index == bytes.endIndex || bytes[index] != 0x0A))
                if endsLine {
                    line += 1
                    lineStart = index
                }
                continue
            }
            guard let length = wellFormedLength(bytes, at: index) else {
                return InvalidUTF8(byte: byte, line: line, column: index - lineStart + 1)
            }
            index += length
        }
        return nil
    }

    /// The length of the well-formed multi-byte sequence at `index`, or nil. RFC 3629 section 4:
    /// the second byte's range depends on the first (no overlong forms, no surrogates, nothing
    /// past U+10FFFF); every later byte is 80-BF.
    private static func wellFormedLength(_ bytes: ArraySlice<UInt8>, at index: Int) -> Int? {
        let length: Int
        let second: ClosedRange<UInt8>
        switch bytes[index] {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return nil
        }
        guard index + length <= bytes.endIndex, second.contains(bytes[index + 1]) else { return nil }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return nil }
        return length
    }
}

/// Where a chapter stops being UTF-8: the byte and its 1-based line and byte column.
struct InvalidUTF8: Error, Equatable {
    var byte: UInt8
    var line: Int
    var column: Int
}

/// `map` over independent work items on all cores, keeping the input order.
public enum ConcurrentMap {
    public static func map<Input: Sendable, Output: Sendable>(
        _ inputs: [Input], _ transform: @Sendable (Input) -> Output
    ) -> [Output] {
        guard inputs.count > 1 else { return inputs.map(transform) }
        let results = UnsafeSendableBuffer<Output>(count: inputs.count)
        DispatchQueue.concurrentPerform(iterations: inputs.count) { index in
            results.set(index, transform(inputs[index]))
        }
        return results.values.map { $0! }
    }
}

/// A fixed-size buffer that `concurrentPerform` writes at distinct indices.
private final class UnsafeSendableBuffer<Element>: @unchecked Sendable {
    private var storage: [Element?]
    private let lock = NSLock()

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Element) { lock.withLock { storage[index] = value } }

    var values: [Element?] { lock.withLock { storage } }
}
