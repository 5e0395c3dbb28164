import Foundation

/// Compares tangled files with the disk, and writes them safely.
public struct TanglePlan: Sendable {
    public enum Change: Sendable, Equatable {
        case create
        case update(old: String)
        case removeOrphan(old: String)
    }

    /// Files to change, each with its new content (nil for a removal).
    public var changes: [(path: String, change: Change, content: String?)] = []
    /// Problems that stop a write: hand edits and foreign files in the way, orphans edited by hand.
    public var problems: [Diagnostic] = []
    /// Notes about what a write did or would do (orphans removed).
    public var notes: [Diagnostic] = []

    public var isInSync: Bool { changes.isEmpty && problems.isEmpty }
}

public enum TangleWriter {
    /// Compares `result` with the files under `root`.
    ///
    /// With `force`, hand-edited or foreign files are planned as updates instead of problems.
    public static func plan(_ result: TangleResult, root: URL, force: Bool) -> TanglePlan {
        var plan = TanglePlan()
        let blockLocation = Dictionary(
            result.blocks.compactMap { block in block.attributes.file.map { ($0, block.location) } },
            uniquingKeysWith: { first, _ in first })
        for file in result.files {
            guard let data = FileBytes.contents(ofFile: root.appendingPathComponent(file.path).path) else {
                plan.changes.append((file.path, .create, file.content))
                continue
            }
            // Most files are unchanged: compare bytes before making a string of the old text.
            if sameBytes(file.content, data) { continue }
            let old = String(decoding: data, as: UTF8.self)
            switch GeneratedFileHeader.inspect(old) {
            case .generated:
                plan.changes.append((file.path, .update(old: old), file.content))
            case .handEdited where !force:
                plan.problems.append(
                    .error(.handEdited(path: file.path), at: SourceLocation(path: file.path, line: 1)))
            case .foreign where !force:
                plan.problems.append(
                    .error(
                        .notGenerated(path: file.path),
                        at: blockLocation[file.path] ?? SourceLocation(path: file.path, line: 1)))
            case .handEdited, .foreign:
                plan.changes.append((file.path, .update(old: old), file.content))
            }
        }
        let targets = Set(result.files.map(\.path))
        for path in generatedFiles(under: root) where !targets.contains(path) {
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path)
            else {
                continue
            }
            let old = String(decoding: data, as: UTF8.self)
            if case .handEdited = GeneratedFileHeader.inspect(old), !force {
                plan.problems.append(.error(.handEdited(path: path), at: SourceLocation(path: path, line: 1)))
            } else {
                plan.changes.append((path, .removeOrphan(old: old), nil))
            }
        }
        return plan
    }

    private static func sameBytes(_ text: String, _ bytes: [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            bytes.withUnsafeBufferPointer { other in
                utf8.count == other.count
                    && (utf8.count == 0 || memcmp(utf8.baseAddress!, other.baseAddress!, utf8.count) == 0)
            }
        }
    }

    /// Applies a plan: each file written to a temporary file and renamed over the old one.
    public static func apply(_ plan: TanglePlan, root: URL) throws(Diagnostic) {
        let fileManager = FileManager.default
        let rootText = root.path
        // Many files share a folder: make each folder once (by the target's text up to its last
        // `/`), and name files by plain path text instead of building a URL for each.
        var madeFolders: Set<Substring> = []
        for (path, change, content) in plan.changes {
            if case .removeOrphan = change {
                do { try fileManager.removeItem(at: root.appendingPathComponent(path)) } catch {
                    throw .error(.writeFailed(path: path, reason: error.localizedDescription), at: nil)
                }
                continue
            }
            guard let content else { continue }
            let folderText = path[..<(path.lastIndex(of: "/") ?? path.startIndex)]
            if !madeFolders.contains(folderText) {
                do {
                    try fileManager.createDirectory(
                        at: root.appendingPathComponent(path).deletingLastPathComponent(),
                        withIntermediateDirectories: true)
                } catch {
                    throw .error(.writeFailed(path: path, reason: error.localizedDescription), at: nil)
                }
                madeFolders.insert(folderText)
            }
            if let reason = writeAtomically(content, toPath: rootText + "/" + path) {
                throw .error(.writeFailed(path: path, reason: reason), at: nil)
            }
        }
    }

    /// Writes `content` to a temporary file beside `url` and renames it over `url`, so a reader
    /// never sees half a file. No fsync: generated files can always be generated again.
    /// Returns the reason on failure.
    static func writeAtomically(_ content: String, to url: URL) -> String? {
        writeAtomically(content, toPath: url.path)
    }

    static func writeAtomically(_ content: String, toPath path: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { path[...$0] } ?? ""
        let name = slash.map { path[path.index(after: $0)...] } ?? path[...]
        let temporary = "\(folder).\(name).tangle-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        var failure: String?
        var bytes = content
        bytes.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if failure != nil { unlink(temporary) }
        return failure
    }

    /// Paths (relative to `root`) of the files below it that carry a tangle header. Skips hidden
    /// folders (`.git`, `.build`), dependency folders, and nested books (a folder holding its own
    /// `chapters/`, such as a test fixture): their generated files belong to them.
    public static func generatedFiles(under root: URL) -> [String] {
        var walk = GeneratedFileWalk(rootPath: root.standardizedFileURL.path)
        walk.visit(folder: walk.rootPath, relative: "")
        return walk.found.sorted()
    }
}

/// Walks a book folder with `opendir` and `lstat`-like types, as the file manager's enumerator
/// with hidden files skipped does (symbolic links are neither followed nor reported), without a
/// URL and a file handle per entry: a book holds hundreds of generated files.
private struct GeneratedFileWalk {
    let rootPath: String
    private(set) var found: [String] = []
    /// The first bytes of a file, where the header's first line stands.
    private var head = [UInt8](repeating: 0, count: 160)

    init(rootPath: String) { self.rootPath = rootPath }

    mutating func visit(folder: String, relative: String) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            // Hidden files and folders (`.git`, `.build`, `.` and `..`) are skipped.
            if name.hasPrefix(".") { continue }
            let path = folder + "/" + name
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            // The chapters themselves are never generated.
            if name == "node_modules" || name == "Packages" || path == rootPath + "/chapters" { continue }
            var type = Int32(entry.pointee.d_type)
            if type == Int32(DT_UNKNOWN) {
                var status = stat()
                guard lstat(path, &status) == 0 else { continue }
                type = Self.directoryEntryType(status.st_mode)
            }
            if type == Int32(DT_DIR) {
                // A nested book (a folder holding its own `chapters/`) owns its generated files.
                var status = stat()
                if stat(path + "/chapters", &status) == 0, status.st_mode & S_IFMT == S_IFDIR { continue }
                visit(folder: path, relative: relativePath)
                continue
            }
            guard type == Int32(DT_REG), CommentSyntax(path: name) != nil, startsWithHeader(path) else {
                continue
            }
            found.append(relativePath)
        }
    }

    private static func directoryEntryType(_ mode: mode_t) -> Int32 {
        switch mode & S_IFMT {
        case S_IFDIR: Int32(DT_DIR)
        case S_IFREG: Int32(DT_REG)
        default: Int32(DT_LNK)
        }
    }

    /// Does the file's head hold the header's marker? Byte search when the head is ASCII; the
    /// string search otherwise, since it compares characters (canonically equivalent ones too).
    private mutating func startsWithHeader(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var count = 0
        while count < head.count {
            let got = head.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + count, $0.count - count, off_t(count))
            }
            if got < 0, errno == EINTR { continue }
            if got <= 0 { break }
            count += got
        }
        let bytes = head[..<count]
        if bytes.allSatisfy({ $0 < 0x80 }) {
            return bytes.withUnsafeBufferPointer {
                Self.marker.withUnsafeBufferPointer(Self.contains(in: $0))
            }
        }
        return String(decoding: bytes, as: UTF8.self).contains(GeneratedFileHeader.marker)
    }

    private static let marker = Array(GeneratedFileHeader.marker.utf8)

    private static func contains(in haystack: UnsafeBufferPointer<UInt8>) -> (UnsafeBufferPointer<UInt8>) ->
        Bool
    {
        { needle in
            guard haystack.count >= needle.count else { return false }
            for start in 0...(haystack.count - needle.count)
            where memcmp(haystack.baseAddress! + start, needle.baseAddress!, needle.count) == 0 {
                return true
            }
            return false
        }
    }
}
