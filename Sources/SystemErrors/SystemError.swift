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
public enum SystemError {
    /// The `strerror` text of the error's `errno`. Without one: Foundation's own description for
    /// Foundation's errors, and the error's `description` for a Swift error of the package's own
    /// (bridged, it would read "The operation could not be completed").
    public static func describe(_ error: any Error) -> String {
        if let code = code(of: error) { return String(cString: strerror(code)) }
        let nsError = error as NSError
        let isFoundations =
            type(of: error) is NSError.Type || nsError.domain == NSCocoaErrorDomain
            || nsError.domain == NSPOSIXErrorDomain
        return isFoundations ? nsError.localizedDescription : String(describing: error)
    }

    /// The `errno` behind `error`, looked for through its underlying errors.
    public static func code(of error: any Error) -> Int32? {
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
    public static func current() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }

    /// One line for an error a file-system call threw: `path: cannot read the file (errno text)`
    /// when Foundation named the file, the errno text alone otherwise. What a command prints for
    /// an error it did not expect, instead of Foundation's dump of the error and its user info.
    ///
    /// ```swift
    /// SystemError.message(for: CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: "out/a"]))
    /// // "out/a: cannot write the file (Permission denied)"
    /// ```
    public static func message(for error: any Error) -> String {
        let nsError = error as NSError
        let reason = describe(error)
        let path =
            nsError.userInfo[NSFilePathErrorKey] as? String ?? (nsError.userInfo[NSURLErrorKey] as? URL)?.path
        guard let path else { return reason }
        return "\(path): \(operation(of: nsError)) (\(reason))"
    }

    /// What Foundation was doing, from the Cocoa error's code range (reads 256-511, writes 512-1023).
    private static func operation(of error: NSError) -> String {
        guard error.domain == NSCocoaErrorDomain else { return "failed" }
        switch error.code {
        case CocoaError.Code.fileNoSuchFile.rawValue: return "cannot be found"
        case 256..<512: return "cannot read the file"
        case 512..<1024: return "cannot write the file"
        default: return "failed"
        }
    }
}
