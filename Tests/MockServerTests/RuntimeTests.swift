import AttributionService
import EventLog
import Foundation
import HTTPCore
import MockServer
import MockServerTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A temporary data folder, removed when the test ends.
final class DataFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mock-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    var eventLog: String { url.appendingPathComponent(MockServerRuntime.eventLogName).path }
}

/// The whole server as `workbook serve` runs it (event log on disk, libmicrohttpd, purge task),
/// started in this process on 127.0.0.1 and a free port.
@Suite("The running server", .serialized)
struct RuntimeTests {
    static func runtime(in folder: DataFolder, reset: Bool = false) -> MockServerRuntime {
        var options = MockServerRuntime.Options(
            configuration: TestServer.configuration, dataDirectory: folder.url)
        options.port = 0
        options.reset = reset
        options.logger = .silent
        return MockServerRuntime(options: options)
    }

    static func port(of address: String) throws -> Int {
        try #require(URLComponents(string: address)?.port)
    }

    @Test func oversizeAndSlowRequestsDoNotTakeTheServerDown() async throws {
        let folder = try DataFolder()
        let runtime = Self.runtime(in: folder)
        let port = try Self.port(of: try await runtime.start())
        let session = makeSession()
        defer { session.finishTasksAndInvalidate() }

        // A client that announces a body far over the limit is answered 413 without sending it.
        let oversize = try RawClient(port: port)
        oversize.send(
            "POST /api/v1/track/open HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Li2-Key: \(TestServer.publishableKey)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 10000000\r\n\r\n")
        #expect(await oversize.readAll().hasPrefix("HTTP/1.1 413"))

        // Clients that send half a request and stall hold a connection each, but no thread.
        let stalled = try (0..<20).map { _ in try RawClient(port: port) }
        for client in stalled {
            client.send(
                "POST /api/v1/track/open HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 40\r\n\r\n{\"dee")
        }
        for _ in 0..<10 {
            let response = try await send(
                post(
                    "/api/v1/track/open", #"{"deepLink":"https://go.example/summer"}"#, headers: publishable),
                port: port, session: session)
            #expect(response.status == .ok)
        }
        let health = try await send(get("/healthz"), port: port, session: session)
        #expect(health.bodyText == #"{"status":"ok"}"#)
        await runtime.stop(gracePeriod: .seconds(2))
    }

    @Test func stoppingFinishesTheBurstAndKeepsEveryAnsweredEvent() async throws {
        let folder = try DataFolder()
        let runtime = Self.runtime(in: folder)
        let port = try Self.port(of: try await runtime.start())
        let session = makeSession()
        defer { session.finishTasksAndInvalidate() }
        let clickIds = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<40 {
                group.addTask {
                    let body =
                        #"{"li2Domains":["go.example"],"clipboardStatus":"\#(index % 2 == 0 ? "empty" : "denied")"}"#
                    let response = try await send(
                        post("/api/v1/track/open", body, headers: publishable), port: port, session: session)
                    guard response.status == .ok else { return nil }
                    let answer = try JSONDecoder().decode(TrackOpenResponse.self, from: response.body)
                    return answer.clickId
                }
            }
            var ids: [String] = []
            for try await id in group { if let id { ids.append(id) } }
            return ids
        }
        await runtime.stop(gracePeriod: .seconds(5))
        #expect(clickIds.count == 40)

        let store = try SQLiteEventStore(path: folder.eventLog)
        let stored = try await store.recent(limit: 1_000)
        await store.close()
        let storedIds = stored.compactMap { event in
            (try? JSONDecoder().decode(OpenEvent.self, from: event.json))?.clickId
        }
        #expect(Set(storedIds) == Set(clickIds))
    }

    @Test func resetEmptiesTheDataFolderAndKeepingItKeepsTheEvents() async throws {
        let folder = try DataFolder()
        for (reset, expected) in [(false, 1), (false, 2), (true, 1)] {
            let runtime = Self.runtime(in: folder, reset: reset)
            let port = try Self.port(of: try await runtime.start())
            let session = makeSession()
            _ = try await send(
                post(
                    "/api/v1/track/open", #"{"deepLink":"https://go.example/summer"}"#, headers: publishable),
                port: port, session: session)
            let events = try await send(get("/api/v1/events", headers: secret), port: port, session: session)
            session.finishTasksAndInvalidate()
            await runtime.stop(gracePeriod: .seconds(2))
            let listing = try JSONSerialization.jsonObject(with: events.body) as? [String: Any]
            #expect((listing?["events"] as? [Any])?.count == expected, "reset: \(reset)")
            #expect(listing?["total"] as? Int == expected, "reset: \(reset)")
        }
    }

    @Test func aTakenPortIsReportedNotIgnored() async throws {
        let folder = try DataFolder()
        let first = Self.runtime(in: folder)
        let port = try Self.port(of: try await first.start())
        var options = MockServerRuntime.Options(
            configuration: TestServer.configuration, dataDirectory: folder.url)
        options.port = port
        options.logger = .silent
        let second = MockServerRuntime(options: options)
        await #expect(throws: MockServerRuntime.StartError.self) { try await second.start() }
        await first.stop(gracePeriod: .seconds(1))
    }
}
