import AttributionService
import DeepLinkCore
import EventLog
import Foundation
import HTTPCore
import Lab
import MockServer
import MockServerTesting
import Simulator
import StrictJSON
import Testing

/// The repository root, found from this file's place in it.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let demoConfiguration = repositoryRoot.appendingPathComponent("config/demo.json")

struct BrokenConfiguration: CustomTestStringConvertible, Sendable {
    var id: String
    var change: @Sendable (inout ServerConfiguration) -> Void
    var message: String

    var testDescription: String { id }
}

let brokenConfigurations: [BrokenConfiguration] = [
    BrokenConfiguration(
        id: "keys-swapped", change: { $0.keys.publishable = "li2_sk_x12345" },
        message: "keys.publishable: a publishable key starts with li2_pk_"),
    BrokenConfiguration(
        id: "no-domain", change: { $0.linkDomains = [] },
        message: "linkDomains: at least one domain is required"),
    BrokenConfiguration(
        id: "bad-domain", change: { $0.linkDomains = ["https://go.example"] },
        message: "linkDomains[0]: 'https://go.example' is not a host name"),
    BrokenConfiguration(
        id: "team-id", change: { $0.ios?.teamID = "abcde12345" },
        message: "ios.teamID: a Team ID is 10 upper-case letters and digits"),
    BrokenConfiguration(
        id: "link-domain", change: { $0.links[0].domain = "other.example" },
        message: "links[0].domain: 'other.example' is not one of linkDomains"),
    BrokenConfiguration(
        id: "reserved-key", change: { $0.links[0].key = "healthz" },
        message: "links[0].key: key is reserved: healthz is a path of the server itself"),
    BrokenConfiguration(
        id: "twice", change: { $0.links[1].key = "summer" },
        message: "links[1]: go.example/summer appears twice"),
    BrokenConfiguration(
        id: "no-deferred-records", change: { $0.limits = .init(deferredRecords: 0) },
        message: "limits.deferredRecords: must be positive"),
    BrokenConfiguration(
        id: "currency", change: { $0.defaultCurrency = "dollars" },
        message: "defaultCurrency: 'dollars' is not a three-letter ISO 4217 code such as usd"),
    BrokenConfiguration(
        id: "negative-sessions-per-address", change: { $0.limits = .init(simulatorSessionsPerAddress: -1) },
        message: "limits.simulatorSessionsPerAddress: must be positive"),
]

struct ConfigurationTests {
    @Test func theShippedDemoLoadsWithEverythingTheQuickStartNeeds() throws {
        let configuration = try ServerConfiguration.load(from: demoConfiguration, environment: [:])
        #expect(configuration.linkDomains == ["go.example"])
        #expect(configuration.ios?.appID == "ABCDE12345.com.example.shop")
        #expect(configuration.ios?.appStoreID == "1234567890")
        #expect(configuration.android?.package == "com.example.shop")
        #expect(configuration.links.count >= 3)
        #expect(configuration.keys.publishable.hasPrefix("li2_pk_"))
        #expect(configuration.keys.secret.hasPrefix("li2_sk_"))
        _ = try WellKnownFiles(configuration: configuration)
    }

    /// A sale that names no currency gets the configured one, lowercase; without the setting, `usd`
    /// (Li2 uses the organisation's default, which the mock does not have).
    @Test func aSaleWithoutCurrencyGetsTheConfiguredDefault() throws {
        var configuration = try ServerConfiguration.load(from: demoConfiguration, environment: [:])
        #expect(configuration.defaultCurrency == "usd")
        configuration.defaultCurrency = "EUR"
        try configuration.validate()
        #expect(configuration.serviceConfiguration.defaultCurrency == "eur")
        configuration.defaultCurrency = nil
        #expect(configuration.serviceConfiguration.defaultCurrency == "usd")
        let sale = SaleRequest(clickId: "", externalId: "user_1", amount: 100)
        #expect(
            try ConversionRules.sale(sale, saleEventId: "sale_1", defaultCurrency: "vnd").currency == "vnd")
        #expect(try ConversionRules.sale(sale, saleEventId: "sale_1").currency == "usd")
    }

    /// The demo tracks conversions for the workspace and for every link but `press`, so that
    /// chapter 11 can show the 403 of a link whose tracking is off.
    @Test func conversionTrackingIsSwitchedOffPerWorkspaceOrPerLink() throws {
        let demo = try ServerConfiguration.load(from: demoConfiguration, environment: [:])
        #expect(demo.serviceConfiguration.conversionTracking)
        #expect(demo.serviceConfiguration.linksWithoutConversionTracking == ["link_press"])
        var off = demo
        off.conversionTracking = false
        #expect(off.serviceConfiguration.conversionTracking == false)
        let json =
            #"{"id":"l","domain":"go.example","key":"k","url":"https://a.example","conversionTracking":false}"#
        let link = try JSONDecoder().decode(ServerConfiguration.ConfiguredLink.self, from: Data(json.utf8))
        #expect(
            link
                == .init(
                    id: "l", domain: "go.example", key: "k", url: "https://a.example",
                    conversionTracking: false))
    }

    @Test func theEnvironmentReplacesTheKeys() throws {
        let configuration = try ServerConfiguration.load(
            from: demoConfiguration,
            environment: [
                "WORKBOOK_PUBLISHABLE_KEY": "li2_pk_from_env", "WORKBOOK_SECRET_KEY": "li2_sk_from_env",
            ])
        #expect(configuration.keys == .init(publishable: "li2_pk_from_env", secret: "li2_sk_from_env"))
    }

    @Test(arguments: brokenConfigurations)
    func anUnusableConfigurationIsRefusedWithItsField(_ broken: BrokenConfiguration) {
        var configuration = TestServer.configuration
        broken.change(&configuration)
        #expect(throws: ConfigurationError(file: nil, message: broken.message)) {
            try configuration.validate()
        }
    }

    @Test func aConfigurationFileErrorNamesTheFileAndTheField() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "config-\(UUID().uuidString).json")
        try Data(#"{"linkDomains": ["go.example"], "links": []}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: ConfigurationError(file: file.path, message: "keys: required")) {
            try ServerConfiguration.load(from: file, environment: [:])
        }
    }
}

struct WellKnownFileTests {
    @Test func theGeneratedFilesPassTheBooksLintersAndOpenOnlyShortLinks() throws {
        let files = try WellKnownFiles(configuration: TestServer.configuration)
        let aasa = try #require(files.appleAppSiteAssociation)
        let assetLinks = try #require(files.assetLinks)
        #expect(AASALinter.lint(aasa) == [])
        #expect(AssetLinksLinter.lint(assetLinks) == [])
        let matcher = AASAMatcher(try AASAFile.decode(aasa))
        let matches = { (path: String) in matcher.appIDs(opening: URL(string: "https://go.example\(path)")!) }
        #expect(matches("/summer") == ["ABCDE12345.com.example.shop"])
        #expect(matches("/api/v1/track/open") == [])
        #expect(matches("/healthz") == [])
    }

    @Test func theAssociationFileIsServedTheWayAppleFetchesIt() async throws {
        let app = try TestServer.makeApp()
        let response = await app.respond(to: get("/.well-known/apple-app-site-association"))
        let findings = AASAHostingCheck.check(
            HostedFileResponse(
                url: URL(string: "https://go.example/.well-known/apple-app-site-association")!,
                statusCode: response.status.code, location: response.headers["Location"],
                contentType: response.headers["Content-Type"], bodySize: response.body.count))
        #expect(findings == [])
    }

    @Test func withoutAnIOSAppThereIsNoAssociationFile() async throws {
        var configuration = TestServer.configuration
        configuration.ios = nil
        let app = try MockServerApp(
            configuration: configuration, eventStore: InMemoryEventStore(), logger: .silent)
        let response = await app.respond(to: get("/.well-known/apple-app-site-association"))
        #expect(response.status == .notFound)
    }

    @Test func aFingerprintTheLinterRejectsStopsTheServerFromStarting() {
        var configuration = TestServer.configuration
        configuration.android?.sha256CertFingerprints = ["not-a-fingerprint"]
        #expect(throws: WellKnownFilesError.self) { try WellKnownFiles(configuration: configuration) }
    }
}

struct OpenAPITests {
    /// The routes are the router's own, as `workbook serve --test-clock` has them: the API's,
    /// the test clock's, the simulator's and the lab's (which they hand to the router) and the
    /// short links'.
    @Test func theDocumentIsOpenAPI31AndDescribesExactlyTheRoutesTheRouterHas() throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: ServerResources.openAPIDocument) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var documented: Set<String> = []
        for (path, operations) in paths {
            for method in operations.keys where ["get", "post", "put", "patch", "delete"].contains(method) {
                documented.insert("\(method.uppercased()) \(path)")
            }
        }
        let app = try TestServer.makeApp(testClock: true, routeProviders: [SimulatorRoutes(), LabRoutes()])
        let routes = app.router.routes.map(\.description)
        #expect(routes.count == Set(routes).count, "a route is declared twice: \(routes)")
        #expect(documented == Set(routes))
    }

    @Test func everyReferenceInTheDocumentResolves() throws {
        let text = String(decoding: ServerResources.openAPIDocument, as: UTF8.self)
        let document = try #require(
            try JSONSerialization.jsonObject(with: ServerResources.openAPIDocument) as? [String: Any])
        let components = try #require(document["components"] as? [String: [String: Any]])
        var unresolved: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: ##""$ref": "#/components/"##) {
            let tail = rest[range.upperBound...]
            let name = tail.prefix { $0 != "\"" }
            let parts = name.split(separator: "/")
            if parts.count != 2 || components[String(parts[0])]?[String(parts[1])] == nil {
                unresolved.append(String(name))
            }
            rest = tail
        }
        #expect(unresolved == [])
    }

    /// OpenAPI descriptions and summaries are CommonMark, where `__identify__` or `li2_cid` outside
    /// a code span reads as emphasis (the API page once showed a bold "identify"): every `_` and
    /// `*` of a description must stand inside a code span.
    @Test func noDescriptionTurnsAnIdentifierIntoEmphasis() throws {
        let document = try JSONValue(data: ServerResources.openAPIDocument)
        var offenders: [String] = []
        func visit(_ value: JSONValue, _ path: String) {
            switch value {
            case .object(let members):
                for (name, member) in members {
                    if ["description", "summary"].contains(name), case .string(let text) = member {
                        let outside = text.split(separator: "`", omittingEmptySubsequences: false)
                            .enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element).joined()
                        if outside.contains("_") || outside.contains("*") {
                            offenders.append("\(path).\(name): \(text)")
                        }
                    }
                    visit(member, "\(path).\(name)")
                }
            case .array(let items):
                for (index, item) in items.enumerated() { visit(item, "\(path)[\(index)]") }
            default:
                break
            }
        }
        visit(document, "$")
        #expect(offenders.sorted() == [])
    }

    @Test func theEnumsAreTheServicesOwn() throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: ServerResources.openAPIDocument) as? [String: Any])
        let schemas = try #require(
            (document["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        #expect(schemas["MatchMethod"]?["enum"] as? [String] == MatchMethod.allCases.map(\.rawValue))
        #expect(schemas["MissReason"]?["enum"] as? [String] == MissReason.allCases.map(\.rawValue))
        #expect(schemas["Platform"]?["enum"] as? [String] == Platform.allCases.map(\.rawValue))
        #expect(schemas["Attribution"]?["enum"] as? [String] == Attribution.allCases.map(\.rawValue))
        let events = SimulatorEvent.allCases.map(\.rawValue)
        let eventType = (schemas["SimEventRequest"]?["properties"] as? [String: [String: Any]])?["type"]
        #expect(eventType?["enum"] as? [String] == events)
        let next = (schemas["SimSession"]?["properties"] as? [String: [String: Any]])?["next"]
        #expect((next?["items"] as? [String: Any])?["enum"] as? [String] == events)
    }

    /// Served, the document names what this server accepts: its link domains and short links.
    @Test func theServedDocumentNamesTheConfiguredDomainsAndLinks() throws {
        let served = try #require(
            try JSONSerialization.jsonObject(
                with: ServerResources.openAPIDocument(for: TestServer.configuration))
                as? [String: Any])
        let schemas = try #require(
            (served["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        let domain = try #require(
            (schemas["CreateLinkRequest"]?["properties"] as? [String: [String: Any]])?["domain"]?["pattern"]
                as? String)
        let link = try #require(
            (schemas["SimSessionRequest"]?["properties"] as? [String: [String: Any]])?["link"]?["pattern"]
                as? String)
        #expect(domain == #"^(?:[Gg][Oo]\.[Ee][Xx][Aa][Mm][Pp][Ll][Ee])$"#)
        let cases: [(pattern: String, text: String, matches: Bool)] = [
            (domain, "go.example", true), (domain, "GO.Example", true), (domain, "go.example.evil", false),
            (domain, "goXexample", false), (domain, "other.example", false),
            (link, "https://go.example/summer", true), (link, "HTTPS://GO.EXAMPLE/Summer", true),
            (link, "https://go.example/winter", true), (link, "https://go.example/autumn", false),
            (link, " https://go.example/summer", false),
        ]
        for testCase in cases {
            let expression = try NSRegularExpression(pattern: testCase.pattern)
            let range = NSRange(testCase.text.startIndex..., in: testCase.text)
            #expect(
                (expression.firstMatch(in: testCase.text, range: range) != nil) == testCase.matches,
                "\(testCase.text)")
        }
        // Everything else is the shipped document.
        var shipped = try #require(
            try JSONSerialization.jsonObject(with: ServerResources.openAPIDocument) as? [String: Any])
        shipped["components"] = nil
        var rest = served
        rest["components"] = nil
        #expect(NSDictionary(dictionary: rest).isEqual(to: shipped))
    }
}
