import CommandLineKit
import Foundation
import MockServer
import ProcessRunner
import SystemErrors

/// `workbook serve --reference`: runs `workbook reference` once, in a child process, while the
/// server answers, and reports to the ``LiveReference`` that serves `/reference/`.
///
/// A child process rather than a thread, because the build's own tools (`swift build`, `docc`)
/// are processes anyway. It is a ``ChildProcess``, which leaves Ctrl-C to its owner: the server's
/// graceful stop ends the child and everything it started.
///
/// ```swift
/// let session = ReferenceSession.start(settings, live: live.reference, address: address, console: console)
/// ...
/// session?.stop()   // before the server stops
/// ```
package final class ReferenceSession: @unchecked Sendable {
    package struct Settings: Sendable {
        var bookRoot: URL
        /// `workbook reference --out`: `BOOK/.build/reference`.
        var outputFolder: URL
        /// The child's output: `BOOK/.build/reference.log`.
        var logFile: URL
        /// The `workbook` to run: this one.
        var executable: URL? = Bundle.main.executableURL

        package init(bookRoot: URL) {
            self.bookRoot = bookRoot
            self.outputFolder = bookRoot.appendingPathComponent(".build/reference")
            self.logFile = bookRoot.appendingPathComponent(".build/reference.log")
        }
    }

    private let child: ChildProcess
    /// Set once the server has asked the build to stop: nobody is left to read about its end.
    private let stopping = Stopping()

    private init(child: ChildProcess) {
        self.child = child
    }

    /// Starts the build; nil (after reporting the failure) when the child cannot start.
    package static func start(_ settings: Settings, live: LiveReference, address: String, console: Console)
        -> ReferenceSession?
    {
        live.buildStarted()
        let log = settings.logFile
        let shownLog = ReferenceBuilder.displayPath(log, root: settings.bookRoot)
        do {
            try FileManager.default.createDirectory(
                at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            live.buildFailed(reason: "\(log.path): cannot write the file (\(SystemError.describe(error)))")
            console.error("reference: \(log.path): cannot write the file (\(SystemError.describe(error)))")
            return nil
        }
        let child: ChildProcess
        do {
            child = try ChildProcess(
                settings.executable?.path ?? "",
                ["reference", "--book", settings.bookRoot.path, "--out", settings.outputFolder.path],
                in: settings.bookRoot, output: .file(log))
        } catch {
            let reason = "cannot run workbook reference (\(String(cString: strerror(error.code))))"
            live.buildFailed(reason: reason)
            console.error("reference: \(reason)")
            return nil
        }
        let session = ReferenceSession(child: child)
        child.onExit { termination in
            guard !session.stopping.isSet else { return }
            session.report(termination, settings: settings, live: live, address: address, console: console)
        }
        console.print(ReferenceMessage.serveStarted(address: address, log: shownLog))
        return session
    }

    /// Ends the build if it still runs (the server is stopping).
    package func stop() {
        stopping.set()
        child.kill()
        child.wait(timeout: 5)
    }

    private func report(
        _ termination: ChildProcess.Termination, settings: Settings, live: LiveReference, address: String,
        console: Console
    ) {
        let output =
            FileManager.default.contents(atPath: settings.logFile.path).map {
                String(decoding: $0, as: UTF8.self)
            } ?? ""
        let shownLog = ReferenceBuilder.displayPath(settings.logFile, root: settings.bookRoot)
        guard termination == .exited(0) else {
            // The command's one error message, which carries the failing tool's last lines.
            let shown =
                output.hasPrefix("error: ")
                ? output
                : output.range(of: "\nerror: ").map { String(output[$0.upperBound...]) }.map {
                    "error: " + $0
                }
                    ?? ReferenceMessage.lastLines(output, count: 20)
            live.buildFailed(reason: shown.trimmingCharacters(in: .whitespacesAndNewlines))
            console.error(ReferenceMessage.serveFailed(status: termination.status, log: shownLog))
            return
        }
        live.buildSucceeded(folder: settings.outputFolder)
        console.error(ReferenceMessage.serveReady(address: address))
        for line in output.split(separator: "\n") where line.hasPrefix("reference: ") {
            console.error("  " + line.dropFirst("reference: ".count))
        }
    }
}

/// A flag set once, read from the thread that sees the child end.
private final class Stopping: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }

    func set() { lock.withLock { value = true } }
}
