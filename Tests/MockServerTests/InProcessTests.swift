import AttributionService
import EventLog
import Foundation
import HTTPCore
import MockServer
import MockServerTesting
import Testing

@Suite("The mock server without sockets")
struct InProcessTests {
    @Test(arguments: endpointCases)
    func theResponderAnswersTheWholeExpectedResponse(_ endpointCase: EndpointCase) async throws {
        let app = try TestServer.makeApp(testClock: endpointCase.testClock)
        for request in endpointCase.setup {
            _ = await app.respond(to: request)
        }
        let response = await app.respond(to: endpointCase.request)
        #expect(response.status == endpointCase.expected.status)
        #expect(response.bodyText == endpointCase.expected.bodyText)
        #expect(response.headers == endpointCase.expected.headers)
    }

    @Test func theTableCoversEveryStatusTheAPIUses() {
        #expect(Set(endpointCases.map(\.expected.status.code)).isSuperset(of: requiredStatuses))
    }

    @Test func everyAnsweredOpenWritesExactlyOneEventAndAFailedOneNone() async throws {
        let events = InMemoryEventStore()
        let app = try TestServer.makeApp(eventStore: events)
        let calls = [
            (#"{"deepLink":"https://go.example/summer"}"#, 200),
            (#"{"li2Domains":["go.example"],"clipboardStatus":"denied"}"#, 200),
            (#"{"installReferrer":"utm_source=google-play"}"#, 200),
            (#"{"clipboardStatus":"denied"}"#, 400),
            (#"{"deepLink":42}"#, 400),
        ]
        for (body, status) in calls {
            let response = await app.respond(to: post("/api/v1/track/open", body, headers: publishable))
            #expect(response.status.code == status)
        }
        #expect(try await events.recent(limit: 100).map(\.type) == ["open", "open", "open"])
    }
}
