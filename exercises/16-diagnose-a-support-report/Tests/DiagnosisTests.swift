import Foundation
import Testing

@testable import DiagnoseASupportReport

/// One report support might send, and the findings it must get.
struct ReportCase: CustomTestStringConvertible, Sendable {
    var id: String
    var source: String
    var report: SupportReport
    var expected: [Finding]
    var rule: String

    var testDescription: String { id }

    /// The demo shop's working set-up (chapter 11's sessions), changed by `edit`.
    init(
        id: String, source: String, expected: [Finding], rule: String,
        edit: (inout SupportReport) -> Void = { _ in }
    ) {
        var report = Healthy.report
        edit(&report)
        self.id = id
        self.source = source
        self.report = report
        self.expected = expected
        self.rule = rule
    }

    func check() {
        #expect(diagnose(report) == expected, "\(id): \(rule)")
    }
}

/// The working set-up every case starts from.
enum Healthy {
    static let appID = "ABCDE12345.com.example.shop"

    static func file(_ appIDs: [String]) -> Data {
        let list = appIDs.map { "\"\($0)\"" }.joined(separator: ",")
        return Data(#"{"applinks":{"details":[{"appIDs":[\#(list)],"components":[{"/":"/*"}]}]}}"#.utf8)
    }

    static let report = SupportReport(
        link: URL(string: "https://go.example/summer")!,
        build: AppBuild(
            teamID: "ABCDE12345", bundleID: "com.example.shop",
            associatedDomains: ["applinks:go.example", "webcredentials:shop.example"],
            publishableKey: "li2_pk_demo_4f7c2a9e1b", deepLinkDomains: ["go.example"],
            apiBaseURL: "https://api.li2.ai/api/v1"),
        associationFile: Fetch(
            status: 200, headers: ["Content-Type": "application/json"], body: file([appID])),
        cdnCopy: nil)
}

struct DiagnosisTests {
    static let appIDs: [ReportCase] = [
        ReportCase(
            id: "working", source: "this book: chapter 11, The Universal Link does not open the app",
            expected: [],
            rule: "a set-up with nothing wrong gets no finding"),
        ReportCase(
            id: "debug-bundle-id", source: "this book: chapter 11, A wrong Team ID or bundle ID",
            expected: [.appIDNotListed(appID: "ABCDE12345.com.example.shop.debug", listed: [Healthy.appID])],
            rule: "the app ID is TEAMID.bundleID of the build: a .debug suffix is another app"
        ) { $0.build.bundleID = "com.example.shop.debug" },
        ReportCase(
            id: "other-team", source: "this book: chapter 03, When the link opens Safari anyway",
            expected: [
                .appIDNotListed(
                    appID: Healthy.appID,
                    listed: ["FGHIJ67890.com.example.shop", "FGHIJ67890.com.example.kiosk"])
            ],
            rule:
                "a file written for another team's app does not name this build; list what it names, in file order"
        ) {
            $0.associationFile.body = Healthy.file([
                "FGHIJ67890.com.example.shop", "FGHIJ67890.com.example.kiosk",
            ])
        },
        ReportCase(
            id: "second-entry", source: "this book: chapter 03, The association file", expected: [],
            rule: "every entry of applinks.details counts, not only the first"
        ) {
            $0.associationFile.body = Data(
                #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.kiosk"],"components":[]},{"appIDs":["ABCDE12345.com.example.shop"],"components":[{"/":"/*"}]}]}}"#
                    .utf8)
        },
        ReportCase(
            id: "legacy-appid", source: "this book: chapter 03, The association file", expected: [],
            rule: "an older entry names its one app in appID"
        ) {
            $0.associationFile.body = Data(
                #"{"applinks":{"apps":[],"details":[{"appID":"ABCDE12345.com.example.shop","paths":["*"]}]}}"#
                    .utf8)
        },
        ReportCase(
            id: "not-json", source: "this book: chapter 03, Linting the file", expected: [.unreadableFile],
            rule: "a body that is not JSON cannot name any app"
        ) { $0.associationFile.body = Data("<html>Welcome</html>".utf8) },
        ReportCase(
            id: "no-applinks", source: "this book: chapter 03, The association file",
            expected: [.unreadableFile],
            rule: "without applinks.details the file says nothing about links"
        ) {
            $0.associationFile.body = Data(
                #"{"webcredentials":{"apps":["ABCDE12345.com.example.shop"]}}"#.utf8)
        },
    ]

    /// Read: chapters/11-troubleshooting.md#a-wrong-team-id-or-bundle-id
    @Test(arguments: appIDs)
    func theFileMustNameTheBuildsAppID(_ testCase: ReportCase) { testCase.check() }

    static let statuses: [ReportCase] = [
        ReportCase(
            id: "apex-to-www", source: "this book: chapter 11, A redirect",
            expected: [.redirect(to: "https://www.go.example/.well-known/apple-app-site-association")],
            rule: "a 3xx is a redirect, which Apple does not follow: name where it leads (its Location)"
        ) {
            $0.associationFile = Fetch(
                status: 301,
                headers: ["Location": "https://www.go.example/.well-known/apple-app-site-association"],
                body: Data("<html>Moved</html>".utf8))
        },
        ReportCase(
            id: "lower-case-location", source: "RFC 9110 §5.1",
            expected: [.redirect(to: "https://go.example/aasa.json")],
            rule: "header names compare without case: location is Location"
        ) { $0.associationFile = Fetch(status: 302, headers: ["location": "https://go.example/aasa.json"]) },
        ReportCase(
            id: "not-found", source: "this book: chapter 03, When the link opens Safari anyway",
            expected: [.fileNotServed(status: 404)],
            rule: "any status but 200 and a redirect means the file is not served"
        ) { $0.associationFile = Fetch(status: 404, headers: ["Content-Type": "text/html"]) },
    ]

    /// Read: chapters/11-troubleshooting.md#a-redirect
    @Test(arguments: statuses)
    func theFileMustBeServedWith200AndNoRedirect(_ testCase: ReportCase) { testCase.check() }

    static let contentTypes: [ReportCase] = [
        ReportCase(
            id: "text-html", source: "this book: chapter 11, The wrong content type",
            expected: [.wrongContentType("text/html")],
            rule: "anything but application/json fails, even with a perfect body"
        ) { $0.associationFile.headers = ["Content-Type": "text/html"] },
        ReportCase(
            id: "none", source: "this book: chapter 03, Hosting the file", expected: [.wrongContentType("")],
            rule: "no Content-Type at all is not application/json"
        ) { $0.associationFile.headers = [:] },
        ReportCase(
            id: "charset", source: "this book: chapter 11, The wrong content type", expected: [],
            rule: "parameters such as ; charset=utf-8 do no harm, and header names compare without case"
        ) { $0.associationFile.headers = ["content-type": "application/json; charset=utf-8"] },
        ReportCase(
            id: "octet-stream-and-wrong-app", source: "this book: chapter 03, Hosting the file",
            expected: [
                .wrongContentType("application/octet-stream"),
                .appIDNotListed(appID: Healthy.appID, listed: ["ABCDE12345.com.example.app"]),
            ],
            rule: "a wrong content type does not stop you reading the body: report both"
        ) {
            $0.associationFile = Fetch(
                status: 200, headers: ["Content-Type": "application/octet-stream"],
                body: Healthy.file(["ABCDE12345.com.example.app"]))
        },
    ]

    /// Read: chapters/11-troubleshooting.md#the-wrong-content-type
    @Test(arguments: contentTypes)
    func theFileMustBeJSON(_ testCase: ReportCase) { testCase.check() }

    static let entitlements: [ReportCase] = [
        ReportCase(
            id: "only-www", source: "this book: chapter 03, The app's half: Associated Domains",
            expected: [.domainNotInEntitlement("go.example")],
            rule: "www.go.example and go.example are two domains: each needs its own applinks: entry"
        ) { $0.build.associatedDomains = ["applinks:www.go.example"] },
        ReportCase(
            id: "developer-mode", source: "this book: chapter 03, The app's half: Associated Domains",
            expected: [],
            rule: "a ?mode=developer suffix still claims the domain"
        ) { $0.build.associatedDomains = ["applinks:go.example?mode=developer"] },
        ReportCase(
            id: "webcredentials-only", source: "this book: chapter 03, The app's half: Associated Domains",
            expected: [.domainNotInEntitlement("go.example")],
            rule: "only applinks: entries claim a domain for links"
        ) { $0.build.associatedDomains = ["webcredentials:go.example"] },
        ReportCase(
            id: "wildcard-not-apex", source: "this book: chapter 03, The app's half: Associated Domains",
            expected: [.domainNotInEntitlement("go.example")],
            rule: "*.go.example covers every subdomain of go.example, not go.example itself"
        ) { $0.build.associatedDomains = ["applinks:*.go.example"] },
        ReportCase(
            id: "wildcard-subdomain", source: "this book: chapter 03, The app's half: Associated Domains",
            expected: [], rule: "*.go.example covers eu.go.example"
        ) {
            $0.link = URL(string: "https://eu.go.example/summer")!
            $0.build.associatedDomains = ["applinks:*.go.example"]
            $0.build.deepLinkDomains = ["eu.go.example"]
        },
    ]

    /// Read: chapters/03-universal-links.md#the-apps-half-associated-domains
    @Test(arguments: entitlements)
    func theEntitlementMustClaimTheLinksHost(_ testCase: ReportCase) { testCase.check() }

    static let cdnCopies: [ReportCase] = [
        ReportCase(
            id: "cdn-old-file", source: "this book: chapter 11, A stale copy in Apple's cache",
            expected: [.staleCDNCopy],
            rule: "your server's file is right, Apple's copy names another app: the CDN has not caught up"
        ) { $0.cdnCopy = Fetch(status: 200, body: Healthy.file(["ABCDE12345.com.example.old"])) },
        ReportCase(
            id: "cdn-has-nothing", source: "this book: chapter 11, A stale copy in Apple's cache",
            expected: [.staleCDNCopy],
            rule: "a new domain the CDN has not fetched yet: phones cannot get the file"
        ) { $0.cdnCopy = Fetch(status: 404) },
        ReportCase(
            id: "cdn-up-to-date", source: "this book: chapter 11, A stale copy in Apple's cache",
            expected: [],
            rule: "a CDN copy that names the app is fine"
        ) { $0.cdnCopy = Fetch(status: 200, body: Healthy.file([Healthy.appID])) },
        ReportCase(
            id: "server-wrong-too", source: "this book: chapter 11, A stale copy in Apple's cache",
            expected: [.appIDNotListed(appID: "ABCDE12345.com.example.shop.debug", listed: [Healthy.appID])],
            rule: "blame the CDN only when your own server's file is right"
        ) {
            $0.build.bundleID = "com.example.shop.debug"
            $0.cdnCopy = Fetch(status: 200, body: Healthy.file(["ABCDE12345.com.example.old"]))
        },
    ]

    /// Read: chapters/11-troubleshooting.md#a-stale-copy-in-apples-cache
    @Test(arguments: cdnCopies)
    func aStaleCDNCopyIsBlamedOnlyWhenTheServerIsRight(_ testCase: ReportCase) { testCase.check() }

    static let sdkDomains: [ReportCase] = [
        ReportCase(
            id: "sdk-lacks-host",
            source: "this book: chapter 11, The consent sheet shows again after a Universal Link",
            expected: [.domainNotInSDKConfig("go.example")],
            rule: "iOS opens the app, but the resolver ignores a host that is not in deepLinkDomains"
        ) { $0.build.deepLinkDomains = ["www.go.example"] }
    ]

    /// Read: chapters/11-troubleshooting.md#the-consent-sheet-shows-again-after-a-universal-link
    @Test(arguments: sdkDomains)
    func theSDKMustKnowTheLinkDomain(_ testCase: ReportCase) { testCase.check() }

    static let keys: [ReportCase] = [
        ReportCase(
            id: "empty-key", source: "this book: chapter 11, Every call fails with 401",
            expected: [.emptyKey],
            rule: "an empty publishable key: the build did not get it from its settings"
        ) { $0.build.publishableKey = "" },
        ReportCase(
            id: "secret-key", source: "this book: chapter 11, Every call fails with 401",
            expected: [.secretKeyInApp],
            rule: "a secret key (li2_sk_) in the app is refused, and leaked"
        ) { $0.build.publishableKey = "li2_sk_demo_8d3b6e0f5a" },
    ]

    /// Read: chapters/11-troubleshooting.md#every-call-fails-with-401
    @Test(arguments: keys)
    func theKeyMustBeAPublishableOne(_ testCase: ReportCase) { testCase.check() }

    static let apiRoots: [ReportCase] = [
        ReportCase(
            id: "no-version", source: "this book: chapter 11, Every call fails with 404",
            expected: [.apiRootWithoutVersion],
            rule: "the SDK appends /track/open to the root as it is: without /api/v1 every call is a 404"
        ) { $0.build.apiBaseURL = "https://api.li2.ai" },
        ReportCase(
            id: "trailing-slash", source: "this book: chapter 11, Every call fails with 404", expected: [],
            rule: "a trailing / does no harm: the SDK drops it"
        ) { $0.build.apiBaseURL = "https://api.li2.ai/api/v1/" },
    ]

    /// Read: chapters/11-troubleshooting.md#every-call-fails-with-404
    @Test(arguments: apiRoots)
    func theAPIRootMustEndInTheVersion(_ testCase: ReportCase) { testCase.check() }

    /// Read: chapters/11-troubleshooting.md#the-universal-link-does-not-open-the-app
    @Test func findingsComeInTheOrderATapMeetsThem() {
        ReportCase(
            id: "everything-wrong", source: "this book: chapter 11, The Universal Link does not open the app",
            expected: [
                .domainNotInEntitlement("go.example"),
                .redirect(to: "https://www.go.example/.well-known/apple-app-site-association"),
                .domainNotInSDKConfig("go.example"), .secretKeyInApp, .apiRootWithoutVersion,
            ],
            rule: """
                report every finding, iOS's side first (entitlement, hosting, file, CDN), then the app's \
                (deepLinkDomains, key, API root)
                """
        ) {
            $0.build.associatedDomains = ["applinks:www.go.example"]
            $0.associationFile = Fetch(
                status: 301,
                headers: ["Location": "https://www.go.example/.well-known/apple-app-site-association"])
            $0.build.deepLinkDomains = ["www.go.example"]
            $0.build.publishableKey = "li2_sk_demo_8d3b6e0f5a"
            $0.build.apiBaseURL = "https://api.li2.ai/"
        }.check()
    }
}
