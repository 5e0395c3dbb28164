import Foundation
import Testing

@testable import StripTheClickToken

struct StripCase: CustomTestStringConvertible, Sendable {
    var id: String
    var source: String
    var url: String
    var expected: String
    var rule: String

    var testDescription: String { "\(id): \(url)" }
}

struct ReferrerCase: CustomTestStringConvertible, Sendable {
    var id: String
    var source: String
    var referrer: String
    var link: String?
    var token: String?
    var rule: String

    var testDescription: String { id }
}

struct ClickTokenTests {
    static let strips: [StripCase] = [
        StripCase(
            id: "only-item", source: "this book: chapter 13, A first real piece: query items",
            url: "https://shop.example/p?li2_cid=Ab3",
            expected: "https://shop.example/p", rule: "the ? goes with the last item"),
        StripCase(
            id: "marketer-ref-survives", source: "this book: chapter 05, What the app is told",
            url: "https://shop.example/spring?li2_cid=Ab3dE5fG7hJ9kL1m&ref=mail",
            expected: "https://shop.example/spring?ref=mail", rule: "the marketer's ref=mail survives"),
        StripCase(
            id: "order-kept", source: "this book: chapter 13, A first real piece: query items",
            url: "https://shop.example/p?a=1&li2_cid=X&b=2",
            expected: "https://shop.example/p?a=1&b=2", rule: "the other items keep their order"),
        StripCase(
            id: "every-token", source: "this book: chapter 13, A first real piece: query items",
            url: "https://shop.example/p?li2_cid=A&x=1&li2_cid=B", expected: "https://shop.example/p?x=1",
            rule: "every li2_cid goes, not only the first"),
        StripCase(
            id: "encoding-kept", source: "this book: chapter 13, A first real piece: query items",
            url: "https://shop.example/p?next=%2Fcart%20now&li2_cid=Ab3&q=a+b",
            expected: "https://shop.example/p?next=%2Fcart%20now&q=a+b",
            rule: "kept items keep their exact encoding: decoding and encoding again changes %2F, %20 and +"),
        StripCase(
            id: "fragment-kept", source: "this book: chapter 13, A first real piece: query items",
            url: "https://shop.example/p?li2_cid=Ab3#reviews",
            expected: "https://shop.example/p#reviews", rule: "the fragment stays"),
        StripCase(
            id: "no-token", source: "this book: chapter 13, A first real piece: query items",
            url: "https://shop.example/p?ref=mail",
            expected: "https://shop.example/p?ref=mail", rule: "nothing to remove leaves the URL as it was"),
        StripCase(
            id: "case-sensitive", source: "this book: chapter 13, A first real piece: query items",
            url: "https://shop.example/p?LI2_CID=Ab3",
            expected: "https://shop.example/p?LI2_CID=Ab3",
            rule: "names compare exactly: LI2_CID is not the token"),
    ]

    static let referrers: [ReferrerCase] = [
        ReferrerCase(
            id: "bare", source: "this book: chapter 07, From the short link to the store",
            referrer: "li2_dl=https%3A%2F%2Fgo.example%2Fspring%3Fli2_cid%3DAb3dE5fG7hJ9kL1m",
            link: "https://go.example/spring?li2_cid=Ab3dE5fG7hJ9kL1m", token: "Ab3dE5fG7hJ9kL1m",
            rule: "Play hands back li2_dl=<link encoded once>: decode the value once"),
        ReferrerCase(
            id: "among-others", source: "this book: chapter 07, From the short link to the store",
            referrer:
                "utm_source=li2&li2_dl=https%3A%2F%2Fgo.example%2Fspring%3Fli2_cid%3DAb3&utm_medium=link",
            link: "https://go.example/spring?li2_cid=Ab3", token: "Ab3",
            rule: "other tools add their parameters around ours; only li2_dl is ours"),
        ReferrerCase(
            id: "decode-once", source: "this book: chapter 07, Looking inside",
            referrer: "li2_dl=https%3A%2F%2Fgo.example%2Fp%3Fli2_cid%3DAb3%26next%3D%252Fcart%2526x",
            link: "https://go.example/p?li2_cid=Ab3&next=%2Fcart%26x", token: "Ab3",
            rule: "decode exactly once: a second decoding turns the link's own %26 into a separator"),
        ReferrerCase(
            id: "organic", source: "this book: chapter 07, What Play keeps, and for whom",
            referrer: "utm_source=google-play&utm_medium=organic", link: nil, token: nil,
            rule: "an organic install has no li2_dl"),
        ReferrerCase(
            id: "empty-value", source: "this book: chapter 07, Looking inside", referrer: "li2_dl=",
            link: nil,
            token: nil,
            rule: "an empty li2_dl is no link"),
        ReferrerCase(
            id: "not-a-link", source: "this book: chapter 07, Looking inside",
            referrer: "li2_dl=spring%20sale",
            link: nil,
            token: nil, rule: "a value without a scheme and a host is no link"),
        ReferrerCase(
            id: "name-exact", source: "this book: chapter 13, A first real piece: query items",
            referrer: "LI2_DL=https%3A%2F%2Fgo.example%2Fspring", link: nil, token: nil,
            rule: "parameter names compare exactly"),
        ReferrerCase(
            id: "link-without-token", source: "this book: chapter 07, Looking inside",
            referrer: "li2_dl=https%3A%2F%2Fgo.example%2Fspring", link: "https://go.example/spring",
            token: nil,
            rule: "a link without li2_cid is still the link, but it has no click token"),
        ReferrerCase(
            id: "empty-token", source: "this book: chapter 07, Looking inside",
            referrer: "li2_dl=https%3A%2F%2Fgo.example%2Fspring%3Fli2_cid%3D",
            link: "https://go.example/spring?li2_cid=",
            token: nil, rule: "an empty li2_cid is no token"),
    ]

    /// Read: chapters/05-deferred-deep-links.md#what-the-app-is-told
    /// Read: chapters/13-inside-the-book.md#a-first-real-piece-query-items
    @Test(arguments: strips)
    func strippingTheTokenKeepsEverythingElse(_ testCase: StripCase) throws {
        let url = try #require(URL(string: testCase.url))
        let stripped = destination(removingClickTokenFrom: url).absoluteString
        #expect(stripped == testCase.expected, "\(testCase.url): \(testCase.rule)")
    }

    /// Read: chapters/07-install-referrer.md#from-the-short-link-to-the-store
    /// Read: chapters/07-install-referrer.md#looking-inside
    @Test(arguments: referrers)
    func theReferrerGivesBackTheLinkDecodedOnce(_ testCase: ReferrerCase) {
        let link = deepLink(fromInstallReferrer: testCase.referrer)?.absoluteString
        #expect(link == testCase.link, "\(testCase.referrer): \(testCase.rule)")
        #expect(
            clickToken(inInstallReferrer: testCase.referrer) == testCase.token,
            "\(testCase.id): \(testCase.rule)")
    }

    /// Read: chapters/07-install-referrer.md#looking-inside
    /// Read: chapters/05-deferred-deep-links.md#three-identifiers
    @Test func theLinkFromTheReferrerNavigatesWithoutItsToken() throws {
        let referrer = "li2_dl=https%3A%2F%2Fgo.example%2Fspring%3Fli2_cid%3DAb3%26ref%3Dmail"
        let link = try #require(deepLink(fromInstallReferrer: referrer), "the referrer holds a link")
        #expect(
            destination(removingClickTokenFrom: link).absoluteString == "https://go.example/spring?ref=mail",
            "the click token is an internal detail of one click: strip it before navigating, keep ref=mail")
    }
}
