import Foundation

/// The shop's screens that a destination URL can open.
enum Screen: Equatable, Sendable {
    case product(id: String)
    case sale(campaign: String?)
    case winter
}

/// The shop's route table for `https://shop.example` destinations. Already written.
func screen(for url: URL) -> Screen? {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
        components.scheme == "https", components.host == "shop.example"
    else { return nil }
    let segments = components.path.split(separator: "/").map(String.init)
    switch segments.count {
    case 1 where segments[0] == "sale":
        return .sale(campaign: components.queryItems?.first { $0.name == "campaign" }?.value)
    case 1 where segments[0] == "winter":
        return .winter
    case 2 where segments[0] == "products":
        return .product(id: segments[1])
    default:
        return nil
    }
}

/// `url` without its `li2_cid` query items, everything else kept as it was (exercise 9).
/// Already written.
func removingClickToken(from url: URL) -> URL {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
        let items = components.percentEncodedQueryItems, items.contains(where: { $0.name == "li2_cid" })
    else { return url }
    let kept = items.filter { $0.name != "li2_cid" }
    components.percentEncodedQueryItems = kept.isEmpty ? nil : kept
    return components.url ?? url
}

/// The answer of `POST /api/v1/track/open`, as the app decodes it.
struct TrackOpenResponse: Decodable, Equatable, Sendable {
    struct Link: Decodable, Equatable, Sendable {
        var id: String
        var domain: String
        var key: String
        var url: String
    }

    var clickId: String
    var link: Link?
    var matchMethod: String?
    var missReason: String?
}

/// What the app does after the lookup.
enum Navigation: Equatable, Sendable {
    /// A matched link the app has a screen for. `clickId` is kept for conversions.
    case show(Screen, clickId: String)
    /// A matched link without a screen: the website shows the destination.
    case openInBrowser(URL, clickId: String)
    /// No link matched: the home screen, and the service's reason for the log.
    case stayHome(missReason: String)
    /// The answer could not be used: the home screen, and what went wrong.
    case stayHomeAfterFailure(Failure)
}

/// Why an answer could not be used.
enum Failure: Equatable, Sendable {
    /// The service answered with a status other than 2xx.
    case http(status: Int)
    /// The body is not the JSON of a track/open answer.
    case unreadableAnswer
    /// `link.url` is not a URL.
    case badDestination(String)
}

/// Turns the service's answer into what the app does next.
///
/// ```swift
/// navigation(status: 200, body: matchedJSON)   // .show(.sale(campaign: "summer"), clickId: "Qm7p…")
/// navigation(status: 401, body: errorJSON)     // .stayHomeAfterFailure(.http(status: 401))
/// ```
func navigation(status: Int, body: Data) -> Navigation {
    guard (200...299).contains(status) else { return .stayHomeAfterFailure(.http(status: status)) }
    guard let response = try? JSONDecoder().decode(TrackOpenResponse.self, from: body) else {
        return .stayHomeAfterFailure(.unreadableAnswer)
    }
    guard let link = response.link else { return .stayHome(missReason: response.missReason ?? "") }
    guard let url = URL(string: link.url) else { return .stayHomeAfterFailure(.badDestination(link.url)) }
    // The token names one click; it has no business in a screen or in the browser's address bar.
    let destination = removingClickToken(from: url)
    if let screen = screen(for: destination) {
        return .show(screen, clickId: response.clickId)
    }
    return .openInBrowser(destination, clickId: response.clickId)
}
