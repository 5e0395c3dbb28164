import Foundation
import HTTPCore
import HTTPDemoApp
import Testing

@Suite("The HTTP core without sockets")
struct InProcessTests {
    @Test(arguments: shellCases)
    func responderAnswersTheWholeExpectedResponse(_ shellCase: ShellCase) async {
        let app = DemoApp.make()
        #expect(await app.respond(to: shellCase.request) == shellCase.expected)
    }

    @Test func unexpectedErrorIsLoggedButNotShown() async {
        let log = DemoApp.LogLines()
        let response = await DemoApp.make(logger: log.logger).respond(
            to: HTTPRequest(method: .get, target: "/boom"))
        #expect(response.status == .internalServerError)
        #expect(log.lines == ["error: GET /boom failed: HTTPDemoApp.DemoApp.Unexpected()"])
    }

    @Test func headRequestUsesTheGetRoute() async {
        let response = await DemoApp.make().respond(to: HTTPRequest(method: .head, target: "/health"))
        #expect(response == jsonResponse(.ok, #"{"status":"ok"}"#))
    }

    @Test func requestWithoutOriginPassesCORSUntouched() async {
        let response = await DemoApp.make().respond(to: HTTPRequest(method: .get, target: "/health"))
        #expect(response == jsonResponse(.ok, #"{"status":"ok"}"#))
    }

    @Test func badPercentEncodingInPathIs400() async {
        let response = await DemoApp.make().respond(
            to: HTTPRequest(method: .get, target: "/api/v1/links/%zz"))
        #expect(
            response
                == jsonResponse(
                    .badRequest,
                    #"{"error":{"code":"invalid_path","message":"path is not valid percent-encoding: /api/v1/links/%zz"}}"#
                ))
    }

    @Test func trailingSlashIsADifferentPath() async {
        let response = await DemoApp.make().respond(to: HTTPRequest(method: .get, target: "/health/"))
        #expect(response.status == .notFound)
    }
}

@Suite("Request and response values")
struct MessageTests {
    @Test func targetSplitsPathAndDecodesQuery() {
        let request = HTTPRequest(method: .get, target: "/a%20b?x=1&y=two+words&x=2&z")
        #expect(request.path == "/a%20b")
        #expect(
            request.query == [
                QueryItem(name: "x", value: "1"), QueryItem(name: "y", value: "two words"),
                QueryItem(name: "x", value: "2"), QueryItem(name: "z", value: nil),
            ])
        #expect(request.queryValue(for: "x") == "1")
    }

    @Test func headersAreCaseInsensitiveAndKeepRepeats() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "Vary": "Origin"]
        headers.add(name: "vary", value: "Accept")
        headers["content-type"] = "application/json"
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers.values(for: "Vary") == ["Origin", "Accept"])
        #expect(headers == ["vary": "Origin", "Vary": "Accept", "content-type": "application/json"])
        #expect(headers != ["Vary": "Accept", "Vary": "Origin", "Content-Type": "application/json"])
    }

    @Test func methodIsUppercased() {
        #expect(HTTPMethod(rawValue: "post") == .post)
    }

    @Test func errorRendersTheOneEnvelope() {
        let error = HTTPError(.unauthorized, code: "missing_key", message: "say \"please\"")
        #expect(
            error.response
                == jsonResponse(
                    .unauthorized, #"{"error":{"code":"missing_key","message":"say \"please\""}}"#))
    }
}

@Suite("Route patterns")
struct RoutePatternTests {
    struct PatternCase: Sendable, CustomStringConvertible {
        var id: String
        var source: String
        var pattern: String
        var path: String
        var expected: RouteParameters?
        var description: String { id }
    }

    static let cases: [PatternCase] = [
        PatternCase(
            id: "literal", source: "this book: the HTTP core matches routes segment by segment",
            pattern: "/health", path: "/health",
            expected: .init()),
        PatternCase(
            id: "literal-mismatch", source: "this book: the HTTP core matches routes segment by segment",
            pattern: "/health",
            path: "/Health",
            expected: nil),
        PatternCase(
            id: "parameter", source: "this book: the HTTP core matches routes segment by segment",
            pattern: "/links/{key}",
            path: "/links/abc",
            expected: .init(["key": "abc"])),
        PatternCase(
            id: "parameter-needs-a-segment",
            source: "this book: the HTTP core matches routes segment by segment",
            pattern: "/links/{key}",
            path: "/links/",
            expected: nil),
        PatternCase(
            id: "parameter-is-one-segment",
            source: "this book: the HTTP core matches routes segment by segment",
            pattern: "/links/{key}",
            path: "/links/a/b", expected: nil),
        PatternCase(
            id: "remainder", source: "this book: the HTTP core matches routes segment by segment",
            pattern: "/site/{path...}",
            path: "/site/a/b.html",
            expected: .init(["path": "a/b.html"])),
        PatternCase(
            id: "remainder-needs-a-segment",
            source: "this book: the HTTP core matches routes segment by segment",
            pattern: "/site/{path...}",
            path: "/site", expected: nil),
        PatternCase(
            id: "two-parameters", source: "this book: the HTTP core matches routes segment by segment",
            pattern: "/{domain}/{key}",
            path: "/go.example/x1",
            expected: .init(["domain": "go.example", "key": "x1"])),
    ]

    @Test(arguments: cases)
    func patternMatchesExactlyTheExpectedPaths(_ patternCase: PatternCase) async throws {
        var router = HTTPRouter(logger: .silent)
        router.get(patternCase.pattern) { _, parameters in
            try .json(parameters.values)
        }
        let response = await router.respond(to: HTTPRequest(method: .get, target: patternCase.path))
        if let expected = patternCase.expected {
            let wanted = try HTTPResponse.json(expected.values)
            #expect(response == wanted)
        } else {
            #expect(response.status == .notFound)
        }
    }
}

@Suite("Route lists")
struct RouteListTests {
    /// A router lists the routes it has, in the order it tries them, as an API description
    /// names them: what the mock server's OpenAPI check reads.
    @Test func aRouterListsItsRoutesInTheOrderItTriesThem() {
        var router = HTTPRouter(
            [HTTPRoute(.get, "/healthz") { _, _ in .text("ok") }], logger: .silent)
        router.add([HTTPRoute(.post, "/api/v1/sim/sessions/{id}/events") { _, _ in .text("played") }])
        router.get("/{key}") { _, _ in .text("visited") }
        #expect(
            router.routes.map(\.description) == [
                "GET /healthz", "POST /api/v1/sim/sessions/{id}/events", "GET /{key}",
            ])
    }

    @Test func theFirstMatchingRouteAnswers() async {
        var router = HTTPRouter(logger: .silent)
        router.get("/links/new") { _, _ in .text("literal") }
        router.get("/links/{key}") { _, _ in .text("parameter") }
        #expect(
            await router.respond(to: HTTPRequest(method: .get, target: "/links/new")).bodyText == "literal")
        #expect(
            await router.respond(to: HTTPRequest(method: .get, target: "/links/old")).bodyText == "parameter")
    }
}

@Suite("Body limit")
struct BodyLimitTests {
    @Test func declaredLengthOverTheLimitIsRefusedBeforeReading() {
        let limit = BodyLimit(maxBytes: 65_536)
        #expect(throws: HTTPError.payloadTooLarge(limit: 65_536)) { try limit.admit(declaredLength: 65_537) }
        #expect(throws: Never.self) { try limit.admit(declaredLength: 65_536) }
        #expect(throws: Never.self) { try limit.admit(declaredLength: nil) }
    }

    @Test func unreadableContentLengthIs400() {
        #expect(
            throws: HTTPError(
                .badRequest, code: "invalid_content_length", message: "Content-Length is not a number")
        ) {
            try BodyLimit().admit(headers: ["Content-Length": "12abc"])
        }
    }

    @Test func accumulatorStopsAtTheLimitWithoutBufferingMore() {
        var body = BodyAccumulator(limit: BodyLimit(maxBytes: 4))
        #expect(throws: Never.self) { try body.append(Data("abc".utf8)) }
        #expect(throws: HTTPError.payloadTooLarge(limit: 4)) { try body.append(Data("de".utf8)) }
        #expect(body.data == Data("abc".utf8))
        #expect(throws: Never.self) { try body.append(Data("d".utf8)) }
        #expect(body.data == Data("abcd".utf8))
    }

    @Test func payloadTooLargeRendersAs413() {
        #expect(
            HTTPError.payloadTooLarge(limit: 65_536).response
                == jsonResponse(
                    .payloadTooLarge,
                    #"{"error":{"code":"payload_too_large","message":"request body exceeds 65536 bytes"}}"#))
    }
}
