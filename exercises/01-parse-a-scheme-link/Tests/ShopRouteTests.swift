import Testing

@testable import ParseASchemeLink

/// One link and the route it must give, with the rule it checks and where the rule is taught.
struct LinkCase: CustomTestStringConvertible, Sendable {
    var id: String
    var source: String
    var link: String
    var expected: ShopRoute?
    /// What the learner needs to hear when this case fails.
    var rule: String

    var testDescription: String { "\(id): \(link)" }
}

struct ShopRouteTests {
    static let routes: [LinkCase] = [
        LinkCase(
            id: "host-is-first-segment", source: "this book: chapter 01, Taking a link apart",
            link: "myapp://product/42", expected: .product(id: "42"),
            rule: "in myapp://product/42 the host is \"product\": put the host in front of the path"),
        LinkCase(
            id: "empty-host", source: "this book: chapter 01, Taking a link apart",
            link: "myapp:///product/42", expected: .product(id: "42"),
            rule: "with an empty host (three slashes) the whole route is in the path"),
        LinkCase(
            id: "no-slashes", source: "this book: chapter 01, Taking a link apart",
            link: "myapp:product/42", expected: .product(id: "42"),
            rule: "without // there is no host at all, and the path is product/42 (no leading slash)"),
        LinkCase(
            id: "scheme-case", source: "this book: chapter 01, What makes a good scheme name",
            link: "MyApp://product/42", expected: .product(id: "42"),
            rule: "schemes are case-insensitive: compare the lower-cased scheme"),
        LinkCase(
            id: "host-case", source: "this book: chapter 01, Taking a link apart",
            link: "myapp://PRODUCT/42", expected: .product(id: "42"),
            rule: "hosts are case-insensitive and some layers lower-case them: lower-case the host"),
        LinkCase(
            id: "decoded-id", source: "this book: chapter 02, Patterns",
            link: "myapp://product/red%20shoe", expected: .product(id: "red shoe"),
            rule: "each segment is percent-decoded: %20 is a space"),
        LinkCase(
            id: "encoded-slash", source: "this book: chapter 01, Taking a link apart",
            link: "myapp://product/a%2Fb", expected: .product(id: "a/b"),
            rule: "split the path on / before decoding, so a%2Fb stays one ID"),
        LinkCase(
            id: "trailing-slash", source: "this book: chapter 02, Patterns",
            link: "myapp://product/42/", expected: .product(id: "42"),
            rule: "one trailing slash is forgiven: people and shorteners add one"),
        LinkCase(
            id: "order", source: "this book: chapter 02, Routes are values",
            link: "myapp://order/A-17", expected: .order(id: "A-17"),
            rule: "order/:id opens the order screen"),
        LinkCase(
            id: "profile", source: "this book: chapter 02, Routes are values",
            link: "myapp://profile", expected: .profile,
            rule: "a link that is only a host is a one-segment route"),
        LinkCase(
            id: "promo-with-ref", source: "this book: chapter 02, Routes are values",
            link: "myapp://promo/SPRING?ref=mail", expected: .promo(code: "SPRING", ref: "mail"),
            rule: "promo/:code takes ref from the query; the code keeps its case"),
        LinkCase(
            id: "promo-without-ref", source: "this book: chapter 02, Routes are values",
            link: "myapp://promo/SPRING", expected: .promo(code: "SPRING", ref: nil),
            rule: "a promo link without ?ref= still opens, with ref nil"),
        LinkCase(
            id: "promo-empty-ref", source: "this book: chapter 02, The route table",
            link: "myapp://promo/SPRING?ref=", expected: .promo(code: "SPRING", ref: nil),
            rule: "an empty ?ref= counts as absent"),
        LinkCase(
            id: "legacy-query-shape", source: "this book: chapter 02, The route table",
            link: "myapp://products/detail?id=iphone", expected: .product(id: "iphone"),
            rule: "the old shape products/detail?id= still opens the product"),
    ]

    static let rejections: [LinkCase] = [
        LinkCase(
            id: "foreign-scheme", source: "this book: chapter 02, Deciding what to do",
            link: "otherapp://product/42", expected: nil, rule: "only the myapp scheme is ours"),
        LinkCase(
            id: "web-link", source: "this book: chapter 01, Taking a link apart",
            link: "https://example.com/product/42", expected: nil,
            rule: "an https link is not a scheme link; another door handles it"),
        LinkCase(
            id: "missing-id", source: "this book: chapter 02, Patterns",
            link: "myapp://product", expected: nil, rule: "product needs an ID segment"),
        LinkCase(
            id: "empty-id", source: "this book: chapter 02, Patterns",
            link: "myapp://product//", expected: nil, rule: "an empty segment is not an ID"),
        LinkCase(
            id: "too-long", source: "this book: chapter 02, Patterns",
            link: "myapp://product/42/reviews", expected: nil,
            rule: "a route matches all segments, not a prefix"),
        LinkCase(
            id: "empty-middle-segment", source: "this book: chapter 02, Patterns",
            link: "myapp://product//42", expected: nil,
            rule: "an empty segment in the middle is not forgiven: keep it, and it matches no route"),
        LinkCase(
            id: "unknown-screen", source: "this book: chapter 02, Deciding what to do",
            link: "myapp://settings", expected: nil,
            rule: "a screen without a route is not reachable by a link"),
        LinkCase(
            id: "user-info", source: "this book: chapter 01, Taking a link apart",
            link: "myapp://me@product/42", expected: nil,
            rule: "a user name has no meaning in an app link: refuse it"),
        LinkCase(
            id: "port", source: "this book: chapter 01, Taking a link apart",
            link: "myapp://product:8080/42", expected: nil,
            rule: "a port has no meaning in an app link: refuse it"),
        LinkCase(
            id: "legacy-without-id", source: "this book: chapter 02, The route table",
            link: "myapp://products/detail", expected: nil, rule: "the old shape needs ?id="),
        LinkCase(
            id: "not-a-url", source: "this book: chapter 01, Taking a link apart",
            link: "not a link", expected: nil, rule: "text without a scheme is no link"),
    ]

    /// Read: chapters/01-custom-url-schemes.md#taking-a-link-apart
    /// Read: chapters/02-routing.md#the-route-table
    @Test(arguments: routes)
    func aLinkOpensItsScreen(_ testCase: LinkCase) {
        let actual = route(forLink: testCase.link)
        #expect(actual == testCase.expected, "\(testCase.link): \(testCase.rule)")
    }

    /// Read: chapters/01-custom-url-schemes.md#taking-a-link-apart
    /// Read: chapters/02-routing.md#deciding-what-to-do
    @Test(arguments: rejections)
    func aLinkThatIsNotOursOpensNothing(_ testCase: LinkCase) {
        let actual = route(forLink: testCase.link)
        #expect(actual == testCase.expected, "\(testCase.link): \(testCase.rule)")
    }

    /// Read: chapters/01-custom-url-schemes.md#taking-a-link-apart
    @Test func allThreeSpellingsMeanTheSameScreen() {
        let spellings = ["myapp://product/42", "myapp:///product/42", "myapp:product/42"]
        let routes = spellings.map { route(forLink: $0) }
        #expect(
            routes == [.product(id: "42"), .product(id: "42"), .product(id: "42")],
            "the three spellings of one link must give the same route (chapter 01, Taking a link apart)")
    }
}
