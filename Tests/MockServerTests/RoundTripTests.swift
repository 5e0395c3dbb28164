import AttributionService
import Foundation
import HTTPCore
import MockServer
import MockServerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The deferred journeys end to end: a phone without the app visits the short link, the app
/// sends back what the visit planted, and the service finds the link. Each journey runs in
/// process and over loopback.
@Suite("Short link to track/open")
struct RoundTripTests {
    /// Sends one request, in process or live.
    typealias Transport = @Sendable (HTTPRequest) async throws -> HTTPResponse

    static func inProcess(_ app: MockServerApp) -> Transport {
        { request in await app.respond(to: request) }
    }

    @Test(arguments: [false, true])
    func theClipboardLinkFromTheInterstitialResolves(live: Bool) async throws {
        try await run(live: live, testClock: true) { send in
            let page = try await send(get("/l/go.example/summer", headers: ["User-Agent": iPhoneSafari]))
            #expect(page.status == .ok)
            let link = try #require(Self.clipboardLink(in: page.bodyText))
            #expect(link == "https://go.example/summer?li2_cid=T000000000000001")

            let body = #"{"deepLink":"\#(link)","clipboardStatus":"read"}"#
            let open = try await send(post("/api/v1/track/open", body, headers: publishable))
            #expect(
                open.bodyText
                    == #"{"clickId":"T000000000000002","link":\#(summerJSON),"matchMethod":"clipboard","platform":"ios"}"#
            )

            // Read, not consumed: the same link again, until the record's time to live has passed.
            let again = try await send(post("/api/v1/track/open", body, headers: publishable))
            #expect(again.bodyText.contains(#""matchMethod":"clipboard""#))
            _ = try await send(post("/api/v1/test/clock", #"{"advanceSeconds":86400}"#, headers: secret))
            let late = try await send(post("/api/v1/track/open", body, headers: publishable))
            #expect(
                late.bodyText
                    == #"{"clickId":"T000000000000004","link":null,"missReason":"expired","platform":"ios"}"#)
        }
    }

    @Test(arguments: [false, true])
    func theInstallReferrerFromThePlayRedirectResolves(live: Bool) async throws {
        try await run(live: live, testClock: false) { send in
            let redirect = try await send(get("/l/go.example/winter", headers: ["User-Agent": androidChrome]))
            #expect(redirect.status.code == 302)
            // Play hands the app the `referrer` parameter decoded once: what URLComponents gives.
            let location = try #require(redirect.headers["Location"])
            let referrer = try #require(
                URLComponents(string: location)?.queryItems?.first { $0.name == "referrer" }?.value)
            #expect(referrer == "li2_dl=https%3A%2F%2Fgo.example%2Fwinter%3Fli2_cid%3DT000000000000001")

            let body = String(
                decoding: try JSONEncoder().encode(["installReferrer": referrer]), as: UTF8.self)
            let open = try await send(post("/api/v1/track/open", body, headers: publishable))
            #expect(
                open.bodyText
                    == #"{"clickId":"T000000000000002","link":{"domain":"go.example","id":"link_winter","key":"winter","#
                    + #""url":"https://shop.example/winter"},"matchMethod":"install_referrer","platform":"android"}"#
            )

            let events = try await send(get("/api/v1/events", headers: secret))
            #expect(events.bodyText.contains(#""matchMethod":"install_referrer""#))
        }
    }

    /// The text of the element with id `li2-clipboard-link`, HTML-unescaped.
    static func clipboardLink(in html: String) -> String? {
        guard let start = html.range(of: #"id="li2-clipboard-link">"#),
            let end = html[start.upperBound...].range(of: "<")
        else { return nil }
        return String(html[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    private func run(
        live: Bool, testClock: Bool, _ journey: (Transport) async throws -> Void
    ) async throws {
        let app = try TestServer.makeApp(testClock: testClock)
        guard live else {
            try await journey(Self.inProcess(app))
            return
        }
        try await withLiveServer(app) { port in
            let session = makeSession()
            defer { session.finishTasksAndInvalidate() }
            try await journey { request in try await send(request, port: port, session: session) }
        }
    }
}
