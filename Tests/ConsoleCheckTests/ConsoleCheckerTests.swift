import Foundation
import Literate
import Testing

@testable import ConsoleCheck

/// The `console` checker: transcripts run against a server of its own, compared whole.
@Suite(.serialized)
struct ConsoleCheckerTests {
    /// The repository (for `config/demo.json`, the server's demo configuration).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let trackOpen =
        "$ curl -s -X POST http://localhost:8080/api/v1/track/open -H 'X-Li2-Key: li2_pk_demo_4f7c2a9e1b' \\"

    /// A console block of `chapter` whose first content line is line 10.
    static func snippet(_ lines: [String], chapter: String = "chapters/08-the-track-open-protocol.md")
        -> Snippet
    {
        var attributes = BlockAttributes()
        attributes.language = "console"
        attributes.checker = "console"
        return Snippet(
            block: CodeBlock(
                chapter: chapter, location: SourceLocation(path: chapter, line: 9), contentLine: 10,
                contentColumn: 1, info: "console {check=console}", attributes: attributes, lines: lines,
                isFenced: true))
    }

    /// Runs the checker on a Dispatch queue: it blocks its thread while the server starts, and the
    /// cooperative pool must stay free for the server's own tasks.
    static func check(_ snippets: [Snippet], timeout: Duration = .seconds(20)) async -> [[SnippetFinding]] {
        let checker = ConsoleChecker(bookFolder: repository, commandTimeout: timeout)
        return await withCheckedContinuation { continuation in
            DispatchQueue(label: "console-checker-test").async {
                continuation.resume(returning: checker.check(snippets))
            }
        }
    }

    @Test func aPassingTranscriptHasNoFindings() async {
        let transcript = [
            "$ curl -s http://localhost:8080/healthz",
            #"{"status":"ok"}"#,
            Self.trackOpen,
            #"    -d '{"deepLink": "https://go.example/summer"}'"#,
            #"{"clickId":"<clickId>","link":{"domain":"go.example","id":"link_summer","key":"summer","#
                + #""url":"https://shop.example/sale?campaign=summer"},"matchMethod":"immediate","platform":"unknown"}"#,
            "$ printf 'one\\ntwo\\n'",
            "one",
            "two",
        ]
        #expect(await Self.check([Self.snippet(transcript)]) == [[]])
    }

    @Test func jsonIsComparedAsAValueWithPlaceholdersInItsStrings() async {
        // The events listing, pretty-printed by Python and written with keys in another order.
        let transcript = [
            Self.trackOpen,
            #"    -d '{"li2Domains": ["go.example"], "clipboardStatus": "optout"}' >/dev/null"#,
            "$ curl -s 'http://127.0.0.1:8080/api/v1/events?limit=1' \\",
            "    -H 'Authorization: Bearer li2_sk_demo_8d3b6e0f5a' | python3 -m json.tool",
            "{",
            #"    "events": ["#,
            #"        {"type": "open", "id": 1, "at": "<timestamp>", "clickId": "<clickId>","#,
            #"         "missReason": "opted_out", "platform": "ios"}"#,
            "    ],",
            #"    "total": 1, "next": null"#,
            "}",
        ]
        #expect(await Self.check([Self.snippet(transcript)]) == [[]])
    }

    @Test func aMismatchIsReportedAtTheCommandWithADiff() async {
        let transcript = ["$ echo ready", "ready", "$ printf 'alpha\\nbeta\\n'", "alpha", "gamma"]
        let expected = SnippetFinding(
            .error, line: 3,
            """
            the output differs from the transcript (compared line by line):
            --- chapters/08-the-track-open-protocol.md:12 (transcript)
            +++ output
            @@ -1,2 +1,2 @@
             alpha
            -gamma
            +beta
            """)
        #expect(await Self.check([Self.snippet(transcript)]) == [[expected]])
    }

    @Test func aPlaceholderMatchesOnlyATokenOfItsShape() async {
        // 15 characters where a clickId has 16.
        let transcript = ["$ echo 'id Ab3dEf6hIj9kLm2'", "id <clickId>"]
        let expected = SnippetFinding(
            .error, line: 1,
            """
            the output differs from the transcript (compared line by line):
            --- chapters/08-the-track-open-protocol.md:10 (transcript)
            +++ output
            @@ -1 +1 @@
            -id <clickId>
            +id Ab3dEf6hIj9kLm2
            """)
        #expect(await Self.check([Self.snippet(transcript)]) == [[expected]])
    }

    /// `tail -f /dev/null` never ends on its own; the checker's deadline (0.3 s) stops it, and
    /// the rest of the transcript is not run.
    @Test func aCommandThatDoesNotFinishIsStoppedAndReported() async {
        let findings = await Self.check(
            [Self.snippet(["$ tail -f /dev/null", "$ echo after", "after"])], timeout: .milliseconds(300))
        #expect(
            findings == [
                [SnippetFinding(.error, line: 1, "the command did not finish within 0.3 s and was stopped")]
            ])
    }

    @Test func stateCarriesAcrossTheCommandsOfAChapterButNotToTheNext() async {
        let create = [
            "$ curl -s -X POST http://localhost:8080/api/v1/links -H 'Authorization: Bearer li2_sk_demo_8d3b6e0f5a' \\",
            #"    -d '{"domain": "go.example", "key": "spring", "url": "https://shop.example/spring"}' \"#,
            "    -o /dev/null -w '%{http_code}\\n'",
            "201",
        ]
        let again = create.dropLast() + ["409"]
        let findings = await Self.check([
            Self.snippet(create, chapter: "chapters/08-a.md"),
            Self.snippet(Array(again), chapter: "chapters/08-a.md"),
            Self.snippet(create, chapter: "chapters/09-b.md"),
        ])
        #expect(findings == [[], [], []])
    }

    @Test func theServerAddressInTheOutputReadsAsTheOneTheReaderTyped() async {
        let transcript = ["$ echo http://localhost:8080/healthz", "http://localhost:8080/healthz"]
        #expect(await Self.check([Self.snippet(transcript)]) == [[]])
    }

    @Test func aBlockThatDoesNotStartWithACommandIsRejected() async {
        let findings = await Self.check([Self.snippet(["{\"status\":\"ok\"}", "$ echo hi", "hi"])])
        #expect(findings == [[SnippetFinding(.error, line: 1, ConsoleMessage.noCommandFirst)]])
    }
}

/// The pure parts: reading a transcript and matching placeholders.
struct ConsoleTranscriptTests {
    @Test func continuationLinesBelongToTheCommand() throws {
        let transcript = try ConsoleTranscript.parse(["$ curl -s \\", "    http://x/", "out", "", "$ true"])
            .get()
        #expect(
            transcript
                == ConsoleTranscript(commands: [
                    .init(text: "curl -s \\\n    http://x/", line: 0, expected: ["out", ""]),
                    .init(text: "true", line: 4, expected: []),
                ]))
    }

    struct PlaceholderCase: Sendable, CustomTestStringConvertible {
        var id: String
        var source: String
        var pattern: String
        var actual: String
        var matches: Bool
        var testDescription: String { id }
    }

    static let placeholderCases: [PlaceholderCase] = [
        .init(
            id: "click-id", source: "this book: chapter 08, Trying it",
            pattern: "<clickId>", actual: "Ab3dEf6hIj9kLm2n", matches: true),
        .init(
            id: "click-id-short", source: "this book: chapter 08, Trying it",
            pattern: "<clickId>", actual: "Ab3dEf6hIj9kLm2", matches: false),
        .init(
            id: "click-id-dash", source: "this book: chapter 08, Trying it",
            pattern: "<clickId>", actual: "Ab3dEf6h-j9kLm2n", matches: false),
        .init(
            id: "in-a-link", source: "this book: chapter 08, Trying it",
            pattern: "https://go.example/summer?li2_cid=<li2_cid>",
            actual: "https://go.example/summer?li2_cid=In2wSGuQqH6agRSx", matches: true),
        .init(
            id: "link-id", source: "this book: chapter 08, Trying it", pattern: "<linkId>",
            actual: "link_In2wSGuQqH6agRSx", matches: true),
        .init(
            id: "timestamp", source: "this book: chapter 08, Trying it",
            pattern: "<timestamp>",
            actual: "2025-06-15T15:06:40.000Z", matches: true),
        .init(
            id: "timestamp-local", source: "this book: chapter 08, Trying it",
            pattern: "<timestamp>",
            actual: "2025-06-15T15:06:40+02:00", matches: false),
        .init(
            id: "html-is-literal", source: "this book: chapter 13, Checked terminal sessions",
            pattern: "<code id=\"x\">a.b</code>", actual: "<code id=\"x\">a.b</code>", matches: true),
        .init(
            id: "regex-characters-are-literal",
            source: "this book: chapter 13, Checked terminal sessions",
            pattern: "a.b <clickId>", actual: "axb Ab3dEf6hIj9kLm2n", matches: false),
    ]

    @Test(arguments: placeholderCases)
    func aPlaceholderStandsForOneTokenOfItsShape(_ testCase: PlaceholderCase) {
        #expect(OutputPattern(line: testCase.pattern).matches(testCase.actual) == testCase.matches)
    }
}
