import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The book's mock attribution server (chapter 08), started for one test with
/// `workbook serve --port 0 --test-clock` on a fresh data folder, and stopped at the end.
///
/// `workbook exercises check` tells the tests where `workbook` and the repository are, in the
/// environment variables WORKBOOK_EXECUTABLE and WORKBOOK_ROOT.
final class MockServer: @unchecked Sendable {
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

    /// Starts the server and waits (at most 30 s) for its `listening on` line and its keys.
    static func start() async throws -> MockServer {
        let environment = ProcessInfo.processInfo.environment
        let executable = try #require(
            environment["WORKBOOK_EXECUTABLE"],
            "run this exercise with 'workbook exercises check 14': it starts the mock server with workbook serve"
        )
        let root = try #require(environment["WORKBOOK_ROOT"], "WORKBOOK_ROOT must name the repository")
        let dataFolder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "exercise-14-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "serve", "--port", "0", "--test-clock", "--data-dir", dataFolder.path,
            "--config", "\(root)/config/demo.json",
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

    /// `POST /api/v1/track/open` with `json`, and the key given (`nil` sends none).
    func trackOpen(_ json: String, key: String?, platform: String = "ios") async throws -> (
        status: Int, body: Data
    ) {
        var headers = ["Content-Type": "application/json", "X-Li2-Platform": platform]
        if let key { headers["X-Li2-Key"] = key }
        return try await send("POST", "/api/v1/track/open", body: json, headers: headers)
    }

    /// Visits a short link as an iPhone without the app would, and returns the link the
    /// interstitial page offers to copy (with its fresh `li2_cid`).
    func visitAsIPhone(_ key: String) async throws -> String {
        let page = try await send(
            "GET", "/l/go.example/\(key)", body: nil,
            headers: ["User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X)"])
        let html = String(decoding: page.body, as: UTF8.self)
        guard let start = html.range(of: "https://go.example/\(key)?li2_cid=") else {
            throw ServerError("the interstitial page shows no link with li2_cid")
        }
        let token = html[start.upperBound...].prefix { $0.isLetter || $0.isNumber }
        return "https://go.example/\(key)?li2_cid=\(token)"
    }

    /// Moves the server's test clock forward.
    func advanceClock(seconds: Int) async throws {
        let answer = try await send(
            "POST", "/api/v1/test/clock", body: #"{"advanceSeconds": \#(seconds)}"#,
            headers: ["Authorization": "Bearer \(secretKey)", "Content-Type": "application/json"])
        guard answer.status == 200 else { throw ServerError("the test clock answered \(answer.status)") }
    }

    private func send(_ method: String, _ path: String, body: String?, headers: [String: String]) async throws
        -> (
            status: Int, body: Data
        )
    {
        var request = URLRequest(url: try #require(URL(string: address + path)))
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        request.timeoutInterval = 10
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
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
