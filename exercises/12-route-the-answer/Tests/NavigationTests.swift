import Foundation
import Testing

@testable import RouteTheAnswer

struct AnswerCase: CustomTestStringConvertible, Sendable {
    var id: String
    var source: String
    var status: Int
    var body: String
    var expected: Navigation
    var rule: String

    var testDescription: String { id }
}

struct NavigationTests {
    static let cases: [AnswerCase] = [
        AnswerCase(
            id: "universal-link-match", source: "this book: chapter 05, What the app is told", status: 200,
            body: #"""
                {"clickId":"2rN4FEbxrdjPhsjF","link":{"domain":"go.example","id":"link_summer","key":"summer",
                "url":"https://shop.example/sale?campaign=summer"},"matchMethod":"universal_link","platform":"ios"}
                """#,
            expected: .show(.sale(campaign: "summer"), clickId: "2rN4FEbxrdjPhsjF"),
            rule: "a match opens the screen of its destination, with the answer's clickId"),
        AnswerCase(
            id: "clipboard-match-strips-token", source: "this book: chapter 05, What the app is told",
            status: 200,
            body: #"""
                {"clickId":"Qm7pX2rT9wLs4NcV","link":{"id":"link_p42","domain":"go.example","key":"p42",
                "url":"https://shop.example/products/42?li2_cid=Ab3dE5fG7hJ9kL1m&ref=go"},"matchMethod":"clipboard",
                "missReason":null,"platform":"ios"}
                """#,
            expected: .show(.product(id: "42"), clickId: "Qm7pX2rT9wLs4NcV"),
            rule: "the destination loses its li2_cid before it is routed"),
        AnswerCase(
            id: "no-screen-opens-browser", source: "this book: chapter 02, Deciding what to do", status: 200,
            body: #"""
                {"clickId":"oYRrcrdf8NEzORLo","link":{"id":"link_help","domain":"go.example","key":"help",
                "url":"https://shop.example/help/returns?li2_cid=IbOaXPc4Ch9cc1iO&lang=en"},
                "matchMethod":"install_referrer","platform":"android"}
                """#,
            expected: .openInBrowser(
                URL(string: "https://shop.example/help/returns?lang=en")!, clickId: "oYRrcrdf8NEzORLo"),
            rule: "a destination without a screen goes to the browser, without its token"),
        AnswerCase(
            id: "miss", source: "this book: chapter 08, Matches and misses", status: 200,
            body:
                #"{"clickId":"inMOjDCgPljNuOnY","link":null,"missReason":"clipboard_empty","platform":"ios"}"#,
            expected: .stayHome(missReason: "clipboard_empty"),
            rule: "a miss is not an error: stay home and keep the service's reason"),
        AnswerCase(
            id: "miss-without-reason", source: "this book: chapter 05, What the app is told", status: 200,
            body: #"{"clickId":"inMOjDCgPljNuOnY","link":null}"#, expected: .stayHome(missReason: ""),
            rule: "a miss without missReason has the empty reason"),
        AnswerCase(
            id: "unauthorised", source: "this book: chapter 05, What the app is told", status: 401,
            body: #"{"error":{"code":"missing_key","message":"an API key is required"}}"#,
            expected: .stayHomeAfterFailure(.http(status: 401)),
            rule: "a status outside 2xx is a failure, whatever the body"),
        AnswerCase(
            id: "server-error", source: "this book: chapter 05, What the app is told", status: 503, body: "",
            expected: .stayHomeAfterFailure(.http(status: 503)), rule: "a 5xx is a failure"),
        AnswerCase(
            id: "not-json", source: "this book: chapter 05, What the app is told", status: 200,
            body: "<html>oops</html>",
            expected: .stayHomeAfterFailure(.unreadableAnswer),
            rule: "a 200 that is not the expected JSON is a failure"),
        AnswerCase(
            id: "missing-click-id", source: "this book: chapter 08, Matches and misses", status: 200,
            body: #"{"link":null,"missReason":"no_candidate"}"#,
            expected: .stayHomeAfterFailure(.unreadableAnswer),
            rule: "every answer carries a clickId; one without is not a track/open answer"),
        AnswerCase(
            id: "bad-destination", source: "this book: chapter 05, What the app is told", status: 200,
            body: #"{"clickId":"x","link":{"id":"l","domain":"go.example","key":"k","url":""}}"#,
            expected: .stayHomeAfterFailure(.badDestination("")),
            rule: "a link whose url is not a URL is a failure"),
    ]

    /// Read: chapters/05-deferred-deep-links.md#what-the-app-is-told
    /// Read: chapters/08-the-track-open-protocol.md#matches-and-misses
    /// Read: chapters/02-routing.md#deciding-what-to-do
    @Test(arguments: cases)
    func theAnswerBecomesANavigation(_ testCase: AnswerCase) {
        let result = navigation(status: testCase.status, body: Data(testCase.body.utf8))
        #expect(result == testCase.expected, "\(testCase.id): \(testCase.rule)")
    }

    /// Read: chapters/05-deferred-deep-links.md#three-identifiers
    @Test func theClickTokenNeverReachesAScreen() {
        let body = #"""
            {"clickId":"c","link":{"id":"l","domain":"go.example","key":"k",
            "url":"https://shop.example/sale?li2_cid=Ab3&campaign=spring&li2_cid=Cd4"}}
            """#
        #expect(
            navigation(status: 200, body: Data(body.utf8)) == .show(.sale(campaign: "spring"), clickId: "c"),
            "every li2_cid goes before routing; the campaign stays")
    }
}
