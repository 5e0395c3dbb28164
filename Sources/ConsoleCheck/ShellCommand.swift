import Foundation
import ProcessRunner

/// Runs one transcript command with `/bin/sh -c`, as a reader's terminal would, and collects
/// what it printed (standard output and standard error together, as the terminal shows them).
///
/// The package's runner starts the shell in a process group of its own, so on a timeout the shell
/// *and* everything it started (a `curl` in a pipeline) are killed together, and so is whatever it
/// left running in the background when it exits.
///
/// ```swift
/// let run = ShellCommand.run("echo hi", in: folder, timeout: .seconds(5))
/// run.output  // "hi\n"
/// ```
package enum ShellCommand {
    struct Run: Equatable {
        var output: String
        /// The exit status, or nil when the command was killed at the timeout.
        var status: Int32?
        var timedOut: Bool { status == nil }
    }

    /// The largest output kept; a transcript never shows more.
    static let outputLimit = 1 << 20

    /// `searchFirst`, when given, is put in front of the inherited `PATH`.
    static func run(_ command: String, in directory: URL, timeout: Duration, searchFirst: URL? = nil) -> Run {
        var environment: [String: String] = [:]
        if let searchFirst {
            environment["PATH"] = [searchFirst.path, ProcessInfo.processInfo.environment["PATH"]].compactMap {
                $0
            }
            .joined(separator: ":")
        }
        // The checker runs inside `workbook serve` too, whose own signal handling must stay.
        let result = Subprocess.run(
            "/bin/sh", ["-c", command], in: directory, environment: environment,
            timeout: timeout / .seconds(1),
            outputLimit: outputLimit, stopsOnInterrupt: false, stopsLeftovers: true)
        return Run(output: result.output, status: result.timedOut ? nil : result.status)
    }
}
