import Foundation

/// One chapter: its path relative to the book folder, its text and its parsed tree.
public struct Chapter: Sendable {
    /// For example `chapters/03-universal-links.md`.
    public var path: String
    public var source: String
    /// The parsed tree; an empty document for a chapter read for tangling only.
    public var document: MarkdownNode
    /// For a chapter read for tangling only: its code blocks, collected while parsing.
    let scannedBlocks: ScannedBlocks?

    /// Parses `source`. With `inlines: false` the chapter is read for tangling and checks only:
    /// its code blocks are collected straight from cmark and `document` stays empty, which
    /// saves most of the work of building a tree for a large book.
    public init(path: String, source: String, inlines: Bool = true) {
        self.path = path
        self.source = source
        if inlines {
            self.document = MarkdownParser.parse(source)
            self.scannedBlocks = nil
        } else {
            self.document = MarkdownNode(kind: .document, line: 1, column: 1, endLine: 1)
            self.scannedBlocks = MarkdownParser.scanCodeBlocks(source, chapter: path)
        }
    }
}

/// A book: the Markdown files in `DIR/chapters`, in file-name order.
public struct Book: Sendable {
    /// The book folder; file targets are relative to it.
    public var root: URL
    public var chapters: [Chapter]

    public init(root: URL, chapters: [Chapter]) {
        self.root = root
        self.chapters = chapters
    }

    /// Reads every `*.md` file in `root/chapters`, in file-name order.
    ///
    /// Throws a `Diagnostic` when the folder is missing, holds no chapter, or a chapter cannot
    /// be read as UTF-8.
    /// With `inlines: false`, chapters are parsed to blocks only: enough for tangling and checks.
    public static func load(root: URL, inlines: Bool = true) throws(Diagnostic) -> Book {
        let folder = root.appendingPathComponent("chapters")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw .error(.noChaptersFolder(path: folder.path), at: nil)
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasSuffix(".md") && !$0.hasPrefix(".") }
                .sorted()
        } catch {
            throw .error(
                .unreadableChapter(path: folder.path, reason: "\(error.localizedDescription)"), at: nil)
        }
        guard !names.isEmpty else { throw .error(.noChapters(path: folder.path), at: nil) }
        // Parsing dominates; chapters are independent, so parse them in parallel.
        let results = ConcurrentMap.map(names) { name -> Result<Chapter, Diagnostic> in
            let path = "chapters/\(name)"
            guard let data = FileBytes.contents(ofFile: folder.path + "/" + name) else {
                return .failure(
                    .error(.unreadableChapter(path: path, reason: "cannot open the file"), at: nil))
            }
            guard let text = FileBytes.utf8Text(data) else {
                return .failure(
                    .error(
                        .unreadableChapter(path: path, reason: "not valid UTF-8"),
                        at: SourceLocation(path: path, line: 1)))
            }
            return .success(Chapter(path: path, source: text, inlines: inlines))
        }
        var chapters: [Chapter] = []
        for result in results {
            switch result {
            case .success(let chapter): chapters.append(chapter)
            case .failure(let diagnostic): throw diagnostic
            }
        }
        return Book(root: root, chapters: chapters)
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

    /// The text of UTF-8 bytes, or nil when they are not valid UTF-8. A leading byte order mark
    /// is dropped, as `String(data:encoding:)` does.
    static func utf8Text(_ bytes: [UInt8]) -> String? {
        let hasMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        return String(validating: bytes[(hasMark ? 3 : 0)...], as: UTF8.self)
    }
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
