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
    /// Where the book names each file target: its first block, where a failed write is reported.
    public var locations: [String: SourceLocation] = [:]

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
        plan.locations = blockLocation
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

    /// Applies a plan in two steps: every new content is written to a temporary file beside its
    /// target, then each is renamed over its target, so a reader never sees half a file. A write
    /// that fails (no space, no permission, a folder in the way) changes no target: the temporary
    /// files and the folders made for them are removed, and the error names the block that
    /// targets the file, with the system's reason. Orphans are removed last. No fsync:
    /// generated files can always be generated again.
    public static func apply(_ plan: TanglePlan, root: URL) throws(Diagnostic) {
        let rootText = root.path
        var staged: [(path: String, temporary: String, target: String)] = []
        // Folders made here, outermost first, so that a failure can remove them again.
        var madeFolders: [String] = []
        // Many files share a folder: make each folder once (by the target's text up to its last
        // `/`), and name files by plain path text instead of building a URL for each.
        var readyFolders: Set<Substring> = []
        func failure(_ path: String, _ code: Int32, removing temporaries: [String]) -> Diagnostic {
            for temporary in temporaries { unlink(temporary) }
            for folder in madeFolders.reversed() { rmdir(folder) }
            return .error(.writeFailed(path: path, reason: reason(code)), at: plan.locations[path])
        }
        for (path, change, content) in plan.changes {
            if case .removeOrphan = change { continue }
            guard let content else { continue }
            let slash = path.lastIndex(of: "/")
            let folderText = path[..<(slash ?? path.startIndex)]
            let folder = slash == nil ? rootText : rootText + "/" + folderText
            if !readyFolders.contains(folderText) {
                if let code = makeFolders(folder, above: rootText, made: &madeFolders) {
                    throw failure(path, code, removing: staged.map(\.temporary))
                }
                readyFolders.insert(folderText)
            }
            let target = rootText + "/" + path
            let temporary = folder + "/" + temporaryName(staged.count)
            if let code = writeNew(content, toPath: temporary) {
                throw failure(path, code, removing: staged.map(\.temporary))
            }
            staged.append((path, temporary, target))
            // A folder that appeared at the target since tangling would make its rename fail
            // after others were done: find it while nothing has changed yet.
            var status = stat()
            if lstat(target, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                throw failure(path, EISDIR, removing: staged.map(\.temporary))
            }
        }
        for (index, file) in staged.enumerated() {
            guard rename(file.temporary, file.target) != 0 else { continue }
            // Files renamed so far stay, in the folders made for them.
            let code = errno
            madeFolders.removeAll()
            throw failure(file.path, code, removing: staged[index...].map(\.temporary))
        }
        for (path, change, _) in plan.changes {
            guard case .removeOrphan = change else { continue }
            if unlink(rootText + "/" + path) != 0 {
                throw .error(.writeFailed(path: path, reason: reason(errno)), at: nil)
            }
        }
    }

    /// The system's text for an `errno` code, such as "Is a directory".
    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The name of the temporary file the `index`th file of a write is staged in: hidden, beside
    /// its target, and short whatever the target's name (see `longestTemporaryName`).
    static func temporaryName(_ index: Int) -> String { ".tangle-\(getpid())-\(index)" }

    /// The longest name `temporaryName` can return: 10 digits each for the process and index.
    static let longestTemporaryName = 8 + 10 + 1 + 10

    /// Makes `folder` and the missing folders above it, down from the book folder, appending
    /// each one made to `made`. Returns the `errno` of a failure.
    private static func makeFolders(_ folder: String, above rootText: String, made: inout [String])
        -> Int32?
    {
        var status = stat()
        if stat(folder, &status) == 0 {
            return status.st_mode & S_IFMT == S_IFDIR ? nil : ENOTDIR
        }
        var missing: [String] = []
        var candidate = folder
        while candidate.utf8.count > rootText.utf8.count, stat(candidate, &status) != 0 {
            guard errno == ENOENT else { return errno }
            missing.append(candidate)
            candidate = String(candidate[..<(candidate.lastIndex(of: "/") ?? candidate.startIndex)])
        }
        for path in missing.reversed() {
            if mkdir(path, 0o777) == 0 {
                made.append(path)
                continue
            }
            let code = errno
            guard code == EEXIST, stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                return code == EEXIST ? ENOTDIR : code
            }
        }
        return nil
    }

    /// Writes `content` to a new file at `path`. Returns the `errno` of a failure, after
    /// removing what was written. Never opens an existing file (a link there could lead outside
    /// the book): a stale temporary file left by an earlier run is removed first.
    static func writeNew(_ content: String, toPath path: String) -> Int32? {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC
        var descriptor = open(path, flags, 0o644)
        if descriptor < 0, errno == EEXIST, unlink(path) == 0 { descriptor = open(path, flags, 0o644) }
        guard descriptor >= 0 else { return errno }
        var failure: Int32?
        var bytes = content
        bytes.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure != nil { unlink(path) }
        return failure
    }

    /// Why writing `path` (relative to the book folder `rootText`) would fail whatever the
    /// permissions, as an `errno` code, or nil. Asks the file system and writes nothing: a folder
    /// at the path (EISDIR), a file where a folder must be (ENOTDIR), a name or path longer than
    /// the file system takes (ENAMETOOLONG, by `pathconf` for the folders still to be made), or
    /// what `lstat` says. Permission and space are left to the write: an unchanged file is not
    /// written, so a read-only checkout is no error.
    static func writeProblem(rootText: String, path: String) -> Int32? {
        let target = rootText + "/" + path
        var status = stat()
        var existing = target
        var created: [Substring] = []
        let components = path.slashSeparated
        if lstat(target, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFDIR { return EISDIR }
            existing = String(target[..<(target.utf8.lastIndex(of: UInt8(ascii: "/")) ?? target.startIndex)])
        } else {
            guard errno == ENOENT else { return errno }
            // The deepest folder that exists: the names below it will be made.
            guard let name = components.last else { return nil }
            created = [name]
            existing = rootText
            for count in stride(from: components.count - 1, to: 0, by: -1) {
                let folder = rootText + "/" + components[..<count].joined(separator: "/")
                if stat(folder, &status) == 0 {
                    if status.st_mode & S_IFMT != S_IFDIR { return ENOTDIR }
                    existing = folder
                    break
                }
                guard errno == ENOENT else { return errno }
                created.insert(components[count - 1], at: 0)
            }
        }
        let nameLimit = pathconf(existing, Int32(_PC_NAME_MAX))
        if nameLimit > 0, created.contains(where: { $0.utf8.count > nameLimit }) { return ENAMETOOLONG }
        let pathLimit = pathconf(existing, Int32(_PC_PATH_MAX))
        // The limit counts the final NUL; the temporary file stands in the target's folder.
        let folderLength = target.utf8.count - (components.last?.utf8.count ?? 0)
        if pathLimit > 0, max(target.utf8.count, folderLength + longestTemporaryName) >= pathLimit {
            return ENAMETOOLONG
        }
        return nil
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
