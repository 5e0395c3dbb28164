import CommandLineKit
import DeepLinkCore
import Foundation
import Testing

@testable import Doctor

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
            id: "bare-domain-means-https",
            source: "this book: workbook doctor takes a domain or a link, and a bare domain means https",
            input: "example.com",
            expected: ("https://example.com", nil)),
        Case(
            id: "host-is-lowercased", source: "RFC 3986 §3.2.2",
            input: "HTTPS://Example.COM", expected: ("https://example.com", nil)),
        Case(
            id: "path-makes-a-link",
            source: "this book: workbook doctor takes a domain or a link, and a bare domain means https",
            input: "https://example.com/product/42?ref=mail#top",
            expected: ("https://example.com", "https://example.com/product/42?ref=mail#top")),
        Case(
            id: "root-path-is-a-link",
            source: "this book: workbook doctor takes a domain or a link, and a bare domain means https",
            input: "https://example.com/",
            expected: ("https://example.com", "https://example.com/")),
        Case(
            id: "domain-with-path",
            source: "this book: workbook doctor takes a domain or a link, and a bare domain means https",
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
            id: "plain-http-elsewhere", source: "Apple: Supporting associated domains",
            input: "http://example.com", expected: nil),
        Case(
            id: "other-scheme",
            source: "this book: workbook doctor takes a domain or a link, and a bare domain means https",
            input: "ftp://example.com",
            expected: nil),
        Case(
            id: "words",
            source: "this book: workbook doctor takes a domain or a link, and a bare domain means https",
            input: "not a domain", expected: nil),
        Case(
            id: "single-label",
            source: "this book: workbook doctor takes a domain or a link, and a bare domain means https",
            input: "intranet", expected: nil),
        Case(id: "underscore", source: "RFC 1123 §2.1", input: "exa_mple.com", expected: nil),
        Case(id: "empty-label", source: "RFC 1123 §2.1", input: "example..com", expected: nil),
        Case(
            id: "scheme-only",
            source: "this book: workbook doctor takes a domain or a link, and a bare domain means https",
            input: "https://", expected: nil),
        Case(
            id: "empty",
            source: "this book: workbook doctor takes a domain or a link, and a bare domain means https",
            input: "", expected: nil),
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

    /// Android reads a list that assetlinks.json includes as part of it, so the doctor fetches it
    /// (one level) and checks it under the same hosting rules; its apps open the link too.
    @Test func anIncludedStatementListIsFetchedAndCheckedAsPartOfTheFile() {
        let file = #"[{"include": "https://cdn.example.com/statements.json"}]"#
        let includedURL = URL(string: "https://cdn.example.com/statements.json")!
        let assetLinks = Self.response("/.well-known/assetlinks.json", body: file)
        #expect(DoctorReport.includedURLs(assetLinks) == [includedURL])
        let included: FetchOutcome = .response(
            FetchedResponse(
                url: includedURL, statusCode: 200, contentType: "text/plain", body: Data(Self.assetLinks.utf8)
            ))
        let report = DoctorReport(
            target: Self.target,
            aasa: Self.response("/.well-known/apple-app-site-association", body: Self.aasa),
            assetLinks: assetLinks, included: [includedURL: included])
        #expect(report.android.openers == .apps(["com.example.shop"]))
        #expect(!report.passed, "the included list is served with the wrong content type")
        #expect(
            Array(report.lines.drop { !$0.hasPrefix("Android") }) == [
                "Android (App Links): https://example.com/.well-known/assetlinks.json",
                "  status 200, Content-Type: application/json, 56 bytes",
                "  no problems found",
                "  included: https://cdn.example.com/statements.json",
                "    status 200, Content-Type: text/plain, 259 bytes",
                "    error hosting.content-type response.headers.Content-Type: Content-Type is text/plain; it "
                    + "must be application/json",
                "  apps verified to open the link: com.example.shop (if their intent filters take the path), "
                    + "once the errors are fixed",
                "  verdict: FAIL (1 error)",
                "",
                "Result: iOS pass, Android FAIL",
            ])
    }

    /// An include that could not be fetched is no answer: the platform fails, saying why.
    @Test func anIncludeThatWasNotFetchedFailsTheCheck() {
        let file =
            #"[{"include": "https://cdn.example.com/statements.json"}, {"include": "ftp://x.example/a"}]"#
        let report = DoctorReport(
            target: Self.target,
            aasa: Self.response("/.well-known/apple-app-site-association", body: Self.aasa),
            assetLinks: Self.response("/.well-known/assetlinks.json", body: file))
        #expect(!report.android.passed)
        #expect(report.android.included.map(\.response) == ["no response: not fetched"])
        #expect(
            report.android.findings.map(\.description) == [
                "error assetlinks.include-url [1].include: \"ftp://x.example/a\" is not an https URL; an include "
                    + "names another statement list by its https address",
                "warning assetlinks.include-not-fetched [1].include: not fetched: the doctor follows up to 4 https "
                    + "includes",
            ])
    }

    @Test func onlyHandleAllURLsStatementsNameAndroidApps() throws {
        // Two apps; only the shop's statement hands it every URL.
        let file = """
            [{"relation":["delegate_permission/common.handle_all_urls","delegate_permission/common.get_login_creds"],\
            "target":{"namespace":"android_app","package_name":"com.example.shop","sha256_cert_fingerprints":[]}},\
            {"relation":["delegate_permission/common.get_login_creds"],\
            "target":{"namespace":"android_app","package_name":"com.example.wallet","sha256_cert_fingerprints":[]}}]
            """
        let statements = try AssetLinks.statements(from: Data(file.utf8))
        #expect(PlatformCheck.handlingPackages(statements) == ["com.example.shop"])
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
