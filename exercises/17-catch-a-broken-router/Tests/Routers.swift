import DeepLinkCore
import Foundation

/// The bookshop's router: chapter 2's `Router`, with the bookshop's scheme, hosts and table. The
/// learner's cases must all hold for it.
enum Bookshop {
    static let scheme: URLScheme = "reader"
    static let hosts: Set<String> = ["books.example", "www.books.example"]

    /// The route table, tried from top to bottom. `query` reads a query item for a builder: the
    /// real one is `RouteMatch.query(_:)`, for which `?ref=` counts as absent.
    static func table(query: @escaping @Sendable (RouteMatch, String) -> String? = { $0.query($1) })
        -> [RouteDefinition]
    {
        [
            RouteDefinition("/book/:id") { match in match.parameters["id"].map { .product(id: $0) } },
            RouteDefinition("/orders/:id") { match in match.parameters["id"].map { .order(id: $0) } },
            RouteDefinition("/account") { _ in .profile },
            RouteDefinition("/deal/:code") { match in
                match.parameters["code"].map { .promo(code: $0, ref: query(match, "ref")) }
            },
            // The old shape, still printed on bookmarks: /catalog/item?isbn=9780141439600
            RouteDefinition("/catalog/item") { match in query(match, "isbn").map { .product(id: $0) } },
        ]
    }

    static let router = Router(schemes: [scheme], hosts: hosts, routes: table())
}

/// A bookshop router with one realistic bug, each one a rule of chapter 2 broken the way real
/// routers break it. The table must hold a case on which each of them decides wrongly.
enum Mutant: String, CaseIterable, Sendable {
    case matchesHostsBySuffix
    case readsTheHostBeforeTheAt
    case decodesThePathBeforeSplitting
    case refusesATrailingSlash
    case sendsUnknownSchemeLinksToTheBrowser
    case treatsHTTPAsForeign
    case ignoresThePort
    case countsAnEmptyQueryValue
    case forgetsTheWWWHost

    /// What the broken router gets wrong, in plain words.
    var bug: String {
        switch self {
        case .matchesHostsBySuffix:
            return "accepts every host that ends in books.example, as host.hasSuffix(\"books.example\") does"
        case .readsTheHostBeforeTheAt:
            return "takes the user info, the text before @, for the host"
        case .decodesThePathBeforeSplitting:
            return "percent-decodes the path before splitting it on /"
        case .refusesATrailingSlash:
            return "refuses a path that ends in /"
        case .sendsUnknownSchemeLinksToTheBrowser:
            return "sends a reader:// link without a route to the browser"
        case .treatsHTTPAsForeign:
            return "treats an http link on its own host as someone else's"
        case .ignoresThePort:
            return "ignores the port"
        case .countsAnEmptyQueryValue:
            return "reads ?ref= as the empty string"
        case .forgetsTheWWWHost:
            return "lists books.example but forgot www.books.example"
        }
    }

    /// The rule the bug breaks, in plain words.
    var rule: String {
        switch self {
        case .matchesHostsBySuffix:
            return
                "only the listed hosts are the bookshop's: a look-alike host that merely ends in books.example is not"
        case .readsTheHostBeforeTheAt:
            return "a web link with user info is not ours, whatever the text before @ says"
        case .decodesThePathBeforeSplitting:
            return
                "split the path on / first, then percent-decode each segment: %2F is a slash inside one segment"
        case .refusesATrailingSlash:
            return "a trailing slash is forgiven"
        case .sendsUnknownSchemeLinksToTheBrowser:
            return "a custom-scheme link with no route is dropped: there is no web page behind it"
        case .treatsHTTPAsForeign:
            return "an http link on the bookshop's host is ours, like its https twin"
        case .ignoresThePort:
            return "a web link on a port other than the scheme's default is not ours"
        case .countsAnEmptyQueryValue:
            return "an empty query value counts as absent"
        case .forgetsTheWWWHost:
            return "www.books.example is a host of its own, and the bookshop lists it"
        }
    }

    /// What the broken router decides.
    func decide(_ url: URL) -> RouteDecision {
        let router = Bookshop.router
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let scheme = components?.scheme?.lowercased() ?? ""
        let isWeb = scheme == "http" || scheme == "https"
        switch self {
        case .matchesHostsBySuffix:
            guard isWeb, var changed = components, let host = changed.host?.lowercased(),
                !Bookshop.hosts.contains(host), host.hasSuffix("books.example")
            else { return router.decide(url) }
            changed.host = "books.example"
            return Self.decide(changed, insteadOf: url)
        case .readsTheHostBeforeTheAt:
            guard isWeb, var changed = components, let user = changed.user else { return router.decide(url) }
            changed.host = user
            changed.user = nil
            changed.password = nil
            return Self.decide(changed, insteadOf: url)
        case .decodesThePathBeforeSplitting:
            guard var changed = components else { return router.decide(url) }
            changed.path = changed.path
            return Self.decide(changed, insteadOf: url)
        case .refusesATrailingSlash:
            let path = components?.percentEncodedPath ?? ""
            let decision = router.decide(url)
            guard path.count > 1, path.hasSuffix("/"), case .navigate = decision else { return decision }
            return isWeb ? .openInBrowser(url) : .ignore
        case .sendsUnknownSchemeLinksToTheBrowser:
            let decision = router.decide(url)
            return decision == .ignore && scheme == Bookshop.scheme.name ? .openInBrowser(url) : decision
        case .treatsHTTPAsForeign:
            return scheme == "http" ? .openInBrowser(url) : router.decide(url)
        case .ignoresThePort:
            guard isWeb, var changed = components else { return router.decide(url) }
            changed.port = nil
            return Self.decide(changed, insteadOf: url)
        case .countsAnEmptyQueryValue:
            let table = Bookshop.table { match, name in match.queryItems.first { $0.name == name }?.value }
            return Router(schemes: [Bookshop.scheme], hosts: Bookshop.hosts, routes: table).decide(url)
        case .forgetsTheWWWHost:
            return Router(schemes: [Bookshop.scheme], hosts: ["books.example"], routes: Bookshop.table())
                .decide(url)
        }
    }

    /// The real router's decision on the changed URL, handing back the original to the browser.
    private static func decide(_ changed: URLComponents, insteadOf url: URL) -> RouteDecision {
        guard let changedURL = changed.url else { return Bookshop.router.decide(url) }
        let decision = Bookshop.router.decide(changedURL)
        if case .openInBrowser = decision { return .openInBrowser(url) }
        return decision
    }
}
