import Dispatch
import Foundation
import Testing

/// Runs the package's executables the way a user does, and captures what they print.
package enum CommandRunner {
    package struct Output {
        package var status: Int32
        package var stdout: String
        package var stderr: String
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

    /// Runs one of the package's executables and waits for it.
    ///
    /// Waiting for a process blocks a thread, so it happens on a serial Dispatch queue, never on
    /// the few cooperative threads that every suite shares (loopback servers' handlers run
    /// there); one run at a time also keeps a 2-core machine from drowning in processes.
    package static func run(
        _ tool: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
    ) async throws -> Output {
        try await offPool {
            let process = Process()
            process.executableURL = productsDirectory.appendingPathComponent(tool)
            try start(process, arguments: arguments, in: directory, environment: environment)
            return try collect(process)
        }
    }

    /// Runs any executable found on PATH, the same way.
    package static func system(_ tool: String, _ arguments: [String], in directory: URL? = nil) async throws
        -> Output
    {
        try await offPool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            try start(process, arguments: [tool] + arguments, in: directory, environment: [:])
            return try collect(process)
        }
    }

    private static let queue = DispatchQueue(label: "workbook-cli-test-runs")

    private static func offPool(_ body: @escaping @Sendable () throws -> Output) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    private static func start(
        _ process: Process, arguments: [String], in directory: URL?, environment: [String: String]
    ) throws {
        process.arguments = process.arguments.map { $0 + arguments } ?? arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
    }

    private static func collect(_ process: Process) throws -> Output {
        guard let out = process.standardOutput as? Pipe, let err = process.standardError as? Pipe else {
            throw CocoaError(.fileReadUnknown)
        }
        // Read both pipes concurrently so a chatty process cannot fill one and block.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
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
