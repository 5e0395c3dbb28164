import CommandLineKit
import Foundation
import MockServer
import ProcessRunner
import SystemErrors

/// `workbook serve --reference`: runs `workbook reference` once, in a child process, while the
/// server answers, and reports to the ``LiveReference`` that serves `/reference/`.
///
/// A child process rather than a thread, for two reasons: the build's own tools (`swift build`,
/// `docc`) are processes anyway, and the project's runner (``Subprocess``) stops the whole
/// program on Ctrl-C, which suits a command but would cut short the server's graceful stop.
/// Here the server's stop ends the child and everything it started (``ChildProcesses/kill(_:)``).
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

    private let process: Process
    private let finished = DispatchSemaphore(value: 0)

    private init(process: Process) {
        self.process = process
    }

    /// Starts the build; nil (after reporting the failure) when the child cannot start.
    package static func start(_ settings: Settings, live: LiveReference, address: String, console: Console)
        -> ReferenceSession?
    {
        live.buildStarted()
        let log = settings.logFile
        let shownLog = ReferenceBuilder.displayPath(log, root: settings.bookRoot)
        let handle: FileHandle
        do {
            try FileManager.default.createDirectory(
                at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            handle = try FileHandle(forWritingTo: log)
        } catch {
            live.buildFailed(reason: "\(log.path): cannot write the file (\(SystemError.describe(error)))")
            console.error("reference: \(log.path): cannot write the file (\(SystemError.describe(error)))")
            return nil
        }
        let process = Process()
        process.executableURL = settings.executable
        process.arguments = [
            "reference", "--book", settings.bookRoot.path, "--out", settings.outputFolder.path,
        ]
        process.currentDirectoryURL = settings.bookRoot
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = handle
        let session = ReferenceSession(process: process)
        process.terminationHandler = { process in
            try? handle.close()
            session.report(
                status: process.terminationStatus, reason: process.terminationReason, settings: settings,
                live: live, address: address, console: console)
            session.finished.signal()
        }
        do {
            try process.run()
        } catch {
            try? handle.close()
            live.buildFailed(reason: "cannot run workbook reference (\(SystemError.describe(error)))")
            console.error("reference: cannot run workbook reference (\(SystemError.describe(error)))")
            return nil
        }
        console.print(ReferenceMessage.serveStarted(address: address, log: shownLog))
        return session
    }

    /// Ends the build if it still runs (the server is stopping).
    package func stop() {
        guard process.isRunning else { return }
        ChildProcesses.kill(process.processIdentifier)
        _ = finished.wait(timeout: .now() + 5)
    }

    private func report(
        status: Int32, reason: Process.TerminationReason, settings: Settings, live: LiveReference,
        address: String, console: Console
    ) {
        let output =
            FileManager.default.contents(atPath: settings.logFile.path).map {
                String(decoding: $0, as: UTF8.self)
            } ?? ""
        let shownLog = ReferenceBuilder.displayPath(settings.logFile, root: settings.bookRoot)
        guard reason == .exit, status == 0 else {
            // Killed by stop(): nobody is left to read about it.
            guard reason == .exit else { return }
            // The command's one error message, which carries the failing tool's last lines.
            let shown =
                output.hasPrefix("error: ")
                ? output
                : output.range(of: "\nerror: ").map { String(output[$0.upperBound...]) }.map {
                    "error: " + $0
                }
                    ?? ReferenceMessage.lastLines(output, count: 20)
            live.buildFailed(reason: shown.trimmingCharacters(in: .whitespacesAndNewlines))
            console.error(ReferenceMessage.serveFailed(status: status, log: shownLog))
            return
        }
        live.buildSucceeded(folder: settings.outputFolder)
        console.error(ReferenceMessage.serveReady(address: address))
        for line in output.split(separator: "\n") where line.hasPrefix("reference: ") {
            console.error("  " + line.dropFirst("reference: ".count))
        }
    }
}
