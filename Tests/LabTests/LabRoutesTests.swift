import EventLog
import Foundation
import HTTPCore
import MockServer
import MockServerTesting
import StrictJSON
import TestSupport
import Testing

@testable import Lab

/// The lab's routes as a client sees them: in process, and over loopback through the server
/// `workbook serve` runs, where the lab's body limit must reach the HTTP engine.
struct LabRoutesTests {
    static let aasa =
        #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/buy/*"}]}]}}"#

    static func body(_ fields: [String: JSONValue]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(JSONValue.object(fields))) ?? Data(), as: UTF8.self)
    }

    @Test func anAnswerIsTheLabsAndWritesNoEvent() async throws {
        let events = InMemoryEventStore()
        let app = try TestServer.makeApp(eventStore: events, routeProviders: [LabRoutes()])
        let response = await app.respond(
            to: post(
                "/api/v1/lab/aasa",
                Self.body(["file": .string(Self.aasa), "url": .string("https://example.com/buy/1")])))
        #expect(response.status == .ok)
        let expected = try HTTPResponse.json(try Lab.aasa(file: Self.aasa, url: "https://example.com/buy/1"))
        #expect(response.body == expected.body)
        // Every member is there, null when it has no value.
        let lintOnly = await app.respond(
            to: post("/api/v1/lab/aasa", Self.body(["file": .string("{}"), "url": .null])))
        #expect(lintOnly.bodyText.hasPrefix(#"{"apps":null,"explanation":null,"findings":[{"#))
        #expect(try await events.recent(limit: 10).isEmpty)
    }

    @Test(arguments: [
        ("/api/v1/lab/aasa", #"{"file": "{}"}"#, "missing_field", "field 'url' is required"),
        ("/api/v1/lab/aasa", #"{"file": 3, "url": null}"#, "invalid_field", "field 'file' must be a string"),
        (
            "/api/v1/lab/aasa", #"{"file": "{}", "url": "example.com/buy"}"#, "invalid_field",
            "field 'url' is invalid: 'example.com/buy' is not an absolute URL; write it with its scheme, as in https://example.com/path"
        ),
        (
            "/api/v1/lab/applinks",
            #"{"manifest": "<manifest/>", "url": "https://example.com/", "apiLevel": 0}"#,
            "invalid_field", "field 'apiLevel' is invalid: must be a whole number from 1 to 35, got 0"
        ),
        (
            "/api/v1/lab/assetlinks", #"{"file": "[]", "package": "com.example.shop", "fingerprint": "AB"}"#,
            "invalid_field",
            #"field 'fingerprint' is invalid: \"AB\" is not a SHA-256 fingerprint; expected 32 hex bytes such as 14:6D:E9:..."#
        ),
    ])
    func aQuestionThatCannotBeAskedIsA400NamingTheField(
        route: String, body: String, code: String, message: String
    )
        async throws
    {
        let app = try TestServer.makeApp(routeProviders: [LabRoutes()])
        let response = await app.respond(to: post(route, body))
        #expect(response.status == .badRequest)
        #expect(response.bodyText == errorResponse(400, code, message).bodyText)
    }

    @Test func theLabTakesFilesOverLoopbackWhereOtherRoutesKeep64KiB() async throws {
        let folder = try TemporaryFolder()
        var options = MockServerRuntime.Options(
            configuration: TestServer.configuration, dataDirectory: folder.url)
        options.port = 0
        options.logger = .silent
        options.logRequests = false
        options.routeProviders = [LabRoutes()]
        let runtime = MockServerRuntime(options: options)
        let address = try await runtime.start()
        let port = try #require(URLComponents(string: address)?.port)
        defer { Task { await runtime.stop() } }

        // A 100 KB AASA file: more than the 64 KiB every other route takes.
        let padding = String(repeating: " ", count: 100_000)
        let large = Self.body([
            "file": .string(Self.aasa + padding), "url": .string("https://example.com/buy/1"),
        ])
        let accepted = await Self.exchange(port: port, path: "/api/v1/lab/aasa", body: Data(large.utf8))
        #expect(accepted.hasPrefix("HTTP/1.1 200 "), "\(accepted.prefix(200))")
        #expect(accepted.contains(#""apps":["ABCDE12345.com.example.app"]"#))

        // Past 1.5 MiB: 413 naming the lab's limit, answered before the body is read.
        let refused = await Self.exchange(
            port: port, path: "/api/v1/lab/aasa", body: nil, announced: LabRoutes.bodyLimit + 1)
        #expect(refused.hasPrefix("HTTP/1.1 413 "))
        #expect(refused.contains("request body exceeds 1572864 bytes"))

        // Every other route keeps 64 KiB.
        let other = await Self.exchange(port: port, path: "/api/v1/track/open", body: nil, announced: 65_537)
        #expect(other.hasPrefix("HTTP/1.1 413 "))
        #expect(other.contains("request body exceeds 65536 bytes"))
    }

    /// Sends a POST (its body, or only a `Content-Length` of `announced`) and reads the answer.
    static func exchange(port: Int, path: String, body: Data?, announced: Int? = nil) async -> String {
        // Generous: a busy 2-core machine may take a while to read 100 KB and answer.
        guard let client = try? RawClient(port: port, receiveTimeoutSeconds: 90) else {
            return "no connection"
        }
        let length = announced ?? body?.count ?? 0
        // Sending 300 KB blocks until the server reads it: off the cooperative pool, which the
        // server under test answers on.
        return await offPool {
            _ = client.send(
                "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(length)\r\nConnection: close\r\n\r\n")
            if let body { _ = client.send(body) }
            return client.readUntilClosed(maxBytes: 1 << 22).text
        }
    }
}

/// The OpenAPI document states the lab's body limit; it is the one the routes declare.
struct LabDocumentTests {
    @Test func everyLabRouteDocumentsItsBodyLimit() throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: ServerResources.openAPIDocument) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let lab = paths.filter { $0.key.hasPrefix(LabRoutes.pathPrefix) }
        #expect(
            lab.keys.sorted()
                == ["aasa", "applinks", "assetlinks", "doctor", "entitlements"].map {
                    LabRoutes.pathPrefix + $0
                })
        let limit = LabRoutes.bodyLimit.formatted(.number.locale(Locale(identifier: "en_US")))
        for (path, operations) in lab {
            let post = try #require(operations["post"] as? [String: Any])
            let responses = try #require(post["responses"] as? [String: Any])
            let tooLarge = try #require(responses["413"] as? [String: Any])
            #expect((tooLarge["description"] as? String)?.contains("(\(limit) bytes)") == true, "\(path)")
        }
    }
}
