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
    // TODO: Parse `text` with URLComponents. Only the scheme `myapp` is ours, in any case
    //       (`MYAPP://...` is the same scheme). A user, password or port means "not ours".
    // TODO: Build the route segments: the host first (lower-cased), then the path. Split the
    //       percent-encoded path on "/" first and decode each segment afterwards, so that
    //       `a%2Fb` stays one segment. Forgive one trailing slash.
    // TODO: Match the segments against the shop's shapes: product/:id, order/:id, profile,
    //       promo/:code (with `ref` from the query; an empty `ref=` counts as absent), and the
    //       old shape products/detail?id=... that still arrives from printed links.
    return nil
}
