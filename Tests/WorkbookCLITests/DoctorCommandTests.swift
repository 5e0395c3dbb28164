import CommandLineKit
import DeepLinkCore
import Foundation
import HTTPCore
import MicroHTTPDServer
import Testing

@testable import workbook

// MARK: - The pure parts: targets, JSON syntax, the report

/// What `workbook doctor` accepts as its argument.
struct DoctorTargetTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var source: String
        var input: String
        /// The origin and link, or nil when the input is bad.
        var expected: (origin: String, link: String?)?

        var testDescription: String { id }
    }

    static let cases: [Case] = [
        Case(
            id: "bare-domain-means-https", source: "this book: workbook doctor --help", input: "example.com",
            expected: ("https://example.com", nil)),
        Case(
            id: "host-is-lowercased", source: "RFC 3986 §3.2.2 (hosts are case-insensitive)",
            input: "HTTPS://Example.COM", expected: ("https://example.com", nil)),
        Case(
            id: "path-makes-a-link", source: "this book: workbook doctor --help",
            input: "https://example.com/product/42?ref=mail#top",
            expected: ("https://example.com", "https://example.com/product/42?ref=mail#top")),
        Case(
            id: "root-path-is-a-link", source: "this book: workbook doctor --help",
            input: "https://example.com/",
            expected: ("https://example.com", "https://example.com/")),
        Case(
            id: "domain-with-path", source: "this book: workbook doctor --help",
            input: "shop.example.com/cart",
            expected: ("https://shop.example.com", "https://shop.example.com/cart")),
        Case(
            id: "loopback-http-for-tests", source: "this book: chapter 03, Hosting the file",
            input: "http://127.0.0.1:8080/product/1",
            expected: ("http://127.0.0.1:8080", "http://127.0.0.1:8080/product/1")),
        Case(
            id: "localhost-http-for-tests", source: "this book: chapter 03, Hosting the file",
            input: "http://localhost:9000",
            expected: ("http://localhost:9000", nil)),
        Case(
            id: "plain-http-elsewhere", source: "Apple: Supporting associated domains (HTTPS only)",
            input: "http://example.com", expected: nil),
        Case(
            id: "other-scheme", source: "this book: workbook doctor --help", input: "ftp://example.com",
            expected: nil),
        Case(id: "words", source: "this book: workbook doctor --help", input: "not a domain", expected: nil),
        Case(
            id: "single-label", source: "this book: workbook doctor --help", input: "intranet", expected: nil),
        Case(id: "underscore", source: "RFC 1123 §2.1 (host names)", input: "exa_mple.com", expected: nil),
        Case(id: "empty-label", source: "RFC 1123 §2.1 (host names)", input: "example..com", expected: nil),
        Case(
            id: "scheme-only", source: "this book: workbook doctor --help", input: "https://", expected: nil),
        Case(id: "empty", source: "this book: workbook doctor --help", input: "", expected: nil),
    ]

    @Test(arguments: cases)
    func parsesADomainOrAURL(_ testCase: Case) throws {
        if let expected = testCase.expected {
            let target = try DoctorTarget.parse(testCase.input)
            #expect(target.origin.absoluteString == expected.origin)
            #expect(target.link?.absoluteString == expected.link)
        } else {
            #expect(throws: CommandError.self) { try DoctorTarget.parse(testCase.input) }
        }
    }

    @Test func wellKnownURLsHangOffTheOrigin() throws {
        let target = try DoctorTarget.parse("https://example.com:8443/a")
        #expect(
            target.aasaURL.absoluteString == "https://example.com:8443/.well-known/apple-app-site-association"
        )
        #expect(target.assetLinksURL.absoluteString == "https://example.com:8443/.well-known/assetlinks.json")
        #expect(!target.isLocalTest)
    }
}

/// The report, computed from made-up responses: no network.
struct DoctorReportTests {
    static let target = try! DoctorTarget.parse("https://example.com/product/42")

    static func response(
        _ path: String, status: Int = 200, location: String? = nil, contentType: String? = "application/json",
        body: String
    ) -> FetchOutcome {
        .response(
            FetchedResponse(
                url: URL(string: "https://example.com" + path)!, statusCode: status, location: location,
                contentType: contentType, body: Data(body.utf8)))
    }

    static let aasa =
        #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.shop"],"components":[{"/":"/product/*"}]}]}}"#
    static let assetLinks = """
        [{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app",\
        "package_name":"com.example.shop","sha256_cert_fingerprints":\
        ["A5:4D:CA:18:25:30:BB:1D:6D:13:2C:DE:D6:23:7B:2E:D9:1E:3F:72:1F:CB:19:71:17:44:94:D6:49:3C:9D:5C"]}}]
        """

    @Test func aWellServedSitePassesAndNamesTheApps() {
        let report = DoctorReport(
            target: Self.target,
            aasa: Self.response("/.well-known/apple-app-site-association", body: Self.aasa),
            assetLinks: Self.response("/.well-known/assetlinks.json", body: Self.assetLinks))
        #expect(report.passed)
        #expect(report.ios.openers == .apps(["ABCDE12345.com.example.shop"]))
        #expect(report.android.openers == .apps(["com.example.shop"]))
        #expect(
            report.lines == [
                "Checking https://example.com",
                "Link: https://example.com/product/42",
                "",
                "iOS (Universal Links): https://example.com/.well-known/apple-app-site-association",
                "  status 200, Content-Type: application/json, 103 bytes",
                "  no problems found",
                "  apps that open the link: ABCDE12345.com.example.shop",
                "  verdict: pass",
                "",
                "Android (App Links): https://example.com/.well-known/assetlinks.json",
                "  status 200, Content-Type: application/json, 259 bytes",
                "  no problems found",
                "  apps verified to open the link: com.example.shop (if their intent filters take the path)",
                "  verdict: pass",
                "",
                "Result: iOS pass, Android pass",
            ])
    }

    @Test func aRedirectFailsAndItsBodyIsNotLinted() {
        let location = "https://www.example.com/.well-known/apple-app-site-association"
        let report = DoctorReport(
            target: Self.target,
            aasa: Self.response(
                "/.well-known/apple-app-site-association", status: 301, location: location,
                contentType: "text/html",
                body: "<a>moved</a>"),
            assetLinks: .failed("timed out after 10 s"))
        #expect(!report.passed)
        #expect(
            report.ios
                == PlatformCheck(
                    platform: .ios, url: Self.target.aasaURL, answered: true,
                    response: "status 301, Location: \(location), Content-Type: text/html, 12 bytes",
                    findings: [
                        LintFinding(
                            .error, "hosting.redirect", at: "response.headers.Location",
                            "the server redirects to \(location); serve the file directly with status 200"),
                        LintFinding(
                            .error, "hosting.content-type", at: "response.headers.Content-Type",
                            "Content-Type is text/html; it must be application/json"),
                    ],
                    fileNotChecked: "the body of a status 301 response is not the file", openers: .unknown,
                    passed: false))
        #expect(
            report.android
                == PlatformCheck(
                    platform: .android, url: Self.target.assetLinksURL, answered: false,
                    response: "no response: timed out after 10 s", findings: [],
                    fileNotChecked: "there is no file to check", openers: .unknown, passed: false))
    }

    @Test func aBodyWithATrailingCommaIsReportedWhereItBreaks() {
        let report = DoctorReport(
            target: Self.target,
            aasa: Self.response("/.well-known/apple-app-site-association", body: "{\"applinks\": {},\n}"),
            assetLinks: Self.response("/.well-known/assetlinks.json", body: Self.assetLinks))
        #expect(
            report.ios.findings == [
                LintFinding(
                    .error, "aasa.invalid-json", at: "$",
                    "not valid JSON at line 1, column 16: a comma before '}': remove the trailing comma")
            ])
        #expect(report.ios.openers == .unknown)
        #expect(!report.passed)
    }

    @Test func theHelpShowsARealReport() throws {
        let report = DoctorReport(
            target: Self.target,
            aasa: Self.response("/.well-known/apple-app-site-association", body: Self.aasa),
            assetLinks: Self.response(
                "/.well-known/assetlinks.json", status: 404, contentType: "text/html", body: "Not Found"))
        let indented = report.lines.map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
        let help = try #require(doctorCommand.spec.discussion)
        #expect(
            help.contains("  $ workbook doctor https://example.com/product/42\n" + indented), "\(indented)")
    }

    @Test func onlyHandleAllURLsStatementsNameAndroidApps() throws {
        let statements = try AssetLinks.statements(
            from: SubjectFixtures.contents("assetlinks.json"))
        #expect(PlatformCheck.handlingPackages(statements) == ["com.example.shop"])
    }
}

// MARK: - The command against a real server on 127.0.0.1

/// What the test server answers for one well-known file.
struct ServedFile: Sendable {
    var status: Int = 200
    var contentType: String? = "application/json"
    var body: Data
    /// Answer with a 301 to this path on the same server instead.
    var redirectTo: String?
    /// Answer only after this long (to exercise `--timeout`).
    var delay: Duration?

    static func fixture(_ name: String) throws -> ServedFile {
        ServedFile(body: try SubjectFixtures.contents(name))
    }

    static func text(_ text: String) -> ServedFile {
        ServedFile(body: Data(text.utf8))
    }
}

/// Counts the requests that reach the redirect targets: a doctor that follows redirects would.
final class HitCounter: Sendable {
    private let count = Locked(0)

    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// A tiny lock-protected value, so the counter is Sendable without Synchronization (macOS 15).
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&value) }
    }
}

// The limit counts the wait in CommandRunner's queue, which may hold an exercise build.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct DoctorCommandTests {
    static let aasaPath = "/.well-known/apple-app-site-association"
    static let assetLinksPath = "/.well-known/assetlinks.json"

    /// Serves the two files on 127.0.0.1, runs `workbook doctor` with `arguments` (where
    /// `{base}` stands for `http://127.0.0.1:PORT`), and stops the server.
    static func doctor(
        aasa: ServedFile, assetLinks: ServedFile, _ arguments: [String], hits: HitCounter = HitCounter()
    ) async throws -> (output: CommandRunner.Output, port: Int) {
        var router = HTTPRouter(logger: .silent)
        for (path, file) in [(aasaPath, aasa), (assetLinksPath, assetLinks)] {
            router.get(path) { request, _ in
                if let delay = file.delay { try await Task.sleep(for: delay) }
                var headers: HTTPHeaders = [:]
                if let target = file.redirectTo {
                    headers["Location"] = "http://\(request.headers["Host"] ?? "127.0.0.1")\(target)"
                }
                if let contentType = file.contentType { headers["Content-Type"] = contentType }
                return HTTPResponse(status: HTTPStatus(file.status), headers: headers, body: file.body)
            }
        }
        router.get("/moved/{file}") { _, _ in
            hits.increment()
            return HTTPResponse(
                status: .ok, headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
        }
        var configuration = HTTPServer.Configuration()
        configuration.logger = .silent
        let server = HTTPServer(responder: router, configuration: configuration)
        let port = try server.start(host: "127.0.0.1", port: 0)
        let base = "http://127.0.0.1:\(port)"
        let resolved = arguments.map { $0.replacingOccurrences(of: "{base}", with: base) }
        do {
            let output = try await runDoctor(resolved)
            await server.stop(gracePeriod: .seconds(1))
            return (output, port)
        } catch {
            await server.stop(gracePeriod: .seconds(1))
            throw error
        }
    }

    static func runDoctor(_ arguments: [String]) async throws -> CommandRunner.Output {
        try await SubjectFixtures.run(["doctor"] + arguments)
    }

    /// The `--timeout` of the tests that expect an answer: generous, because the server's
    /// handlers share the machine's few cooperative threads with every other suite running at
    /// the same time. A passing run never waits for it.
    static let patience = "20"

    static let note =
        "note: plain HTTP is accepted for 127.0.0.1 and localhost, for testing; in production both files must be served over HTTPS"
    static let iosHTTPWarning =
        "  warning hosting.not-https response.url: plain HTTP is accepted here for local testing only; Apple fetches over HTTPS"
    static let androidHTTPWarning =
        "  warning hosting.not-https response.url: plain HTTP is accepted here for local testing only; Android fetches over HTTPS"

    @Test func aWellServedSitePassesOnBothPlatforms() async throws {
        let (output, port) = try await Self.doctor(
            aasa: .fixture("apple-app-site-association"), assetLinks: .fixture("assetlinks.json"),
            ["{base}/product/42", "--timeout", Self.patience])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout == """
                Checking http://127.0.0.1:\(port)
                Link: http://127.0.0.1:\(port)/product/42
                \(Self.note)

                iOS (Universal Links): http://127.0.0.1:\(port)/.well-known/apple-app-site-association
                  status 200, Content-Type: application/json, 595 bytes
                \(Self.iosHTTPWarning)
                  apps that open the link: ABCDE12345.com.example.shop, ABCDE12345.com.example.shop.beta
                  verdict: pass (1 warning)

                Android (App Links): http://127.0.0.1:\(port)/.well-known/assetlinks.json
                  status 200, Content-Type: application/json, 818 bytes
                \(Self.androidHTTPWarning)
                  apps verified to open the link: com.example.shop (if their intent filters take the path)
                  verdict: pass (1 warning)

                Result: iOS pass, Android pass

                """)
        #expect(output.stderr == "")
    }

    @Test func aRedirectIsReportedWithItsLocationAndNeverFollowed() async throws {
        let hits = HitCounter()
        var moved = try ServedFile.fixture("apple-app-site-association")
        moved.status = 301
        moved.contentType = "text/html"
        // Empty: URLSession on Linux drops the body of a redirect it was told not to follow.
        moved.body = Data()
        moved.redirectTo = "/moved/apple-app-site-association"
        let (output, port) = try await Self.doctor(
            aasa: moved, assetLinks: .fixture("assetlinks.json"), ["{base}", "--timeout", Self.patience],
            hits: hits)
        #expect(output.status == 1)
        #expect(hits.value == 0)
        let location = "http://127.0.0.1:\(port)/moved/apple-app-site-association"
        #expect(
            output.stdout == """
                Checking http://127.0.0.1:\(port)
                \(Self.note)

                iOS (Universal Links): http://127.0.0.1:\(port)/.well-known/apple-app-site-association
                  status 301, Location: \(location), Content-Type: text/html, 0 bytes
                \(Self.iosHTTPWarning)
                  error hosting.redirect response.headers.Location: the server redirects to \(location); \
                serve the file directly with status 200
                  error hosting.content-type response.headers.Content-Type: Content-Type is text/html; it must \
                be application/json
                  file not checked: the body of a status 301 response is not the file
                  verdict: FAIL (2 errors, 1 warning)

                Android (App Links): http://127.0.0.1:\(port)/.well-known/assetlinks.json
                  status 200, Content-Type: application/json, 818 bytes
                \(Self.androidHTTPWarning)
                  verdict: pass (1 warning)

                Result: iOS FAIL, Android pass

                """)
    }

    @Test func aWrongContentTypeFailsButTheBodyIsStillLinted() async throws {
        var html = try ServedFile.fixture("assetlinks.json")
        html.contentType = "text/html; charset=utf-8"
        let (output, _) = try await Self.doctor(
            aasa: .fixture("apple-app-site-association"), assetLinks: html,
            ["{base}/product/1", "--timeout", Self.patience])
        #expect(output.status == 1)
        #expect(
            output.stdout.contains(
                """
                  error hosting.content-type response.headers.Content-Type: Content-Type is text/html; \
                charset=utf-8; it must be application/json
                  apps verified to open the link: com.example.shop (if their intent filters take the path), once \
                the errors are fixed
                  verdict: FAIL (1 error, 1 warning)

                Result: iOS pass, Android FAIL
                """))
    }

    @Test func missingFilesFailBothPlatforms() async throws {
        var missing = ServedFile.text(#"{"error":"not found"}"#)
        missing.status = 404
        let (output, port) = try await Self.doctor(
            aasa: missing, assetLinks: missing, ["{base}", "--timeout", Self.patience])
        #expect(output.status == 1)
        #expect(
            output.stdout == """
                Checking http://127.0.0.1:\(port)
                \(Self.note)

                iOS (Universal Links): http://127.0.0.1:\(port)/.well-known/apple-app-site-association
                  status 404, Content-Type: application/json, 21 bytes
                \(Self.iosHTTPWarning)
                  error hosting.status response.status: status 404; the file must be served with status 200
                  file not checked: the body of a status 404 response is not the file
                  verdict: FAIL (1 error, 1 warning)

                Android (App Links): http://127.0.0.1:\(port)/.well-known/assetlinks.json
                  status 404, Content-Type: application/json, 21 bytes
                \(Self.androidHTTPWarning)
                  error hosting.status response.status: status 404; the file must be served with status 200
                  file not checked: the body of a status 404 response is not the file
                  verdict: FAIL (1 error, 1 warning)

                Result: iOS FAIL, Android FAIL

                """)
    }

    @Test func anOversizeAASAFileFails() async throws {
        let comment = String(repeating: "x", count: 135_000)
        let big = ServedFile.text(
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.shop"],"components":"#
                + #"[{"/":"/product/*","comment":""# + comment + #""}]}]}}"#)
        let (output, _) = try await Self.doctor(
            aasa: big, assetLinks: .fixture("assetlinks.json"), ["{base}", "--timeout", Self.patience])
        #expect(output.status == 1)
        #expect(
            output.stdout.contains(
                """
                  status 200, Content-Type: application/json, 135116 bytes
                \(Self.iosHTTPWarning)
                  error hosting.size response.body: the body is 135116 bytes; Apple reads at most 131072
                  verdict: FAIL (1 error, 1 warning)
                """))
    }

    @Test func invalidJSONFailsWithItsPosition() async throws {
        let (output, _) = try await Self.doctor(
            aasa: .text("{\"applinks\": {\"details\": [\n"), assetLinks: .fixture("aasa-not-json.json"),
            ["{base}/product/1", "--timeout", Self.patience])
        #expect(output.status == 1)
        #expect(
            output.stdout.contains(
                """
                  error aasa.invalid-json $: not valid JSON at line 2, column 1: the JSON text ends too early
                  who opens the link: unknown, there is no readable file
                  verdict: FAIL (1 error, 1 warning)
                """))
        #expect(
            output.stdout.contains(
                """
                  error assetlinks.invalid-json $: not valid JSON at line 3, column 18: a comma before '}': \
                remove the trailing comma
                """))
    }

    @Test func aSlowServerTimesOut() async throws {
        var slow = try ServedFile.fixture("apple-app-site-association")
        slow.delay = .seconds(4)
        let (output, port) = try await Self.doctor(
            aasa: slow, assetLinks: slow, ["{base}", "--timeout", "1"])
        #expect(output.status == 1)
        #expect(
            output.stdout == """
                Checking http://127.0.0.1:\(port)
                \(Self.note)

                iOS (Universal Links): http://127.0.0.1:\(port)/.well-known/apple-app-site-association
                  no response: timed out after 1 s
                  file not checked: there is no file to check
                  verdict: FAIL (no response)

                Android (App Links): http://127.0.0.1:\(port)/.well-known/assetlinks.json
                  no response: timed out after 1 s
                  file not checked: there is no file to check
                  verdict: FAIL (no response)

                Result: iOS FAIL, Android FAIL

                """)
    }

    @Test func aServerThatIsNotThereFails() async throws {
        var configuration = HTTPServer.Configuration()
        configuration.logger = .silent
        let server = HTTPServer(responder: HTTPRouter(logger: .silent), configuration: configuration)
        let port = try server.start(host: "127.0.0.1", port: 0)
        await server.stop(gracePeriod: .seconds(1))
        let output = try await Self.runDoctor(["http://127.0.0.1:\(port)", "--timeout", Self.patience])
        #expect(output.status == 1)
        #expect(
            output.stdout.contains(
                """
                  no response: could not connect to the server
                  file not checked: there is no file to check
                  verdict: FAIL (no response)
                """))
        #expect(output.stdout.hasSuffix("Result: iOS FAIL, Android FAIL\n"))
    }

    @Test(arguments: [
        (
            "not a domain",
            "error: 'not a domain' is neither a domain (example.com) nor a URL (https://example.com/path)\n"
        ),
        (
            "http://example.com/product/1",
            "error: 'http://example.com/product/1' is plain HTTP; iOS and Android fetch these files over HTTPS only "
                + "(http:// is accepted for 127.0.0.1 and localhost, for testing)\n"
        ),
    ])
    func anInputThatIsNeitherADomainNorAURLIsBadInput(input: String, message: String) async throws {
        let output = try await Self.runDoctor([input])
        #expect(output.status == 2)
        #expect(output.stdout == "")
        #expect(output.stderr == message)
    }

    @Test func wrongUsageShowsTheUsage() async throws {
        let missing = try await Self.runDoctor([])
        #expect(missing.status == 64)
        #expect(
            missing.stderr == """
                error: missing argument URL-OR-DOMAIN

                USAGE:
                  workbook doctor [--timeout SECONDS] <URL-OR-DOMAIN>

                See 'workbook doctor --help'.

                """)
        let unknown = try await Self.runDoctor(["--follow", "example.com"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("error: unknown option '--follow'\n"))
        let timeout = try await Self.runDoctor(["--timeout", "soon", "example.com"])
        #expect(timeout.status == 64)
        #expect(timeout.stderr.hasPrefix("error: --timeout needs a number of seconds between 0 and 600\n"))
    }

    @Test func helpSaysWhatTheDoctorChecks() async throws {
        let output = try await Self.runDoctor(["--help"])
        #expect(output.status == 0)
        #expect(
            output.stdout == """
                OVERVIEW: Check how a site serves its Universal Link and App Link files.

                \(doctorCommand.spec.discussion ?? "")

                USAGE:
                  workbook doctor [--timeout SECONDS] <URL-OR-DOMAIN>

                ARGUMENTS:
                  <URL-OR-DOMAIN>  A domain (example.com) or a link (https://example.com/product/42).

                OPTIONS:
                  --timeout SECONDS  Give up on each fetch after this long (default: 10).
                  -h, --help         Show this help.

                """)
        #expect(output.stdout.contains("following no redirect (a redirect is reported with its Location)"))
    }
}

struct CommandInputTests {
    @Test func aTrailingCommaIsNotValidJSONForTheCommands() {
        #expect(
            CommandInput.jsonProblem(Data("[1,]".utf8))
                == ":1:3: not valid JSON: a comma before ']': remove the trailing comma")
        #expect(CommandInput.jsonProblem(Data("[1]".utf8)) == nil)
    }
}
