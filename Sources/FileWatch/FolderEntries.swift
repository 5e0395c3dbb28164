import Foundation

/// A folder's entries read with `readdir` and `fstatat`: what snapshots and watches walk on every
/// save, over every folder the site is built from (Foundation's listing and `URL` paths cost
/// tens of microseconds an entry; a walk of the book's `Sources` and `Tests` took 50 ms with them).
enum FolderEntries {
    struct Entry {
        var name: String
        var isFolder: Bool
        var stamp: FileStamp
    }

    /// The entries of `path` whose names do not start with a dot (symbolic links followed); nil
    /// when the folder cannot be opened.
    static func read(_ path: String) -> [Entry]? {
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
            let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            entries.append(
                Entry(
                    name: name, isFolder: (info.st_mode & S_IFMT) == S_IFDIR,
                    stamp: FileStamp(modified: modified, size: Int(info.st_size))))
        }
        return entries
    }
}
