import Foundation
import HTTPCore
import MockServer
import MockServerTesting
import TestSupport
import Testing

/// What `workbook reference` writes, in small: DocC's static hosting layout, a folder with an
/// `index.html` per page path beside the `css/`, `js/` and `data/` folders the pages load.
private let referenceFiles = [
    "index.html": "<p>docc app</p>",
    "documentation/index.html": "<p>landing</p>",
    "documentation/li2sdk/index.html": "<p>Li2SDK</p>",
    "documentation/li2sdk/li2deeplinkresolver/index.html": "<p>resolver</p>",
    "documentation/deeplinkcore/index.html": "<p>DeepLinkCore</p>",
    "css/index.12ab.css": "body{}",
    "js/index.34cd.js": "1;",
    "data/documentation/li2sdk.json": "{}",
    "favicon.svg": "<svg/>",
    ".workbook-reference": "written by workbook reference",
]

private func responder(_ live: LiveSite) throws -> LiveSiteResponder {
    LiveSiteResponder(
        api: try TestServer.makeApp(), site: live,
        configuration: LiveConfiguration(
            publishableKey: TestServer.publishableKey, linkDomain: "go.example", testClock: false,
            version: "9.9.9"))
}

private func get(_ target: String, from responder: LiveSiteResponder) async -> HTTPResponse {
    await responder.respond(to: HTTPRequest(method: .get, target: target))
}

@Suite("The SDK reference beside the site")
struct LiveReferenceTests {
    struct PathCase: Sendable, CustomTestStringConvertible {
        var id: String
        var source: String
        var target: String
        var status: Int
        /// The `Location` of a redirect, or the `Content-Type` of a file.
        var header: String?
        var body: String?
        var testDescription: String { id }
    }

    static let pathCases: [PathCase] = [
        .init(
            id: "module-page", source: "this book: the live site serves the API reference under /reference",
            target: "/reference/documentation/li2sdk/", status: 200, header: "text/html; charset=utf-8",
            body: "<p>Li2SDK</p>"),
        .init(
            id: "second-module", source: "this book: the live site serves the API reference under /reference",
            target: "/reference/documentation/deeplinkcore/", status: 200, header: "text/html; charset=utf-8",
            body: "<p>DeepLinkCore</p>"),
        .init(
            id: "symbol-page", source: "Apple: WWDC21 Host and automate your DocC documentation",
            target: "/reference/documentation/li2sdk/li2deeplinkresolver/", status: 200,
            header: "text/html; charset=utf-8", body: "<p>resolver</p>"),
        .init(
            id: "page-without-slash",
            source: "this book: the live site serves the built folder as a static web server does",
            target: "/reference/documentation/li2sdk", status: 301, header: "/reference/documentation/li2sdk/"
        ),
        .init(
            id: "css", source: "Apple: WWDC21 Host and automate your DocC documentation",
            target: "/reference/css/index.12ab.css", status: 200, header: "text/css; charset=utf-8",
            body: "body{}"),
        .init(
            id: "js", source: "Apple: WWDC21 Host and automate your DocC documentation",
            target: "/reference/js/index.34cd.js", status: 200,
            header: "text/javascript; charset=utf-8", body: "1;"),
        .init(
            id: "data", source: "Apple: WWDC21 Host and automate your DocC documentation",
            target: "/reference/data/documentation/li2sdk.json", status: 200, header: "application/json",
            body: "{}"),
        .init(
            id: "mount", source: "this book: the live site serves the API reference under /reference",
            target: "/reference",
            status: 302, header: "/reference/documentation/"),
        .init(
            id: "mount-slash", source: "this book: the live site serves the API reference under /reference",
            target: "/reference/", status: 302, header: "/reference/documentation/"),
        .init(
            id: "marker", source: "this book: the live site serves only visible files inside its folder",
            target: "/reference/.workbook-reference", status: 404),
        .init(
            id: "escape", source: "this book: the live site serves only visible files inside its folder",
            target: "/reference/%2e%2e/index.html", status: 404),
        .init(
            id: "missing",
            source: "this book: the live site serves the built folder as a static web server does",
            target: "/reference/documentation/nothing/",
            status: 404),
    ]

    @Test(arguments: pathCases)
    func aBuiltReferenceIsServedAsDocCStaticHostingExpects(_ pathCase: PathCase) async throws {
        let folder = try SiteFolder(files: referenceFiles)
        let live = LiveSite()
        live.reference.buildSucceeded(folder: folder.url)
        let response = await get(pathCase.target, from: try responder(live))
        #expect(response.status.code == pathCase.status)
        if pathCase.status == 301 || pathCase.status == 302 {
            #expect(response.headers["Location"] == pathCase.header)
        } else if let type = pathCase.header {
            #expect(response.headers["Content-Type"] == type)
        }
        if let body = pathCase.body { #expect(response.bodyText == body) }
    }

    @Test func theReferenceAnswersWhatItsBuildIsDoing() async throws {
        let live = LiveSite(words: .repository)
        let responder = try responder(live)
        let notBuilt = await get("/reference/documentation/li2sdk/", from: responder)
        #expect(notBuilt.status == .notFound)
        #expect(notBuilt.bodyText.contains("<code>./wb serve</code> builds it"))

        live.reference.buildStarted()
        let building = await get("/reference/documentation/li2sdk/", from: responder)
        #expect(building.status == .serviceUnavailable)
        #expect(building.headers["Retry-After"] == "2")
        #expect(building.bodyText.contains("<title>Building the SDK reference...</title>"))
        #expect(building.bodyText.contains(#"<meta http-equiv="refresh" content="2">"#))

        live.reference.buildFailed(reason: "error: docc not found on PATH <or beside swift>")
        let failed = await get("/reference/", from: responder)
        #expect(failed.status == .internalServerError)
        #expect(failed.bodyText.contains("<pre>error: docc not found on PATH &lt;or beside swift&gt;</pre>"))
        #expect(failed.bodyText.contains(#"<p><a href="/">Back to the book</a></p>"#))
    }

    @Test func theReferenceIsServedWhileTheSiteIsStillBuildingAndOnlyUnderItsPath() async throws {
        let folder = try SiteFolder(files: referenceFiles)
        let live = LiveSite()
        live.reference.buildSucceeded(folder: folder.url)
        let responder = try responder(live)
        #expect(await get("/reference/documentation/li2sdk/", from: responder).status == .ok)
        // A path that only starts with the same letters is the site's, still building.
        #expect(await get("/references.html", from: responder) == StaticSite.building(live.words))
        #expect(await get("/", from: responder) == StaticSite.building(live.words))
    }

    @Test func overLoopbackTheRuntimeServesTheReferenceFolder() async throws {
        let data = try DataFolder()
        let folder = try SiteFolder(files: referenceFiles)
        var options = MockServerRuntime.Options(
            configuration: TestServer.configuration, dataDirectory: data.url)
        options.port = 0
        options.logger = .silent
        let live = LiveSite()
        options.liveSite = live
        let runtime = MockServerRuntime(options: options)
        let port = try RuntimeTests.port(of: try await runtime.start())

        func fetch(_ path: String) async throws -> String {
            let client = try RawClient(port: port, receiveTimeoutSeconds: 30)
            client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return await client.readAll()
        }
        live.reference.buildStarted()
        let building = try await fetch("/reference/documentation/li2sdk/")
        #expect(building.hasPrefix("HTTP/1.1 503"), "\(building.prefix(300))")

        live.reference.buildSucceeded(folder: folder.url)
        let page = try await fetch("/reference/documentation/li2sdk/")
        #expect(page.hasPrefix("HTTP/1.1 200"), "\(page.prefix(300))")
        #expect(page.contains("\r\nContent-Type: text/html; charset=utf-8\r\n"))
        #expect(page.hasSuffix("<p>Li2SDK</p>"))
        let landing = try await fetch("/reference/")
        #expect(landing.hasPrefix("HTTP/1.1 302"), "\(landing.prefix(300))")
        #expect(landing.contains("\r\nLocation: /reference/documentation/\r\n"))
        await runtime.stop(gracePeriod: .seconds(2))
    }
}
