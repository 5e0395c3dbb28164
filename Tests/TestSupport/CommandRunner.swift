import Dispatch
import Foundation
import ProcessRunner

/// Runs the package's executables the way a user does, and captures what they print.
package enum CommandRunner {
    package struct Output {
        package var status: Int32
        package var stdout: String
        package var stderr: String

        package init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// The folder holding the built products (`workbook`, `literate`).
    package static var productsDirectory: URL {
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent()
            }
            fatalError("no .xctest bundle found")
        #else
            return Bundle.main.bundleURL
        #endif
    }

    /// Runs one of the package's executables and waits for it (at most `timeout` seconds).
    ///
    /// Waiting for a process blocks a thread, so it happens on a serial Dispatch queue, never on
    /// the few cooperative threads that every suite shares (loopback servers' handlers run
    /// there); one run at a time also keeps a 2-core machine from drowning in processes.
    package static func run(
        _ tool: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
        timeout: TimeInterval = 600
    ) async throws -> Output {
        await serially {
            collect(
                Subprocess.run(
                    productsDirectory.appendingPathComponent(tool).path, arguments, in: directory,
                    environment: environment, timeout: timeout, separateErrors: true, stopsOnInterrupt: false)
            )
        }
    }

    /// Runs any executable found on PATH, the same way.
    package static func system(
        _ tool: String, _ arguments: [String], in directory: URL? = nil, timeout: TimeInterval = 600
    ) async throws -> Output {
        await serially {
            collect(
                Subprocess.run(
                    "/usr/bin/env", [tool] + arguments, in: directory, timeout: timeout, separateErrors: true,
                    stopsOnInterrupt: false))
        }
    }

    private static let queue = DispatchQueue(label: "workbook-cli-test-runs")

    private static func serially(_ body: @escaping @Sendable () -> Output) async -> Output {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }

    private static func collect(_ result: Subprocess.Result) -> Output {
        // A run past its deadline fails the test with what it printed so far.
        Output(
            status: result.timedOut ? -1 : result.status, stdout: result.output,
            stderr: result.timedOut ? result.errors + "\n(stopped after the test's deadline)" : result.errors)
    }
}

/// A temporary folder removed when the test ends.
package final class TemporaryFolder {
    package let url: URL

    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "workbook-cli-\(UUID().uuidString)"
        )
        .resolvingSymlinksInPath()
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    package func write(_ path: String, _ text: String) throws {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    package func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: url.appendingPathComponent(path).path).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// Copies a fixture folder from beside the tests into this folder.
    package func copyFixture(_ name: String, filePath: String = #filePath) throws {
        let source = URL(fileURLWithPath: filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(name)")
        for item in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(
                at: source.appendingPathComponent(item), to: url.appendingPathComponent(item))
        }
    }
}
