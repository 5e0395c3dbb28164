import CommandLineKit
import DeepLinkCore
import Foundation
import HTTPCore
import MicroHTTPDServer
import TestSupport
import Testing

@testable import Doctor

// MARK: - The command against a real server on 127.0.0.1

/// What the test server answers for one well-known file.
struct ServedFile: Sendable {
    var status: Int = 200
    var contentType: String? = "application/json"
    var body: Data
    /// Answer with a 301 to this path on the same server instead.
    var redirectTo: String?
    /// Answer only once the doctor has finished (to exercise `--timeout`).
    var holdsItsAnswer = false

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
        // Held answers wait for the doctor to finish; the server's stop then waits for them.
        let finished = Mailbox<Bool>()
        for (path, file) in [(aasaPath, aasa), (assetLinksPath, assetLinks)] {
            router.get(path) { request, _ in
                if file.holdsItsAnswer {
                    _ = await finished.take()
                    finished.put(true)
                }
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
            finished.put(true)
            await server.stop(gracePeriod: .seconds(1))
            return (output, port)
        } catch {
            finished.put(true)
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
        slow.holdsItsAnswer = true
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

    /// The help's example report is what the report code prints for that example.
    @Test func theHelpShowsARealReport() async throws {
        func response(_ path: String, status: Int, contentType: String, body: String) -> FetchOutcome {
            .response(
                FetchedResponse(
                    url: URL(string: "https://example.com" + path)!, statusCode: status, location: nil,
                    contentType: contentType, body: Data(body.utf8)))
        }
        let aasa =
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.shop"],"components":[{"/":"/product/*"}]}]}}"#
        let report = DoctorReport(
            target: try DoctorTarget.parse("https://example.com/product/42"),
            aasa: response(Self.aasaPath, status: 200, contentType: "application/json", body: aasa),
            assetLinks: response(
                "/.well-known/assetlinks.json", status: 404, contentType: "text/html", body: "Not Found"))
        let indented = report.lines.map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
        let help = try await Self.runDoctor(["--help"]).stdout
        #expect(
            help.contains("  $ workbook doctor https://example.com/product/42\n" + indented), "\(indented)")
    }

    @Test func helpSaysWhatTheDoctorChecks() async throws {
        let output = try await Self.runDoctor(["--help"])
        #expect(output.status == 0)
        #expect(
            output.stdout.hasPrefix(
                "OVERVIEW: Check how a site serves its Universal Link and App Link files.\n\n"))
        let usage = try #require(output.stdout.range(of: "\nUSAGE:\n")).lowerBound
        #expect(
            output.stdout[usage...] == """

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
