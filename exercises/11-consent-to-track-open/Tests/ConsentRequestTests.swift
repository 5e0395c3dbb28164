import Foundation
import Testing

@testable import ConsentToTrackOpen

struct AnswerCase: CustomTestStringConvertible, Sendable {
    var id: String
    var source: String
    var answer: ConsentAnswer
    /// The body on the wire, keys sorted: what the service receives.
    var json: String
    var rule: String

    var testDescription: String { id }
}

struct ConsentRequestTests {
    static let domains = ["go.example"]

    static let cases: [AnswerCase] = [
        AnswerCase(
            id: "pasted-link", source: "this book: chapter 06, What the answer sends",
            answer: .pasted("https://go.example/spring?li2_cid=Ab3dE5fG7hJ9kL1m"),
            json:
                #"{"clipboardStatus":"read","deepLink":"https:\/\/go.example\/spring?li2_cid=Ab3dE5fG7hJ9kL1m"}"#,
            rule: "a link with a click token goes as deepLink with read, and nothing else"),
        AnswerCase(
            id: "pasted-link-with-newline", source: "this book: chapter 06, What the answer sends",
            answer: .pasted("  https://go.example/spring?li2_cid=Ab3\n"),
            json: #"{"clipboardStatus":"read","deepLink":"https:\/\/go.example\/spring?li2_cid=Ab3"}"#,
            rule: "whitespace around the link is trimmed before it is sent"),
        AnswerCase(
            id: "pasted-http", source: "this book: chapter 19, The answer and its body",
            answer: .pasted("http://go.example/spring?li2_cid=Ab3"),
            json: #"{"clipboardStatus":"read","deepLink":"http:\/\/go.example\/spring?li2_cid=Ab3"}"#,
            rule: "http links count as web links too"),
        AnswerCase(
            id: "pasted-sentence", source: "this book: chapter 06, What the answer sends",
            answer: .pasted("look at https://go.example/spring?li2_cid=Ab3 now"),
            json: #"{"clipboardStatus":"read","li2Domains":["go.example"]}"#,
            rule: "a link inside a sentence does not count: send read with the domains, never the text"),
        AnswerCase(
            id: "pasted-link-then-words", source: "this book: chapter 06, What the answer sends",
            answer: .pasted("https://go.example/spring?li2_cid=Ab3 is the link"),
            json: #"{"clipboardStatus":"read","li2Domains":["go.example"]}"#,
            rule: "a link followed by words is a sentence too: with whitespace inside, it is no bare link"),
        AnswerCase(
            id: "pasted-phone-number", source: "this book: chapter 06, What the answer sends",
            answer: .pasted("+44 20 7946 0958"),
            json: #"{"clipboardStatus":"read","li2Domains":["go.example"]}"#,
            rule: "other text is still read, but it is none of the service's business"),
        AnswerCase(
            id: "pasted-link-without-token", source: "this book: chapter 06, What the answer sends",
            answer: .pasted("https://go.example/spring"),
            json: #"{"clipboardStatus":"read","li2Domains":["go.example"]}"#,
            rule: "a link without li2_cid is not the interstitial's link"),
        AnswerCase(
            id: "pasted-empty-token", source: "this book: chapter 06, What the answer sends",
            answer: .pasted("https://go.example/spring?li2_cid="),
            json: #"{"clipboardStatus":"read","li2Domains":["go.example"]}"#,
            rule: "an empty li2_cid is no token"),
        AnswerCase(
            id: "pasted-token-wrong-case", source: "this book: chapter 06, What the answer sends",
            answer: .pasted("https://go.example/spring?LI2_CID=Ab3"),
            json: #"{"clipboardStatus":"read","li2Domains":["go.example"]}"#,
            rule: "names compare exactly: LI2_CID is not the token"),
        AnswerCase(
            id: "pasted-scheme-link", source: "this book: chapter 06, What the answer sends",
            answer: .pasted("myapp://product/42?li2_cid=Ab3"),
            json: #"{"clipboardStatus":"read","li2Domains":["go.example"]}"#,
            rule: "only web links count: the interstitial copies an https link"),
        AnswerCase(
            id: "pasted-blank", source: "this book: chapter 06, What the answer sends",
            answer: .pasted(" \n\t"),
            json: #"{"clipboardStatus":"empty","li2Domains":["go.example"]}"#,
            rule: "blank text counts as empty, like nothing to paste"),
        AnswerCase(
            id: "clipboard-empty", source: "this book: chapter 06, What the answer sends",
            answer: .clipboardEmpty,
            json: #"{"clipboardStatus":"empty","li2Domains":["go.example"]}"#,
            rule: "nothing to paste is empty, with the domains"),
        AnswerCase(
            id: "opted-out", source: "this book: chapter 06, What the answer sends", answer: .optedOut,
            json: #"{"clipboardStatus":"optout","li2Domains":["go.example"]}"#,
            rule: "skipping the screen is optout, with the domains"),
        AnswerCase(
            id: "denied", source: "this book: chapter 06, iOS 15: the direct read", answer: .denied,
            json: #"{"clipboardStatus":"denied","li2Domains":["go.example"]}"#,
            rule: "a refused read is denied, with the domains"),
    ]

    static func wire(_ request: TrackOpenRequest) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(request), as: UTF8.self)
    }

    /// Read: chapters/06-consent-and-the-clipboard.md#what-the-answer-sends
    /// Read: chapters/08-the-track-open-protocol.md#what-the-app-can-send
    @Test(arguments: cases)
    func eachAnswerSendsExactlyOneBody(_ testCase: AnswerCase) throws {
        let body = try Self.wire(trackOpenRequest(for: testCase.answer, li2Domains: Self.domains))
        #expect(body == testCase.json, "\(testCase.id): \(testCase.rule)")
    }

    /// Read: chapters/08-the-track-open-protocol.md#what-the-app-can-send
    @Test func everyBodyWithoutALinkNamesTheApp() {
        let answers: [ConsentAnswer] = [.pasted("hello"), .pasted(""), .clipboardEmpty, .optedOut, .denied]
        for answer in answers {
            let request = trackOpenRequest(for: answer, li2Domains: ["go.example", "links.example"])
            #expect(
                request.li2Domains == ["go.example", "links.example"],
                "\(answer): a body without deepLink must carry li2Domains, or the service answers 400")
        }
    }

    /// Read: chapters/06-consent-and-the-clipboard.md#what-the-answer-sends
    @Test func theTokenCheckLooksAtTheWholeText() {
        #expect(
            carriesClickToken("https://go.example/s?ref=mail&li2_cid=Ab3"),
            "li2_cid may be anywhere in the query")
        #expect(
            !carriesClickToken("see https://go.example/s?li2_cid=Ab3"), "text around the link does not count")
        #expect(!carriesClickToken("go.example/s?li2_cid=Ab3"), "without a scheme it is not a web link")
    }
}
