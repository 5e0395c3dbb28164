import Foundation
import Testing

@testable import RouteEveryDoor

/// A URL and what the router must decide, with the rule and where it is taught.
struct DoorCase: CustomTestStringConvertible, Sendable {
    var id: String
    var source: String
    var url: String
    var expected: Decision
    var rule: String

    var testDescription: String { "\(id): \(url)" }
}

struct RouterTests {
    static let cases: [DoorCase] = [
        DoorCase(
            id: "scheme-link", source: "this book: chapter 02, Deciding what to do",
            url: "myapp://product/42",
            expected: .navigate(.product(id: "42")), rule: "a scheme link to a known screen navigates"),
        DoorCase(
            id: "scheme-case", source: "this book: chapter 01, What makes a good scheme name",
            url: "MYAPP://order/7",
            expected: .navigate(.order(id: "7")), rule: "schemes compare case-insensitively"),
        DoorCase(
            id: "scheme-unknown-route", source: "this book: chapter 02, Deciding what to do",
            url: "myapp://settings",
            expected: .ignore,
            rule: "a scheme link without a route is dropped: opening it in a browser would bounce it back"),
        DoorCase(
            id: "scheme-empty-host", source: "this book: chapter 01, Taking a link apart",
            url: "myapp:///product/42",
            expected: .navigate(.product(id: "42")),
            rule: "with an empty host (three slashes) the whole route is in the path"),
        DoorCase(
            id: "scheme-user-info", source: "this book: chapter 01, Taking a link apart",
            url: "myapp://me@product/42",
            expected: .ignore, rule: "a user name has no meaning in an app link: the scheme door refuses it"),
        DoorCase(
            id: "foreign-scheme", source: "this book: chapter 02, Deciding what to do",
            url: "otherapp://product/42",
            expected: .ignore, rule: "another app's scheme is not ours"),
        DoorCase(
            id: "mailto", source: "this book: chapter 02, Deciding what to do",
            url: "mailto:help@example.com",
            expected: .ignore, rule: "a mailto URL is no link for the router"),
        DoorCase(
            id: "web-link", source: "this book: chapter 02, Deciding what to do",
            url: "https://example.com/product/42",
            expected: .navigate(.product(id: "42")), rule: "an https link on our host navigates"),
        DoorCase(
            id: "www-host", source: "this book: chapter 02, Deciding what to do",
            url: "https://www.example.com/profile",
            expected: .navigate(.profile), rule: "www.example.com is listed too, so it navigates"),
        DoorCase(
            id: "host-case", source: "this book: chapter 01, Taking a link apart",
            url: "https://EXAMPLE.com/profile",
            expected: .navigate(.profile), rule: "hosts compare case-insensitively"),
        DoorCase(
            id: "web-unknown-path", source: "this book: chapter 02, Deciding what to do",
            url: "https://example.com/help/returns",
            expected: .openInBrowser(URL(string: "https://example.com/help/returns")!),
            rule: "a web link without a screen goes to the browser, so the user still lands on the page"),
        DoorCase(
            id: "suffix-host", source: "this book: chapter 02, Deciding what to do",
            url: "https://evil-example.com/product/42",
            expected: .openInBrowser(URL(string: "https://evil-example.com/product/42")!),
            rule: "hosts compare exactly: a suffix test would accept evil-example.com"),
        DoorCase(
            id: "user-info", source: "this book: chapter 02, Deciding what to do",
            url: "https://example.com@evil.test/product/42",
            expected: .openInBrowser(URL(string: "https://example.com@evil.test/product/42")!),
            rule: "the host of this URL is evil.test; example.com is only a user name"),
        DoorCase(
            id: "other-port", source: "this book: chapter 02, Deciding what to do",
            url: "https://example.com:8443/product/42",
            expected: .openInBrowser(URL(string: "https://example.com:8443/product/42")!),
            rule: "only the default port is ours"),
        DoorCase(
            id: "explicit-443", source: "this book: chapter 02, Deciding what to do",
            url: "https://example.com:443/product/42",
            expected: .navigate(.product(id: "42")), rule: "port 443 is the default port spelled out"),
        DoorCase(
            id: "plain-http", source: "this book: chapter 02, Deciding what to do",
            url: "http://example.com/product/42", expected: .navigate(.product(id: "42")),
            rule: "Universal Links are http or https: a verified http link is ours too"),
        DoorCase(
            id: "http-on-https-port", source: "this book: chapter 02, Deciding what to do",
            url: "http://example.com:443/product/42",
            expected: .openInBrowser(URL(string: "http://example.com:443/product/42")!),
            rule: "443 is https's default port, not http's"),
        DoorCase(
            id: "same-route-both-doors", source: "this book: chapter 02, Deciding what to do",
            url: "https://example.com/order/A-17", expected: .navigate(.order(id: "A-17")),
            rule: "both doors end in the same route table"),
    ]

    /// Read: chapters/02-routing.md#deciding-what-to-do
    @Test(arguments: cases)
    func everyDoorEndsInTheSameDecision(_ testCase: DoorCase) throws {
        let url = try #require(URL(string: testCase.url))
        #expect(Router().decide(url) == testCase.expected, "\(testCase.url): \(testCase.rule)")
    }

    /// Read: chapters/02-routing.md#deciding-what-to-do
    @Test func aSchemeLinkAndAWebLinkToOneScreenAgree() throws {
        let router = Router()
        let scheme = router.decide(try #require(URL(string: "myapp://product/42")))
        let web = router.decide(try #require(URL(string: "https://example.com/product/42")))
        #expect(
            scheme == web, "myapp://product/42 and https://example.com/product/42 must open the same screen")
        #expect(scheme == .navigate(.product(id: "42")), "both must open the product 42")
    }
}
