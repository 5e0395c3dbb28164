import Foundation
import Testing

@testable import DiagnoseWithTheMockServer

/// A canned answer, as chapter 08 shows them, and the diagnosis it must get.
struct AnswerCase: CustomTestStringConvertible, Sendable {
    var id: String
    var source: String
    var status: Int
    var body: String
    var expected: Diagnosis
    var rule: String

    var testDescription: String { id }
}

struct DiagnosisTests {
    static let answers: [AnswerCase] = [
        AnswerCase(
            id: "universal-link", source: "this book: chapter 08, Matches and misses", status: 200,
            body:
                #"{"clickId":"a","link":{"id":"l","domain":"go.example","key":"summer","url":"https://shop.example/"},"matchMethod":"universal_link"}"#,
            expected: .working(matchMethod: "universal_link"), rule: "a link in the answer means it works"),
        AnswerCase(
            id: "no-candidate", source: "this book: chapter 08, Matches and misses", status: 200,
            body: #"{"clickId":"a","link":null,"missReason":"no_candidate"}"#, expected: .organicInstall,
            rule: "no_candidate: nothing to match on, usually an organic install"),
        AnswerCase(
            id: "clipboard-empty", source: "this book: chapter 08, Matches and misses", status: 200,
            body: #"{"clickId":"a","link":null,"missReason":"clipboard_empty"}"#,
            expected: .interstitialCopyMissed,
            rule: "clipboard_empty: the user agreed but had nothing to paste"),
        AnswerCase(
            id: "clipboard-denied", source: "this book: chapter 08, Matches and misses", status: 200,
            body: #"{"clickId":"a","link":null,"missReason":"clipboard_denied"}"#,
            expected: .pastePermissionDenied,
            rule: "clipboard_denied: the system refused the read"),
        AnswerCase(
            id: "opted-out", source: "this book: chapter 08, Matches and misses", status: 200,
            body: #"{"clickId":"a","link":null,"missReason":"opted_out"}"#, expected: .userOptedOut,
            rule: "opted_out: the user declined"),
        AnswerCase(
            id: "expired", source: "this book: chapter 08, Matches and misses", status: 200,
            body: #"{"clickId":"a","link":null,"missReason":"expired"}"#, expected: .tookTooLongToOpen,
            rule: "expired: the record outlived its time to live"),
        AnswerCase(
            id: "unknown-click", source: "this book: chapter 08, Matches and misses", status: 200,
            body: #"{"clickId":"a","link":null,"missReason":"unknown_click"}"#, expected: .tokenFromElsewhere,
            rule: "unknown_click: a token no visit created"),
        AnswerCase(
            id: "unknown-link", source: "this book: chapter 08, Matches and misses", status: 200,
            body: #"{"clickId":"a","link":null,"missReason":"unknown_link"}"#, expected: .noSuchLink,
            rule: "unknown_link: our domain, but no link has that key"),
        AnswerCase(
            id: "missing-key", source: "this book: chapter 08, Keys: publishable and secret", status: 401,
            body: #"{"error":{"code":"missing_key","message":"an API key is required"}}"#,
            expected: .missingKey,
            rule: "401 missing_key: no key was sent"),
        AnswerCase(
            id: "invalid-key", source: "this book: chapter 08, Keys: publishable and secret", status: 401,
            body: #"{"error":{"code":"invalid_key","message":"the API key is not valid"}}"#,
            expected: .wrongKey,
            rule: "401 invalid_key: a key nobody issued"),
        AnswerCase(
            id: "bad-request", source: "this book: chapter 08, Refusals", status: 400,
            body:
                #"{"error":{"code":"missing_field","message":"one of deepLink, li2Domains or installReferrer is required"}}"#,
            expected: .badRequest(message: "one of deepLink, li2Domains or installReferrer is required"),
            rule: "400: pass the service's message on"),
    ]

    /// Read: chapters/08-the-track-open-protocol.md#matches-and-misses
    /// Read: chapters/08-the-track-open-protocol.md#refusals
    @Test(arguments: answers)
    func eachAnswerGetsItsDiagnosis(_ testCase: AnswerCase) {
        let diagnosis = diagnose(status: testCase.status, body: Data(testCase.body.utf8))
        #expect(diagnosis == testCase.expected, "\(testCase.id): \(testCase.rule)")
    }

    /// Broken set-ups played against the real mock server: the diagnosis must read its answers.
    /// Read: chapters/08-the-track-open-protocol.md#keys-publishable-and-secret
    /// Read: chapters/08-the-track-open-protocol.md#matches-and-misses
    /// Read: chapters/08-the-track-open-protocol.md#refusals
    /// Read: chapters/08-the-track-open-protocol.md#trying-it
    /// Read: chapters/11-troubleshooting.md#every-call-fails-with-401
    @Test(.timeLimit(.minutes(1)))
    func theMockServerConfirmsEachDiagnosis() async throws {
        let server = try await MockServer.start()
        defer { server.stop() }
        let key = server.publishableKey
        let scenarios: [(String, (status: Int, body: Data), Diagnosis)] = [
            (
                "an installed app opened by its Universal Link",
                try await server.trackOpen(#"{"deepLink":"https://go.example/summer"}"#, key: key),
                .working(matchMethod: "universal_link")
            ),
            (
                "no X-Li2-Key header",
                try await server.trackOpen(#"{"deepLink":"https://go.example/summer"}"#, key: nil),
                .missingKey
            ),
            (
                "the key of another environment",
                try await server.trackOpen(
                    #"{"deepLink":"https://go.example/summer"}"#, key: "li2_pk_staging_0000"),
                .wrongKey
            ),
            (
                "a hand-made link with a typo in its key",
                try await server.trackOpen(#"{"deepLink":"https://go.example/sumer"}"#, key: key), .noSuchLink
            ),
            (
                "the consent sheet found an empty clipboard",
                try await server.trackOpen(
                    #"{"li2Domains":["go.example"],"clipboardStatus":"empty"}"#, key: key),
                .interstitialCopyMissed
            ),
            (
                "the system refused the read",
                try await server.trackOpen(
                    #"{"li2Domains":["go.example"],"clipboardStatus":"denied"}"#, key: key),
                .pastePermissionDenied
            ),
            (
                "the user skipped the consent sheet",
                try await server.trackOpen(
                    #"{"li2Domains":["go.example"],"clipboardStatus":"optout"}"#, key: key),
                .userOptedOut
            ),
            (
                "an organic install on Android",
                try await server.trackOpen(
                    #"{"installReferrer":"utm_source=google-play&utm_medium=organic"}"#, key: key,
                    platform: "android"),
                .organicInstall
            ),
            (
                "a token no visit created",
                try await server.trackOpen(
                    #"{"deepLink":"https://go.example/summer?li2_cid=Zz9Zz9Zz9Zz9Zz9Z","clipboardStatus":"read"}"#,
                    key: key),
                .tokenFromElsewhere
            ),
        ]
        for (situation, answer, expected) in scenarios {
            let text = String(decoding: answer.body, as: UTF8.self)
            #expect(
                diagnose(status: answer.status, body: answer.body) == expected,
                "\(situation): the server answered \(answer.status) \(text)")
        }
        let refused = try await server.trackOpen("{}", key: key)
        guard case .badRequest(let message) = diagnose(status: refused.status, body: refused.body) else {
            Issue.record("an empty body: the server answered \(refused.status); that is a bad request")
            return
        }
        #expect(!message.isEmpty, "a bad request carries the service's message, to say what is wrong")
    }

    /// The deferred journey against the real server: a paste works the day of the click, and
    /// expires after the record's time to live (24 hours in the demo configuration).
    /// Read: chapters/08-the-track-open-protocol.md#matches-and-misses
    /// Read: chapters/11-troubleshooting.md#no-deferred-link-after-a-fresh-install
    @Test(.timeLimit(.minutes(1)))
    func aPasteAfterTheTimeToLiveIsDiagnosedAsTooLate() async throws {
        let server = try await MockServer.start()
        defer { server.stop() }
        let copied = try await server.visitAsIPhone("summer")
        let body = #"{"deepLink":"\#(copied)","clipboardStatus":"read"}"#
        let fresh = try await server.trackOpen(body, key: server.publishableKey)
        #expect(
            diagnose(status: fresh.status, body: fresh.body) == .working(matchMethod: "clipboard"),
            "pasting the copied link the same day matches through the clipboard")
        try await server.advanceClock(seconds: 25 * 60 * 60)
        let late = try await server.trackOpen(body, key: server.publishableKey)
        #expect(
            diagnose(status: late.status, body: late.body) == .tookTooLongToOpen,
            "the same paste 25 hours later: the server answered \(String(decoding: late.body, as: UTF8.self))"
        )
    }
}
