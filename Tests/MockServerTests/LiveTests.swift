import AttributionService
import Foundation
import HTTPCore
import MockServer
import MockServerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The same table as the in-process suite, through libmicrohttpd on 127.0.0.1 with URLSession.
/// A live response carries more headers (Date, Content-Length …): every expected header must be
/// there with its value, and the status and the body must match exactly.
@Suite("The mock server over loopback")
struct LiveTests {
    @Test(arguments: endpointCases)
    func theServerAnswersLikeTheResponder(_ endpointCase: EndpointCase) async throws {
        let app = try TestServer.makeApp(testClock: endpointCase.testClock)
        try await withLiveServer(app) { port in
            let session = makeSession()
            defer { session.finishTasksAndInvalidate() }
            for request in endpointCase.setup {
                _ = try await send(request, port: port, session: session)
            }
            let live = try await send(endpointCase.request, port: port, session: session)
            #expect(live.status == endpointCase.expected.status)
            #expect(live.bodyText == endpointCase.expected.bodyText)
            for field in endpointCase.expected.headers {
                #expect(live.headers[field.name] == field.value, "header \(field.name)")
            }
        }
    }
}
