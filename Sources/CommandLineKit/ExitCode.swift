/// The four outcomes every command maps to (see README, "Exit codes").
public enum ExitCode: Int32, Sendable {
    /// Success, "yes", or help was printed.
    case success = 0
    /// A "no", or error findings.
    case failure = 1
    /// Bad input: a missing file, invalid JSON or XML, a URL that cannot be parsed.
    case badInput = 2
    /// Wrong usage: an unknown option or a missing argument.
    case usage = 64
}

/// Errors a command throws to end with a message; `CommandLine.run` renders each exactly once.
public enum CommandError: Error, Equatable {
    /// Wrong usage of `command` (the full path, for example `workbook aasa lint`).
    case usage(String, command: [String])
    /// Bad input: one line on stderr, exit 2.
    case badInput(String)
    /// Findings were already printed; exit 1.
    case failure
}
