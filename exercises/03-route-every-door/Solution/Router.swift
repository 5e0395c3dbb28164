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
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return .ignore }
        let scheme = components.scheme?.lowercased() ?? ""
        if schemes.contains(scheme) {
            return decideScheme(components)
        }
        if scheme == "https" || scheme == "http" {
            return decideWeb(components, url: url)
        }
        return .ignore
    }

    /// There is no web page behind a custom scheme: an unknown one is dropped.
    private func decideScheme(_ components: URLComponents) -> Decision {
        let host = components.percentEncodedHost.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding }
        guard components.user == nil, components.password == nil, components.port == nil,
            let path = decodedSegments(components.percentEncodedPath),
            let route = route(
                for: (host.map { [$0.lowercased()] } ?? []) + path, query: components.queryItems ?? [])
        else { return .ignore }
        return .navigate(route)
    }

    /// Only http or https on one of our hosts, on that scheme's default port, without user info,
    /// is ours. A suffix test would accept evil-example.com; the text before `@` is a user name,
    /// not the host.
    private func decideWeb(_ components: URLComponents, url: URL) -> Decision {
        let defaultPorts = ["http": 80, "https": 443]
        guard let scheme = components.scheme?.lowercased(), let defaultPort = defaultPorts[scheme],
            let host = components.host?.lowercased(), hosts.contains(host),
            components.port == nil || components.port == defaultPort,
            components.user == nil, components.password == nil,
            let segments = decodedSegments(components.percentEncodedPath),
            let route = route(for: segments, query: components.queryItems ?? [])
        else { return .openInBrowser(url) }
        return .navigate(route)
    }
}
