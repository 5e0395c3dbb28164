import Foundation
import Testing

@testable import DiagnoseASupportReport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The book's mock attribution server (chapter 8), started for one test with
/// `workbook serve --port 0 --test-clock` on a fresh data folder and a copy of the demo
/// configuration (`config/demo.json`), changed as the test says, and stopped at the end.
///
/// `workbook exercises check` tells the tests where `workbook` and the repository are, in the
/// environment variables WORKBOOK_EXECUTABLE and WORKBOOK_ROOT.
final class MockServer: @unchecked Sendable {
    /// `http://127.0.0.1:PORT`.
    let address: String
    let publishableKey: String
    let secretKey: String
    private let process: Process
    private let dataFolder: URL

    private init(
        address: String, publishableKey: String, secretKey: String, process: Process, dataFolder: URL
    ) {
        self.address = address
        self.publishableKey = publishableKey
        self.secretKey = secretKey
        self.process = process
        self.dataFolder = dataFolder
    }

    /// Starts the server on the demo configuration after `edit` changed it, and waits (at most
    /// 30 s) for its `listening on` line and its keys.
    static func start(editing edit: (inout [String: Any]) -> Void = { _ in }) async throws -> MockServer {
        let environment = ProcessInfo.processInfo.environment
        let executable = try #require(
            environment["WORKBOOK_EXECUTABLE"],
            "run this exercise with 'workbook exercises check 16': it starts the mock server with workbook serve"
        )
        let root = try #require(environment["WORKBOOK_ROOT"], "WORKBOOK_ROOT must name the repository")
        let dataFolder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "exercise-16-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataFolder, withIntermediateDirectories: true)
        let demo = try Data(contentsOf: URL(fileURLWithPath: "\(root)/config/demo.json"))
        var configuration = try #require(try JSONSerialization.jsonObject(with: demo) as? [String: Any])
        edit(&configuration)
        let configurationFile = dataFolder.appendingPathComponent("config.json")
        try JSONSerialization.data(withJSONObject: configuration).write(to: configurationFile)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "serve", "--port", "0", "--test-clock", "--no-site", "--data-dir",
            dataFolder.appendingPathComponent("events").path, "--config", configurationFile.path,
        ]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let lines = AsyncStream<String> { continuation in
            let buffer = LineBuffer()
            output.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                if data.isEmpty {
                    handle.readabilityHandler = nil
                    continuation.finish()
                    return
                }
                for line in buffer.append(data) { continuation.yield(line) }
            }
        }
        try process.run()
        let greeting = try await withThrowingTaskGroup(of: [String]?.self) { group in
            group.addTask {
                var seen: [String] = []
                for await line in lines {
                    seen.append(line)
                    if line.hasPrefix("test clock:") { return seen }
                }
                return seen
            }
            group.addTask {
                try await Task.sleep(for: .seconds(30))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let greeting, let listening = greeting.first(where: { $0.hasPrefix("listening on ") }) else {
            process.terminate()
            let said = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
            throw ServerError(
                "workbook serve did not print its 'listening on' line in time. It said: \(said)")
        }
        func key(_ label: String) -> String? {
            greeting.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label + " ") }?
                .split(separator: " ").dropFirst().first.map(String.init)
        }
        guard let publishable = key("publishable"), let secret = key("secret") else {
            process.terminate()
            throw ServerError("workbook serve did not print its keys")
        }
        return MockServer(
            address: String(listening.dropFirst("listening on ".count)), publishableKey: publishable,
            secretKey: secret, process: process, dataFolder: dataFolder)
    }

    /// Stops the server and removes its data folder.
    func stop() {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: dataFolder)
    }

    /// `GET path`, as support fetches the association file: status, headers and body.
    func fetch(_ path: String) async throws -> Fetch {
        var request = URLRequest(url: try #require(URL(string: address + path)))
        request.timeoutInterval = 10
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return Fetch(status: http.statusCode, headers: headers, body: data)
    }

    /// What an app configured with `apiBaseURL` and `key` gets from `POST {apiBaseURL}/track/open`:
    /// the status and the body.
    func trackOpen(apiBaseURL: String, key: String) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: try #require(URL(string: apiBaseURL + "/track/open")))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"deepLink":"https://go.example/summer"}"#.utf8)
        request.timeoutInterval = 10
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(key, forHTTPHeaderField: "X-Li2-Key")
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    struct ServerError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// Splits a byte stream into lines.
private final class LineBuffer: @unchecked Sendable {
    private var pending = Data()
    private let lock = NSLock()

    func append(_ data: Data) -> [String] {
        lock.withLock {
            pending.append(data)
            var lines: [String] = []
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...newline)
            }
            return lines
        }
    }
}
