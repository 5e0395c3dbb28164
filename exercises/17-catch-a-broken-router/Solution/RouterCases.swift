import DeepLinkCore

/// What the bookshop's router must do with a link: `RouteDecision` without the URL of
/// `.openInBrowser`, which is always the link itself, untouched.
enum Expected: Equatable, Sendable {
    /// Show this screen.
    case navigate(Route)
    /// Hand the link back to the browser.
    case openInBrowser
    /// Drop the link.
    case ignore
}

/// One row of the table: a link, what the bookshop's router must decide, and why.
struct RouterCase: Sendable {
    /// A short name, unique in the table.
    var id: String
    /// The link, as the app receives it.
    var link: String
    var expected: Expected
    /// The rule this case pins down, in plain words.
    var rule: String
}

/// The cases the bookshop's router must pass, and that each broken router must fail.
let routerCases: [RouterCase] = [
    RouterCase(
        id: "book-page", link: "https://books.example/book/42", expected: .navigate(.product(id: "42")),
        rule: "a book's page opens the book"),
    RouterCase(
        id: "www-host", link: "https://www.books.example/book/42", expected: .navigate(.product(id: "42")),
        rule: "www.books.example is the bookshop's too: both hosts are listed"),
    RouterCase(
        id: "plain-http", link: "http://books.example/orders/7", expected: .navigate(.order(id: "7")),
        rule: "an http link on the bookshop's host is ours, like its https twin"),
    RouterCase(
        id: "scheme-link", link: "reader://account", expected: .navigate(.profile),
        rule: "the custom scheme reaches the same table"),
    RouterCase(
        id: "scheme-without-route", link: "reader://settings", expected: .ignore,
        rule: "a custom-scheme link with no route is dropped: there is no web page behind it"),
    RouterCase(
        id: "web-page-without-screen", link: "https://books.example/help/returns", expected: .openInBrowser,
        rule: "a web page the app cannot show goes back to the browser"),
    RouterCase(
        id: "look-alike-host", link: "https://evil-books.example/book/42", expected: .openInBrowser,
        rule: "a host that merely ends in books.example is someone else's"),
    RouterCase(
        id: "user-info", link: "https://books.example@evil.test/book/42", expected: .openInBrowser,
        rule: "the host of this link is evil.test: the text before @ is user info"),
    RouterCase(
        id: "other-port", link: "https://books.example:8443/book/42", expected: .openInBrowser,
        rule: "a port other than 443 is another server"),
    RouterCase(
        id: "encoded-slash", link: "https://books.example/book/a%2Fb",
        expected: .navigate(.product(id: "a/b")),
        rule: "split on / first, then decode: a%2Fb is one segment, the id a/b"),
    RouterCase(
        id: "trailing-slash", link: "https://books.example/book/42/", expected: .navigate(.product(id: "42")),
        rule: "a trailing slash is forgiven"),
    RouterCase(
        id: "deal-with-ref", link: "https://books.example/deal/SPRING?ref=mail",
        expected: .navigate(.promo(code: "SPRING", ref: "mail")), rule: "a deal keeps its ref"),
    RouterCase(
        id: "deal-with-empty-ref", link: "https://books.example/deal/SPRING?ref=",
        expected: .navigate(.promo(code: "SPRING", ref: nil)), rule: "?ref= counts as absent"),
    RouterCase(
        id: "old-catalog-shape", link: "reader://catalog/item?isbn=9780141439600",
        expected: .navigate(.product(id: "9780141439600")), rule: "the old query shape still opens the book"),
]
