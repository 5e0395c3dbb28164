import Foundation
import Testing

/// A phone's browser, as the short-link service tells them apart: by the User-Agent.
enum Browser: String, Sendable {
    case iPhoneSafari =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
    case androidChrome =
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36"
}

extension MockServerProcess {
    /// A tap on the short link `https://go.example/KEY` in a browser, on a phone without the
    /// app. The laptop cannot answer for `go.example`, so the visit goes to the server's
    /// `/l/go.example/KEY`, which answers exactly as the short link would.
    func visit(_ key: String, in browser: Browser) async throws -> HTTPAnswer {
        try await request("GET", "/l/\(workspace.linkDomains[0])/\(key)", headers: ["User-Agent": browser.rawValue])
    }

    /// The link the interstitial page copies when an iPhone user taps its button.
    func linkCopiedByTheInterstitial(_ key: String) async throws -> String {
        let page = try await visit(key, in: .iPhoneSafari)
        #expect(page.status == 200)
        return try #require(clipboardLink(inInterstitial: page.body), "no clipboard link in \(page.body)")
    }

    /// The referrer Google Play keeps when an Android user follows the short link to the store.
    func installReferrerPlantedBy(_ key: String) async throws -> String {
        let redirect = try await visit(key, in: .androidChrome)
        #expect(redirect.status == 302)
        let store = try #require(redirect.location, "no Location in the answer")
        return try #require(installReferrer(inStoreURL: store), "no referrer in \(store)")
    }
}

/// The text of the page's `<code id="li2-clipboard-link">` element, which its button copies
/// (the page's script reads `textContent`, so the HTML escapes are undone).
func clipboardLink(inInterstitial html: String) -> String? {
    guard let open = html.range(of: #"<code id="li2-clipboard-link">"#),
        let close = html.range(of: "</code>", range: open.upperBound..<html.endIndex)
    else { return nil }
    return String(html[open.upperBound..<close.lowerBound])
        .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
        .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
        .replacingOccurrences(of: "&amp;", with: "&")
}

/// What Google Play hands the app's first launch: the store URL's `referrer` parameter,
/// decoded once (chapter 7).
func installReferrer(inStoreURL location: String) -> String? {
    URLComponents(string: location)?.queryItems?.first { $0.name == "referrer" }?.value
}

extension MockServerProcess {
    /// Every event the service stored, oldest first, each as canonical JSON without its `at`
    /// (a test clock starts at the real time, so `at` differs on every run).
    func events() async throws -> [String] {
        let answer = try await request(
            "GET", "/api/v1/events?limit=1000", headers: ["Authorization": "Bearer \(workspace.keys.secret)"])
        #expect(answer.status == 200, "\(answer.body)")
        let listing = try #require(
            try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: [[String: Any]]])
        return try (listing["events"] ?? []).reversed().map { event in
            var event = event
            event["at"] = nil
            return try canonicalJSON(event)
        }
    }

    /// Moves the service's clock forward: `POST /api/v1/test/clock` with the secret key. The
    /// phone's clock is the SDK's business and does not move.
    func advanceClock(bySeconds seconds: Int) async throws {
        let answer = try await request(
            "POST", "/api/v1/test/clock",
            headers: ["Authorization": "Bearer \(workspace.keys.secret)", "Content-Type": "application/json"],
            body: #"{"advanceSeconds": \#(seconds)}"#)
        #expect(answer.status == 200, "\(answer.body)")
    }
}

/// A JSON value written with sorted keys and no extra space, so that two texts holding the same
/// value compare equal as strings.
func canonicalJSON(_ value: Any) throws -> String {
    let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self)
}

/// The canonical form of a JSON text written in a test.
func canonicalJSON(text: String) throws -> String {
    try canonicalJSON(JSONSerialization.jsonObject(with: Data(text.utf8)))
}
