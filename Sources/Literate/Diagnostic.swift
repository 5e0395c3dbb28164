/// A position in a book file, 1-based, as editors expect in `path:line:col`.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The path as the reader should see it, relative to the book folder
    /// (for example `chapters/03-universal-links.md`).
    public var path: String
    public var line: Int
    public var column: Int

    public init(path: String, line: Int, column: Int = 1) {
        (self.path, self.line, self.column) = (path, line, column)
    }

    public var description: String { "\(path):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
    }
}

/// One finding about the book, printed as a single `path:line:col: severity: message` line.
///
/// Example: `chapters/02-routing.md:41:5: error: no chunk named 'route-tabel'; did you mean
/// 'route-table'?`
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable, Comparable {
        case note, warning, error

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    public var severity: Severity
    /// Nil for findings about the whole run, such as a missing `chapters/` folder.
    public var location: SourceLocation?
    public var message: String

    public init(_ severity: Severity, _ message: LiterateMessage, at location: SourceLocation?) {
        self.severity = severity
        self.location = location
        self.message = message.text
    }

    public init(_ severity: Severity, text: String, at location: SourceLocation?) {
        (self.severity, self.location, self.message) = (severity, location, text)
    }

    public static func error(_ message: LiterateMessage, at location: SourceLocation?) -> Diagnostic {
        Diagnostic(.error, message, at: location)
    }

    public static func warning(_ message: LiterateMessage, at location: SourceLocation?) -> Diagnostic {
        Diagnostic(.warning, message, at: location)
    }

    public var description: String {
        if let location {
            return "\(location): \(severity.rawValue): \(message)"
        }
        return "\(severity.rawValue): \(message)"
    }
}

extension Array where Element == Diagnostic {
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// Each diagnostic once, where it first stands: the builds of a book's languages read the
    /// same chapters, so each of them finds what the others find.
    public func removingRepeats() -> [Diagnostic] {
        var seen: Set<Diagnostic> = []
        return filter { seen.insert($0).inserted }
    }
}
