import Foundation

/// One chapter: its path relative to the book folder, its text and its parsed tree.
public struct Chapter: Sendable {
    /// For example `chapters/03-universal-links.md`.
    public var path: String
    public var source: String
    public var document: MarkdownNode

    public init(path: String, source: String, inlines: Bool = true) {
        self.path = path
        self.source = source
        self.document = MarkdownParser.parse(source, inlines: inlines)
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
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
            else {
                return .failure(
                    .error(.unreadableChapter(path: path, reason: "cannot open the file"), at: nil))
            }
            guard let text = String(data: data, encoding: .utf8) else {
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

/// `map` over independent work items on all cores, keeping the input order.
enum ConcurrentMap {
    static func map<Input: Sendable, Output: Sendable>(
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
