import FileStamps
import Foundation

/// The files under a few folders of a root, each with its stamp, keyed by path relative to the
/// root (`chapters/08-the-track-open-protocol.md`).
package struct FolderSnapshot: Equatable, Sendable {
    package var files: [String: FileStamp] = [:]

    /// A walk past `limit` files stops, so that a huge tree dropped into a watched folder cannot
    /// make every look slow.
    static let limit = 20_000

    package init(files: [String: FileStamp] = [:]) {
        self.files = files
    }

    /// Reads the stamps of every file under `folders` (missing folders are empty), never looking
    /// into a folder whose name is in `skipped` nor into hidden ones.
    package static func take(root: URL, folders: [String], skipping skipped: Set<String>) -> FolderSnapshot {
        var snapshot = FolderSnapshot()
        let files = FolderEntries.files(
            root: root.path, folders: folders, limit: limit, skips: { skipped.contains($0) })
        for file in files { snapshot.files[file.path] = file.stamp }
        return snapshot
    }

    /// The paths added, removed or changed since `earlier`, sorted.
    package func changedPaths(since earlier: FolderSnapshot) -> [String] {
        var changed = Set<String>()
        for (path, stamp) in files where earlier.files[path] != stamp { changed.insert(path) }
        for path in earlier.files.keys where files[path] == nil { changed.insert(path) }
        return changed.sorted()
    }
}
