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
                let temporary = url.deletingLastPathComponent()
                    .appendingPathComponent(".\(url.lastPathComponent).tangle-\(getpid())")
                try Data(content.utf8).write(to: temporary)
                if rename(temporary.path, url.path) != 0 {
                    let reason = String(cString: strerror(errno))
                    try? fileManager.removeItem(at: temporary)
                    throw Diagnostic.error(.writeFailed(path: path, reason: reason), at: nil)
                }
            } catch let diagnostic as Diagnostic {
                throw diagnostic
            } catch {
                throw .error(.writeFailed(path: path, reason: error.localizedDescription), at: nil)
            }
        }
    }

    /// Paths (relative to `root`) of the files below it that carry a tangle header. Skips hidden
    /// folders (`.git`, `.build`) and dependency folders.
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
            if name == "node_modules" || name == "Packages" {
                enumerator.skipDescendants()
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
