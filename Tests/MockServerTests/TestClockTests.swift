import AttributionService
import EventLog
import Foundation
import HTTPCore
import MockServer
import MockServerTesting
import Testing

/// `--test-clock` and `--seed`: what tests and the console checker build on.
struct TestClockTests {
    static let iPhone: HTTPHeaders = ["User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X)"]

    func advance(_ app: MockServerApp, by seconds: String) async -> HTTPResponse {
        await app.respond(to: post("/api/v1/test/clock", #"{"advanceSeconds":\#(seconds)}"#, headers: secret))
    }

    /// Visits the summer link as an iPhone and returns the planted token.
    func visit(_ app: MockServerApp) async throws -> String {
        let page = await app.respond(to: get("/l/go.example/summer", headers: Self.iPhone)).bodyText
        let marker = "li2_cid="
        let start = try #require(page.range(of: marker)).upperBound
        return String(page[start...].prefix(16))
    }

    func missReason(_ app: MockServerApp, token: String) async -> String? {
        let body = #"{"deepLink":"https://go.example/summer?li2_cid=\#(token)","clipboardStatus":"read"}"#
        let answer = await app.respond(to: post("/api/v1/track/open", body, headers: publishable))
        let object = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        return object?["missReason"] as? String
    }

    @Test func advancingPastTheRetentionPurgesTheRecord() async throws {
        // Within the retention after the TTL the token is `expired`; once the clock has moved
        // past it, the purge that advancing runs has forgotten the record: `unknown_click`.
        let app = try TestServer.makeApp(testClock: true)
        let token = try await visit(app)
        #expect(await advance(app, by: "90000").status == .ok)
        #expect(await missReason(app, token: token) == "expired")
        #expect(await advance(app, by: "86400").status == .ok)
        #expect(await missReason(app, token: token) == "unknown_click")
    }

    @Test func aStepOfMoreThanAHundredYearsIsRefused() async throws {
        let app = try TestServer.makeApp(testClock: true)
        #expect(
            await advance(app, by: "6.182769686513226e+16")
                == errorResponse(
                    400, "invalid_field",
                    "field 'advanceSeconds' is invalid: must be a number of seconds from 0 to 3153600000 (100 years)"
                ))
    }

    @Test func theClockStopsAtTheLastInstantAnEventCanRecord() async throws {
        let app = try TestServer.makeApp(testClock: true)
        // From 2025, 80 steps of 100 years pass 9999-12-31; every step before that succeeds.
        var refused: HTTPResponse?
        for _ in 0..<80 {
            let answer = await advance(app, by: "3153600000")
            if answer.status != .ok {
                refused = answer
                break
            }
        }
        #expect(
            refused
                == errorResponse(
                    400, "invalid_field",
                    "field 'advanceSeconds' is invalid: would move the clock past 9999-12-31T23:59:59Z"))
        // The server still records events: its clock never left the four-digit years.
        let open = await app.respond(
            to: post("/api/v1/track/open", #"{"deepLink":"https://go.example/summer"}"#, headers: publishable)
        )
        #expect(open.status == .ok)
    }

    @Test func theSameSeedHandsOutTheSameTokens() async throws {
        func clickIds() async throws -> [String] {
            let app = try MockServerApp(
                configuration: TestServer.configuration, eventStore: InMemoryEventStore(),
                tokens: .seeded(8), logger: .silent)
            var ids: [String] = []
            for _ in 0..<3 {
                let answer = await app.respond(
                    to: post(
                        "/api/v1/track/open", #"{"deepLink":"https://go.example/summer"}"#,
                        headers: publishable))
                let object = try #require(
                    try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
                ids.append(try #require(object["clickId"] as? String))
            }
            return ids
        }
        let first = try await clickIds()
        #expect(first == (try await clickIds()))
        #expect(Set(first).count == 3)
    }
}
