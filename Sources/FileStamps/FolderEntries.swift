import Foundation

/// A folder's entries read with `readdir` and `fstatat`: what the watcher and the build's memos
/// walk on every save, over every folder the site is built from (Foundation's listing and `URL`
/// paths cost tens of microseconds an entry; a walk of the book's `Sources` and `Tests` took
/// 50 ms with them).
public enum FolderEntries {
    public struct Entry: Sendable {
        public var name: String
        public var isFolder: Bool
        public var stamp: FileStamp
    }

    /// The entries of `path` whose names do not start with a dot (symbolic links followed); nil
    /// when the folder cannot be opened.
    public static func read(_ path: String) -> [Entry]? {
        guard let folder = opendir(path) else { return nil }
        defer { closedir(folder) }
        let descriptor = dirfd(folder)
        var entries: [Entry] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            guard !name.hasPrefix(".") else { continue }
            var info = stat()
            guard fstatat(descriptor, name, &info, 0) == 0 else { continue }
            entries.append(
                Entry(name: name, isFolder: (info.st_mode & S_IFMT) == S_IFDIR, stamp: FileStamp(info)))
        }
        return entries
    }

    /// Every file under `folders` of `root` (paths relative to `root`, in no particular order; a
    /// folder `""` is `root` itself), with its stamp: missing folders are empty, hidden ones and
    /// those `skips` names are not entered, and the walk stops after `limit` files.
    public static func files(
        root: String, folders: [String], limit: Int = .max, skips: (String) -> Bool = { _ in false }
    ) -> [(path: String, stamp: FileStamp)] {
        var files: [(path: String, stamp: FileStamp)] = []
        var queue = folders
        while let folder = queue.popLast(), files.count < limit {
            guard let entries = read(folder.isEmpty ? root : root + "/" + folder) else { continue }
            for entry in entries {
                let path = folder.isEmpty ? entry.name : folder + "/" + entry.name
                if entry.isFolder {
                    if !skips(entry.name) { queue.append(path) }
                } else {
                    files.append((path, entry.stamp))
                }
            }
        }
        return files
    }
}
