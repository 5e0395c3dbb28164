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
    // An example of the form. It holds for the bookshop's router, and catches none of the
    // broken ones.
    RouterCase(
        id: "book-page", link: "https://books.example/book/42", expected: .navigate(.product(id: "42")),
        rule: "a book's page opens the book")
    // TODO: Add cases, one rule of chapter 2 each, until every broken router is caught (the check
    //       names the ones that are not). Each case must hold for the bookshop's router.
]
