import Foundation

/// The screens of the demo shop that a link may open.
enum Route: Equatable, Sendable {
    case product(id: String)
    case order(id: String)
    case profile
}

/// What the app does with a URL that reached it (chapter 02, "Deciding what to do").
enum Decision: Equatable, Sendable {
    /// Show this screen.
    case navigate(Route)
    /// A web link the app has no screen for, or not ours: the browser shows it.
    case openInBrowser(URL)
    /// A scheme link with no route, or a URL that is no link for us at all: drop it.
    case ignore
}

/// The route table, already written: it matches decoded path segments.
func route(for segments: [String], query: [URLQueryItem]) -> Route? {
    switch segments {
    case ["profile"]: return .profile
    case let parts where parts.count == 2 && parts[0] == "product" && !parts[1].isEmpty:
        return .product(id: parts[1])
    case let parts where parts.count == 2 && parts[0] == "order" && !parts[1].isEmpty:
        return .order(id: parts[1])
    default: return nil
    }
}

/// Splits a percent-encoded path on `/` and decodes each segment (chapter 01, "Taking a link
/// apart"); `nil` for a broken `%` escape. Already written.
func decodedSegments(_ encodedPath: String) -> [String]? {
    var path = Substring(encodedPath)
    if path.hasPrefix("/") { path = path.dropFirst() }
    if path.hasSuffix("/") { path = path.dropLast() }
    if path.isEmpty { return [] }
    var segments: [String] = []
    for raw in path.split(separator: "/", omittingEmptySubsequences: false) {
        guard let segment = raw.removingPercentEncoding else { return nil }
        segments.append(segment)
    }
    return segments
}

/// The one place that turns URLs into decisions, for every door: scheme links, Universal Links
/// and App Links.
struct Router: Sendable {
    /// The app's custom schemes, lower-cased.
    var schemes: Set<String> = ["myapp"]
    /// The app's own hosts, lower-cased. `www.example.com` is a different host.
    var hosts: Set<String> = ["example.com", "www.example.com"]

    /// Decides what to do with `url`.
    ///
    /// ```swift
    /// Router().decide(URL(string: "myapp://product/42")!)             // .navigate(.product(id: "42"))
    /// Router().decide(URL(string: "https://example.com/help")!)       // .openInBrowser(...)
    /// Router().decide(URL(string: "myapp://settings")!)               // .ignore
    /// ```
    func decide(_ url: URL) -> Decision {
        // TODO: Send the URL through one of two doors by its scheme (compare lower-cased):
        //       - one of `schemes`: the host is the first segment, then the path (use
        //         `decodedSegments`); a match navigates, anything else is ignored: there is no
        //         web page behind a custom scheme;
        //       - "http" or "https": see the web door below;
        //       - anything else: ignore.
        // TODO: The web door navigates only for http or https, on one of `hosts` exactly (any
        //       case), on that scheme's default port (none, or 80 for http and 443 for https),
        //       without a user or password, and with a matching route. Every other web URL goes back
        //       to the browser untouched.
        return .ignore
    }
}
