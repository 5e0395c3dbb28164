import Foundation

/// What `stat` says of a file that changes whenever it is written (its device, inode, size and
/// modification time to the nanosecond), so that a memo or a watcher can tell a file unchanged
/// without reading it, as build tools do.
public struct FileStamp: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var seconds: Int
    public var nanoseconds: Int

    public init(device: UInt64 = 0, inode: UInt64 = 0, size: Int64, seconds: Int, nanoseconds: Int = 0) {
        (self.device, self.inode, self.size, self.seconds, self.nanoseconds) = (
            device, inode, size, seconds, nanoseconds
        )
    }

    init(_ info: stat) {
        self.init(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec))
    }

    /// The file's stamp; nil when it cannot be read.
    public static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStamp(info)
    }
}
