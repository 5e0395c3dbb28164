import Testing

@testable import MatchAnIntentFilter

/// A filter's `<data>` elements, a link, and the expected result of the data test.
struct FilterCase: CustomTestStringConvertible, Sendable {
    var id: String
    var source: String
    var data: [DataElement]
    var link: String
    var expected: DataMismatch?
    var rule: String

    var testDescription: String { "\(id): \(link)" }
}

struct IntentFilterTests {
    /// The book's shop filter: scheme, host and prefix spread over three elements.
    static let shop = [
        DataElement(scheme: "https"), DataElement(host: "example.com"), DataElement(pathPrefix: "/product/"),
    ]

    static let cases: [FilterCase] = [
        FilterCase(
            id: "shop-accepts", source: "this book: chapter 04, All <data> elements of a filter merge",
            data: shop,
            link: "https://example.com/product/42", expected: nil,
            rule: "scheme, host and path prefix all fit, although they sit in three <data> elements"),
        FilterCase(
            id: "no-scheme", source: "this book: chapter 04, Matching a link against a filter",
            data: [DataElement(host: "example.com")],
            link: "https://example.com/", expected: .noSchemeDeclared,
            rule: "a filter without any scheme only takes intents without data"),
        FilterCase(
            id: "scheme-exact", source: "this book: chapter 04, Matching a link against a filter", data: shop,
            link: "HTTPS://example.com/product/42", expected: .schemeNotDeclared("HTTPS"),
            rule: "schemes compare exactly: HTTPS is not https"),
        FilterCase(
            id: "other-host", source: "this book: chapter 04, Matching a link against a filter", data: shop,
            link: "https://example.org/product/42", expected: .hostNotDeclared("example.org"),
            rule: "a declared host must match"),
        FilterCase(
            id: "host-case", source: "this book: chapter 04, Matching a link against a filter", data: shop,
            link: "https://EXAMPLE.com/product/42", expected: nil, rule: "hosts compare without case"),
        FilterCase(
            id: "path-outside-prefix", source: "this book: chapter 04, Matching a link against a filter",
            data: shop,
            link: "https://example.com/help", expected: .pathNotDeclared("/help"),
            rule: "with paths declared, one must match"),
        FilterCase(
            id: "wildcard-subdomain", source: "this book: chapter 04, Matching a link against a filter",
            data: [DataElement(scheme: "https", host: "*.example.com")],
            link: "https://shop.example.com/any", expected: nil, rule: "*.example.com takes shop.example.com"),
        FilterCase(
            id: "wildcard-not-apex", source: "this book: chapter 04, Matching a link against a filter",
            data: [DataElement(scheme: "https", host: "*.example.com")],
            link: "https://example.com/any", expected: .hostNotDeclared("example.com"),
            rule: "*.example.com keeps the dot, so example.com itself does not match"),
        FilterCase(
            id: "wildcard-without-dot", source: "this book: chapter 04, Matching a link against a filter",
            data: [DataElement(scheme: "https", host: "*example.com")],
            link: "https://badexample.com/any", expected: nil,
            rule: "*example.com (no dot) also takes badexample.com: a classic mistake"),
        FilterCase(
            id: "declared-port-missing", source: "this book: chapter 04, Matching a link against a filter",
            data: [DataElement(scheme: "https", host: "example.com", port: "443")],
            link: "https://example.com/", expected: .hostNotDeclared("example.com"),
            rule: "a declared port must be spelled in the URL; https://example.com/ has no port"),
        FilterCase(
            id: "declared-port-present", source: "this book: chapter 04, Matching a link against a filter",
            data: [DataElement(scheme: "https", host: "example.com", port: "8443")],
            link: "https://example.com:8443/", expected: nil, rule: "the same port in the URL matches"),
        FilterCase(
            id: "port-without-host", source: "this book: chapter 04, All <data> elements of a filter merge",
            data: [DataElement(scheme: "https", port: "8443"), DataElement(host: "example.com")],
            link: "https://example.com/", expected: nil,
            rule: "a port on an element without a host is ignored"),
        FilterCase(
            id: "merge-crosses-elements",
            source: "this book: chapter 04, All <data> elements of a filter merge",
            data: [
                DataElement(scheme: "https", host: "example.com", path: "/a"),
                DataElement(scheme: "http", host: "example.org", pathPrefix: "/b"),
            ],
            link: "http://example.com/b/1", expected: nil,
            rule: "elements merge into lists, so every combination is accepted: http + example.com + /b"),
        FilterCase(
            id: "paths-need-a-host", source: "this book: chapter 04, All <data> elements of a filter merge",
            data: [DataElement(scheme: "myapp", pathPrefix: "/product/")],
            link: "myapp://anything/else", expected: nil,
            rule: "paths count only when the filter declares a host"),
        FilterCase(
            id: "any-host", source: "this book: chapter 04, All <data> elements of a filter merge",
            data: [DataElement(scheme: "https")], link: "https://any.example.net/x", expected: nil,
            rule: "schemes without a host accept any host"),
        FilterCase(
            id: "exact-path", source: "this book: chapter 04, How Android reads a path pattern",
            data: [DataElement(scheme: "https", host: "example.com", path: "/profile")],
            link: "https://example.com/profile/", expected: .pathNotDeclared("/profile/"),
            rule: "path is an exact match: a trailing slash is another path"),
        FilterCase(
            id: "suffix", source: "this book: chapter 04, How Android reads a path pattern",
            data: [DataElement(scheme: "https", host: "example.com", pathSuffix: ".pdf")],
            link: "https://example.com/docs/guide.pdf", expected: nil, rule: "pathSuffix matches the end"),
        FilterCase(
            id: "decoded-path", source: "this book: chapter 04, Matching a link against a filter",
            data: [DataElement(scheme: "https", host: "example.com", path: "/a b")],
            link: "https://example.com/a%20b", expected: nil, rule: "the path is matched decoded"),
    ]

    /// Read: chapters/04-app-links.md#matching-a-link-against-a-filter
    /// Read: chapters/04-app-links.md#all-data-elements-of-a-filter-merge
    /// Read: chapters/04-app-links.md#how-android-reads-a-path-pattern
    @Test(arguments: cases)
    func theDataTestFollowsAndroid(_ testCase: FilterCase) throws {
        let uri = try #require(AndroidURI(testCase.link))
        #expect(matchData(testCase.data, uri: uri) == testCase.expected, "\(testCase.link): \(testCase.rule)")
    }

    /// Read: chapters/04-app-links.md#all-data-elements-of-a-filter-merge
    @Test func mergingCollectsEveryElementInManifestOrder() {
        let merged = merge([
            DataElement(scheme: "https", host: "example.com", port: "8443", path: "/a"),
            DataElement(scheme: "http", pathPrefix: "/b", pathSuffix: ".pdf"),
            DataElement(scheme: "https", host: "*.example.org"),
            DataElement(port: "80"),
        ])
        #expect(
            merged
                == MergedData(
                    schemes: ["https", "http"],
                    authorities: [
                        Authority(host: "example.com", port: "8443"), Authority(host: "*.example.org"),
                    ],
                    paths: [.exact("/a"), .prefix("/b"), .suffix(".pdf")]),
            "schemes once each, hosts with their own port (a lone port is dropped), paths in order")
    }
}
