import Foundation

/// What went wrong in a file-system call, in the C library's words (`strerror`), so that a user
/// reads `site/index.html: cannot write the file (Permission denied)` and never an error dump.
///
/// Foundation wraps the `errno` of a failed call in different ways: a `POSIXError`, an `NSError`
/// in the POSIX domain, or a `CocoaError` whose underlying error (`NSUnderlyingErrorKey`) is one
/// of those. This finds it wherever it is.
///
/// ```swift
/// do { try Data().write(to: URL(fileURLWithPath: "/proc/x")) } catch {
///     SystemError.describe(error)   // "No such file or directory"
/// }
/// ```
enum SystemError {
    /// The `strerror` text of the error's `errno`; Foundation's own description when it has none.
    static func describe(_ error: any Error) -> String {
        if let code = code(of: error) { return String(cString: strerror(code)) }
        return (error as NSError).localizedDescription
    }

    /// The `errno` behind `error`, looked for through its underlying errors.
    static func code(of error: any Error) -> Int32? {
        if let posix = error as? POSIXError { return posix.code.rawValue }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return Int32(nsError.code) }
        // An `NSError`, or on Linux a `POSIXError` value: any error, looked into in turn.
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? any Error,
            let code = code(of: underlying)
        {
            return code
        }
        // A Cocoa error without an underlying one still names the common failures.
        guard nsError.domain == NSCocoaErrorDomain else { return nil }
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
        case .fileReadNoPermission, .fileWriteNoPermission: return EACCES
        case .fileWriteFileExists: return EEXIST
        case .fileWriteOutOfSpace: return ENOSPC
        case .fileWriteVolumeReadOnly: return EROFS
        default: return nil
        }
    }

    /// The current `errno` as a thrown error.
    static func current() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
