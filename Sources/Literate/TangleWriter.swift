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
            let url = root.appendingPathComponent(file.path)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                plan.changes.append((file.path, .create, file.content))
                continue
            }
            let old = String(decoding: data, as: UTF8.self)
            if old == file.content { continue }
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

    /// Applies a plan: each file written to a temporary file and renamed over the old one.
    public static func apply(_ plan: TanglePlan, root: URL) throws(Diagnostic) {
        let fileManager = FileManager.default
        for (path, change, content) in plan.changes {
            let url = root.appendingPathComponent(path)
            if case .removeOrphan = change {
                do { try fileManager.removeItem(at: url) } catch {
                    throw .error(.writeFailed(path: path, reason: error.localizedDescription), at: nil)
                }
                continue
            }
            guard let content else { continue }
            do {
                try fileManager.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw .error(.writeFailed(path: path, reason: error.localizedDescription), at: nil)
            }
            if let reason = writeAtomically(content, to: url) {
                throw .error(.writeFailed(path: path, reason: reason), at: nil)
            }
        }
    }

    /// Writes `content` to a temporary file beside `url` and renames it over `url`, so a reader
    /// never sees half a file. No fsync: generated files can always be generated again.
    /// Returns the reason on failure.
    static func writeAtomically(_ content: String, to url: URL) -> String? {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tangle-\(getpid())").path
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
        if failure == nil, rename(temporary, url.path) != 0 { failure = String(cString: strerror(errno)) }
        if failure != nil { unlink(temporary) }
        return failure
    }

    /// Paths (relative to `root`) of the files below it that carry a tangle header. Skips hidden
    /// folders (`.git`, `.build`), dependency folders, and nested books (a folder holding its own
    /// `chapters/`, such as a test fixture): their generated files belong to them.
    public static func generatedFiles(under root: URL) -> [String] {
        let fileManager = FileManager.default
        let rootPath = root.standardizedFileURL.path
        guard
            let enumerator = fileManager.enumerator(
                at: root, includingPropertiesForKeys: [.isDirectoryKey, .isRegularFileKey],
                options: [.skipsHiddenFiles])
        else { return [] }
        var found: [String] = []
        for case let url as URL in enumerator {
            let name = url.lastPathComponent
            // The chapters themselves are never generated.
            if name == "node_modules" || name == "Packages"
                || url.standardizedFileURL.path == rootPath + "/chapters"
            {
                enumerator.skipDescendants()
                continue
            }
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
                var isDirectory: ObjCBool = false
                if fileManager.fileExists(
                    atPath: url.appendingPathComponent("chapters").path, isDirectory: &isDirectory),
                    isDirectory.boolValue
                {
                    enumerator.skipDescendants()
                }
                continue
            }
            guard CommentSyntax(path: name) != nil,
                (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                let handle = try? FileHandle(forReadingFrom: url)
            else { continue }
            let head = (try? handle.read(upToCount: 160)) ?? Data()
            try? handle.close()
            let text = String(decoding: head, as: UTF8.self)
            if text.contains(GeneratedFileHeader.marker) {
                let path = url.standardizedFileURL.path
                found.append(
                    path.hasPrefix(rootPath + "/") ? String(path.dropFirst(rootPath.count + 1)) : path)
            }
        }
        return found.sorted()
    }
}
