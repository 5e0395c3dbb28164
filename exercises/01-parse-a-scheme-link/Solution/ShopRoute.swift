import Foundation

/// The screens of the demo shop that a link may open (chapter 02, "Routes are values").
enum ShopRoute: Equatable, Sendable {
    case product(id: String)
    case order(id: String)
    case profile
    case promo(code: String, ref: String?)
}

/// Turns a `myapp` link into the screen it names, or `nil` when the link is not ours or names no
/// screen.
///
/// ```swift
/// route(forLink: "myapp://product/42")               // .product(id: "42")
/// route(forLink: "myapp://promo/SPRING?ref=mail")    // .promo(code: "SPRING", ref: "mail")
/// route(forLink: "https://example.com/product/42")   // nil: not a scheme link
/// ```
func route(forLink text: String) -> ShopRoute? {
    guard let components = URLComponents(string: text),
        components.scheme?.lowercased() == "myapp",
        components.user == nil, components.password == nil, components.port == nil,
        let segments = routeSegments(components)
    else { return nil }
    let query = components.queryItems ?? []
    func value(_ name: String) -> String? {
        query.first { $0.name == name && $0.value?.isEmpty == false }?.value
    }
    switch segments.count {
    case 1 where segments[0] == "profile":
        return .profile
    case 2 where segments[0] == "product" && !segments[1].isEmpty:
        return .product(id: segments[1])
    case 2 where segments[0] == "order" && !segments[1].isEmpty:
        return .order(id: segments[1])
    case 2 where segments[0] == "promo" && !segments[1].isEmpty:
        return .promo(code: segments[1], ref: value("ref"))
    case 2 where segments == ["products", "detail"]:
        return value("id").map { .product(id: $0) }
    default:
        return nil
    }
}

/// A custom scheme has no server: the "host" is the first word of the app's own path. So the
/// segments are the host (lower-cased, as hosts are case-insensitive) followed by the path.
private func routeSegments(_ components: URLComponents) -> [String]? {
    var segments: [String] = []
    if let host = components.percentEncodedHost, !host.isEmpty {
        guard let decoded = host.removingPercentEncoding else { return nil }
        segments.append(decoded.lowercased())
    }
    var path = Substring(components.percentEncodedPath)
    if path.hasPrefix("/") { path = path.dropFirst() }
    if path.hasSuffix("/") { path = path.dropLast() }
    if path.isEmpty { return segments }
    // Split before decoding: `a%2Fb` is one product ID, not two segments.
    for raw in path.split(separator: "/", omittingEmptySubsequences: false) {
        guard let segment = raw.removingPercentEncoding else { return nil }
        segments.append(segment)
    }
    return segments
}
