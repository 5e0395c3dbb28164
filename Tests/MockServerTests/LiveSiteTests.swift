import Foundation
import HTTPCore
import MockServer
import MockServerTesting
import Simulator
import TestSupport
import Testing

/// A built site on disk: a few files in a temporary folder, removed when the test ends.
final class SiteFolder {
    let url: URL

    init(files: [String: String] = SiteFolder.standardFiles) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("live-site-\(UUID().uuidString)")
            .resolvingSymlinksInPath()
        for (path, text) in files {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    static let standardFiles = [
        "index.html": "<p>home</p>",
        "404.html": "<p>not here</p>",
        "chapters/01-a.html": "<p>chapter</p>",
        "assets/theme.css": "body{}",
        "assets/site.js": "1;",
        "assets/icons/logo.svg": "<svg/>",
        "search-index.json": "[]",
        "exercises/index.html": "<p>exercises</p>",
        "healthz": "a site file that the API route shadows",
        ".workbook-site": "written by workbook build",
    ]
}

/// The responder `workbook serve` runs, with the test app as its API.
private func liveResponder(_ live: LiveSite, key: String = TestServer.publishableKey) throws
    -> LiveSiteResponder
{
    LiveSiteResponder(
        api: try TestServer.makeApp(), site: live,
        configuration: LiveConfiguration(
            publishableKey: key, linkDomain: "go.example", testClock: false, version: "9.9.9"))
}

private func get(_ target: String, method: HTTPMethod = .get, from responder: LiveSiteResponder) async
    -> HTTPResponse
{
    await responder.respond(to: HTTPRequest(method: method, target: target))
}

@Suite("The live site beside the API")
struct LiveSiteTests {
    struct FileCase: Sendable, CustomTestStringConvertible {
        var id: String
        var source: String
        var target: String
        var status: Int
        var contentType: String?
        var body: String
        var testDescription: String { id }
    }

    static let fileCases: [FileCase] = [
        .init(
            id: "root-index",
            source: "this book: the live site serves the built folder as a static web server does",
            target: "/",
            status: 200,
            contentType: "text/html; charset=utf-8", body: "<p>home</p>"),
        .init(
            id: "page",
            source: "this book: the live site serves the built folder as a static web server does",
            target: "/chapters/01-a.html", status: 200,
            contentType: "text/html; charset=utf-8", body: "<p>chapter</p>"),
        .init(
            id: "css", source: "this book: the live site serves the built folder as a static web server does",
            target: "/assets/theme.css",
            status: 200,
            contentType: "text/css; charset=utf-8", body: "body{}"),
        .init(
            id: "js", source: "this book: the live site serves the built folder as a static web server does",
            target: "/assets/site.js", status: 200,
            contentType: "text/javascript; charset=utf-8", body: "1;"),
        .init(
            id: "svg", source: "this book: the live site serves the built folder as a static web server does",
            target: "/assets/icons/logo.svg", status: 200,
            contentType: "image/svg+xml", body: "<svg/>"),
        .init(
            id: "json",
            source: "this book: the live site serves the built folder as a static web server does",
            target: "/search-index.json", status: 200,
            contentType: "application/json", body: "[]"),
        .init(
            id: "folder-with-slash",
            source: "this book: the live site serves the built folder as a static web server does",
            target: "/exercises/", status: 200,
            contentType: "text/html; charset=utf-8", body: "<p>exercises</p>"),
        .init(
            id: "unknown-path",
            source: "this book: the live site serves the built folder as a static web server does",
            target: "/chapters/99-none.html",
            status: 404, contentType: "text/html; charset=utf-8", body: "<p>not here</p>"),
        .init(
            id: "dot-dot", source: "this book: the live site serves only visible files inside its folder",
            target: "/../etc/passwd",
            status: 404,
            contentType: "text/html; charset=utf-8", body: "<p>not here</p>"),
        .init(
            id: "encoded-dot-dot",
            source: "this book: the live site serves only visible files inside its folder",
            target: "/%2e%2e/%2e%2e/etc/passwd",
            status: 404, contentType: "text/html; charset=utf-8", body: "<p>not here</p>"),
        .init(
            id: "encoded-slash",
            source: "this book: the live site serves only visible files inside its folder",
            target: "/chapters/..%2F..%2Fetc%2Fpasswd",
            status: 404, contentType: "text/html; charset=utf-8", body: "<p>not here</p>"),
        .init(
            id: "hidden-file", source: "this book: the live site serves only visible files inside its folder",
            target: "/.workbook-site",
            status: 404, contentType: "text/html; charset=utf-8", body: "<p>not here</p>"),
    ]

    @Test(arguments: fileCases)
    func siteFilesAreServedWithTheirTypeAndNothingElseIs(_ fileCase: FileCase) async throws {
        let folder = try SiteFolder()
        let live = LiveSite()
        live.buildSucceeded(folder: folder.url, diagnostics: [])
        let response = await get(fileCase.target, from: try liveResponder(live))
        #expect(response.status.code == fileCase.status)
        #expect(response.headers["Content-Type"] == fileCase.contentType)
        #expect(response.bodyText == fileCase.body)
    }

    @Test func aFolderWithoutItsSlashRedirectsToIt() async throws {
        let folder = try SiteFolder()
        let live = LiveSite()
        live.buildSucceeded(folder: folder.url, diagnostics: [])
        let response = await get("/exercises", from: try liveResponder(live))
        #expect(
            response
                == HTTPResponse(
                    status: HTTPStatus(301),
                    headers: ["Location": "/exercises/", "Cache-Control": "no-cache"]))
    }

    /// A reference that starts with `//` names another host (source: "RFC 3986 §4.2").
    @Test(arguments: ["//exercises", "///exercises", "//exercises?x=1"])
    func aRedirectNeverLeadsToAnotherHost(_ target: String) async throws {
        let folder = try SiteFolder()
        let live = LiveSite()
        live.buildSucceeded(folder: folder.url, diagnostics: [])
        let response = await get(target, from: try liveResponder(live))
        #expect(
            response
                == HTTPResponse(
                    status: HTTPStatus(301),
                    headers: ["Location": "/exercises/", "Cache-Control": "no-cache"]))
    }

    @Test func apiRoutesKeepPriorityOverSiteFiles() async throws {
        let folder = try SiteFolder()
        let live = LiveSite()
        live.buildSucceeded(folder: folder.url, diagnostics: [])
        let responder = try liveResponder(live)
        #expect(await get("/healthz", from: responder).bodyText == #"{"status":"ok"}"#)
        // Only GET and HEAD reach the site; anything else gets the API's own answer.
        let post = await get("/chapters/01-a.html", method: .post, from: responder)
        #expect(post == HTTPError.notFound(path: "/chapters/01-a.html").response)
        // Under /api/ a missing route stays the API's JSON 404.
        let api = await get("/api/v1/nothing", from: responder)
        #expect(api == HTTPError.notFound(path: "/api/v1/nothing").response)
    }

    @Test func pagesAnswer503WithABuildingPageUntilTheFirstBuild() async throws {
        let live = LiveSite(words: .repository)
        let responder = try liveResponder(live)
        let page = await get("/", from: responder)
        #expect(page == StaticSite.building(live.words))
        #expect(page.bodyText.contains("<h1>Building the site...</h1>"))
        #expect(page.status == .serviceUnavailable)
        #expect(page.bodyText.contains(#"<meta http-equiv="refresh" content="1">"#))
        // The API answers at once, whatever the site is doing.
        #expect(await get("/healthz", from: responder).status == .ok)
    }

    @Test func configShowsThePublishableKeyTheServerUsesAndNeverTheSecret() async throws {
        let responder = try liveResponder(LiveSite(), key: "li2_pk_from_environment")
        let response = await get("/_workbook/config", from: responder)
        #expect(response.headers["Content-Type"] == HTTPResponse.jsonContentType)
        #expect(
            response.bodyText
                == #"{"apiBase":"/api/v1","linkDomain":"go.example","publishableKey":"li2_pk_from_environment","#
                + #""testClock":false,"version":"9.9.9"}"#)
        #expect(!response.bodyText.contains(TestServer.secretKey))
    }

    @Test func statusFollowsTheBuildsAndTheChecks() async throws {
        let folder = try SiteFolder()
        let live = LiveSite()
        let responder = try liveResponder(live)
        #expect(
            await get("/_workbook/status", from: responder).bodyText
                == #"{"deferredRecordsEvicted":0,"diagnostics":[],"generation":0,"restartNeeded":false,"#
                + #""restartReason":null,"state":"building"}"#)
        let finding = LiveStatus.Diagnostic(
            file: "chapters/08-x.md", line: 41, column: 5, severity: "error", message: "no chunk named 'x'")
        live.buildSucceeded(folder: folder.url, diagnostics: [])
        live.checksFinished(diagnostics: [finding], restartReason: "Run ./wb tangle.")
        #expect(
            live.status
                == LiveStatus(
                    generation: 1, state: .ready, diagnostics: [finding], restartNeeded: true,
                    restartReason: "Run ./wb tangle."))
        #expect(
            await get("/_workbook/status", from: responder).bodyText
                == #"{"deferredRecordsEvicted":0,"#
                + #""diagnostics":[{"column":5,"file":"chapters/08-x.md","line":41,"message":"no chunk named 'x'","#
                + #""severity":"error"}],"generation":1,"restartNeeded":true,"restartReason":"Run ./wb tangle.","#
                + #""state":"ready"}"#)
        live.buildFailed(diagnostics: [])
        #expect(live.status.state == .failed)
        #expect(live.status.generation == 1)
        #expect(live.siteFolder == folder.url)
    }

    /// The checks read the chapters the build read, so both may find the same thing: the banner
    /// lists it once, in the build's place.
    @Test func aFindingOfBothTheBuildAndTheChecksIsListedOnce() throws {
        let folder = try SiteFolder()
        let live = LiveSite()
        let unlisted = LiveStatus.Diagnostic(
            file: "chapters/SUMMARY.md", line: 10, column: 1, severity: "error",
            message: "chapters/03-x.md is not listed")
        let drift = LiveStatus.Diagnostic(
            file: "chapters/02-y.md", line: 17, column: 1, severity: "warning",
            message: "chunk 'z' is never used")
        live.buildSucceeded(folder: folder.url, diagnostics: [])
        live.buildFailed(diagnostics: [unlisted])
        live.checksFinished(diagnostics: [drift, unlisted], restartReason: nil)
        #expect(live.status.diagnostics == [unlisted, drift])
    }

    @Test func liveRoutesTakeOnlyGetAndHead() async throws {
        let response = await get("/_workbook/status", method: .post, from: try liveResponder(LiveSite()))
        #expect(response == HTTPError.methodNotAllowed(.post, allowed: [.get, .head]).response)
    }

    @Test func aStreamStartsWithTheStatusThenCarriesReloadAndStatusEvents() async throws {
        let folder = try SiteFolder()
        let live = LiveSite()
        let response = await get("/_workbook/events", from: try liveResponder(live))
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "text/event-stream; charset=utf-8")
        let stream = try #require(response.stream)
        #expect(
            String(decoding: stream.takeBuffered(), as: UTF8.self)
                == "retry: 1000\n\nevent: status\ndata: "
                + #"{"diagnostics":[],"generation":0,"restartNeeded":false,"restartReason":null,"state":"building"}"#
                + "\n\n")
        live.buildSucceeded(folder: folder.url, diagnostics: [])
        #expect(
            String(decoding: stream.takeBuffered(), as: UTF8.self)
                == "event: reload\ndata: {\"generation\":1}\n\nevent: status\ndata: "
                + #"{"diagnostics":[],"generation":1,"restartNeeded":false,"restartReason":null,"state":"ready"}"#
                + "\n\n")
        // A report that changes nothing sends nothing; a heartbeat is a comment.
        live.checksFinished(diagnostics: [], restartReason: nil)
        live.sendHeartbeat()
        #expect(String(decoding: stream.takeBuffered(), as: UTF8.self) == ": heartbeat\n\n")
        live.close()
        #expect(stream.isClosed)
    }

    @Test func aStreamBeyondTheCapReplacesTheOldestWhichIsToldSo() async throws {
        let live = LiveSite(streamLimit: 2)
        let responder = try liveResponder(live)
        let first = try #require(await get("/_workbook/events", from: responder).stream)
        let second = try #require(await get("/_workbook/events", from: responder).stream)
        _ = first.takeBuffered()
        _ = second.takeBuffered()
        let third = await get("/_workbook/events", from: responder)
        #expect(third.status == .ok)
        #expect(String(decoding: first.takeBuffered(), as: UTF8.self) == "event: replaced\ndata: {}\n\n")
        #expect(first.isClosed)
        #expect(!second.isClosed)
        #expect(live.openStreams == 2)
        live.sendHeartbeat()
        #expect(String(decoding: second.takeBuffered(), as: UTF8.self) == ": heartbeat\n\n")
    }
}

extension LiveSiteTests {
    /// A HEAD gets the stream's headers with a stream already finished, and takes no place: with a
    /// cap of one, the page's own stream is neither replaced nor told so.
    @Test func aHeadOnTheEventsRouteOpensNoStreamAndReplacesNone() async throws {
        let live = LiveSite(streamLimit: 1)
        let responder = try liveResponder(live)
        let page = try #require(await get("/_workbook/events", from: responder).stream)
        _ = page.takeBuffered()
        let head = await get("/_workbook/events", method: .head, from: responder)
        #expect(head.status == .ok)
        #expect(
            head.headers
                == [
                    "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store",
                    "X-Accel-Buffering": "no",
                ])
        #expect(head.stream?.send("x") == false, "the HEAD's stream is finished")
        #expect(live.openStreams == 1)
        #expect(!page.isClosed)
        #expect(page.takeBuffered().isEmpty, "the page was not told it was replaced")
    }
}

/// The same, over loopback, as `workbook serve` runs it.
@Suite("The live site over loopback", .serialized)
struct LiveSiteLoopbackTests {
    /// Over loopback: visits past `limits.deferredRecords` evict the oldest record (counted in the
    /// status, and its token is unknown again), and one address holds at most
    /// `limits.simulatorSessionsPerAddress` sessions
    /// (source: "this book: chapter 12, What binding beyond localhost exposes").
    @Test func unauthenticatedClientsMeetTheirCaps() async throws {
        let data = try DataFolder()
        var configuration = TestServer.configuration
        configuration.limits = .init(deferredRecords: 2, simulatorSessionsPerAddress: 2)
        var options = MockServerRuntime.Options(configuration: configuration, dataDirectory: data.url)
        options.port = 0
        options.logger = .silent
        options.liveSite = LiveSite()
        options.routeProviders = [SimulatorRoutes()]
        let runtime = MockServerRuntime(options: options)
        let port = try RuntimeTests.port(of: try await runtime.start())

        func exchange(_ head: String, _ body: String = "") async throws -> String {
            let client = try RawClient(port: port, receiveTimeoutSeconds: 30)
            client.send(head + "Connection: close\r\n\r\n" + body)
            return await client.readAll()
        }
        var tokens: [String] = []
        for _ in 0..<3 {
            let page = try await exchange(
                "GET /summer HTTP/1.1\r\nHost: go.example\r\nUser-Agent: \(iPhoneSafari)\r\n")
            let token = try #require(page.firstMatch(of: /li2_cid=([A-Za-z0-9]{16})/)?.output.1)
            tokens.append(String(token))
        }
        let status = try await exchange("GET /_workbook/status HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        #expect(status.contains(#""deferredRecordsEvicted":1,"#), "\(status.suffix(300))")
        for (token, answer) in zip(tokens, [#""missReason":"unknown_click""#, #""matchMethod":"clipboard""#])
        {
            let body = #"{"deepLink":"https://go.example/summer?li2_cid=\#(token)","clipboardStatus":"read"}"#
            let open = try await exchange(
                "POST /api/v1/track/open HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Li2-Key: \(TestServer.publishableKey)\r\n"
                    + "Content-Type: application/json\r\nUser-Agent: \(iosApp)\r\nContent-Length: \(body.utf8.count)\r\n",
                body)
            #expect(open.contains(answer), "\(open.suffix(300))")
        }

        let create = #"{"platform":"ios"}"#
        let head =
            "POST /api/v1/sim/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(create.utf8.count)\r\n"
        var statuses: [String] = []
        for _ in 0..<3 {
            statuses.append(String(try await exchange(head, create).prefix(12)))
        }
        #expect(statuses == ["HTTP/1.1 201", "HTTP/1.1 201", "HTTP/1.1 429"])
        await runtime.stop(gracePeriod: .seconds(2))
    }

    /// The stop's grace period is an hour: a stop that waited for the open stream would fail the
    /// time limit.
    @Test(.timeLimit(.minutes(1))) func runtimeServesSiteConfigAndEventsBesideTheAPI() async throws {
        let data = try DataFolder()
        let site = try SiteFolder()
        var configuration = TestServer.configuration
        configuration.applyEnvironment([ServerConfiguration.publishableKeyVariable: "li2_pk_env_override"])
        var options = MockServerRuntime.Options(configuration: configuration, dataDirectory: data.url)
        options.port = 0
        options.logger = .silent
        options.version = "1.2.3"
        let live = LiveSite()
        options.liveSite = live
        let runtime = MockServerRuntime(options: options)
        let port = try RuntimeTests.port(of: try await runtime.start())

        // Generous timeouts: the answers come from tasks on the cooperative pool, which the rest
        // of the suite, running alongside on two cores, may keep busy for a while.
        let building = try RawClient(port: port, receiveTimeoutSeconds: 30)
        building.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let buildingText = await building.readAll()
        #expect(buildingText.hasPrefix("HTTP/1.1 503"), "\(buildingText.prefix(300))")

        live.buildSucceeded(folder: site.url, diagnostics: [])
        let page = try RawClient(port: port, receiveTimeoutSeconds: 30)
        page.send("GET /chapters/01-a.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let pageText = await page.readAll()
        #expect(pageText.hasPrefix("HTTP/1.1 200"))
        #expect(pageText.hasSuffix("<p>chapter</p>"))

        // RFC 3986 §4.2: `//exercises` must not redirect to the host "exercises".
        let slashes = try RawClient(port: port, receiveTimeoutSeconds: 30)
        slashes.send("GET //exercises HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let slashesText = await slashes.readAll()
        #expect(slashesText.hasPrefix("HTTP/1.1 301"), "\(slashesText.prefix(300))")
        #expect(slashesText.contains("\r\nLocation: /exercises/\r\n"), "\(slashesText.prefix(300))")

        let config = try RawClient(port: port, receiveTimeoutSeconds: 30)
        config.send("GET /_workbook/config HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(
            await config.readAll().hasSuffix(
                #"{"apiBase":"/api/v1","linkDomain":"go.example","publishableKey":"li2_pk_env_override","#
                    + #""testClock":false,"version":"1.2.3"}"#))

        // An open stream does not hold up the stop, and ends with the last chunk.
        let events = try RawClient(port: port)
        events.send("GET /_workbook/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(await eventually { live.openStreams == 1 })
        live.buildSucceeded(folder: site.url, diagnostics: [])
        await runtime.stop(gracePeriod: .seconds(3_600))
        let text = await events.readAll()
        #expect(text.contains("event: reload\ndata: {\"generation\":2}\n\n"))
        #expect(text.hasSuffix("0\r\n\r\n"))
    }
}

/// `workbook serve --book DIR` as a user runs it: the API at once, then the book, then a reload
/// after a save; SIGTERM stops it promptly with an event stream open.
@Suite("workbook serve with the site", .serialized)
struct ServeSiteProcessTests {
    @Test func serveAnswersAtOnceThenServesTheBookAndReloadsAfterASave() async throws {
        let served = try await ServedSmallBook.start()
        let (root, server) = (served.root, served.server)
        #expect(server.stdoutLines.contains { $0.hasPrefix("site: http://127.0.0.1:") })
        #expect(await rawGet("/healthz", port: server.port).hasPrefix("HTTP/1.1 200"))

        #expect(
            await eventually(timeout: .seconds(60)) {
                await rawGet("/_workbook/status", port: server.port).contains(#""state":"ready""#)
            })
        let home = await rawGet("/", port: server.port)
        #expect(home.hasPrefix("HTTP/1.1 200"))
        #expect(home.contains("<html"))

        let events = try RawClient(port: server.port, receiveTimeoutSeconds: 30)
        events.send("GET /_workbook/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(await events.read(until: "event: status").contains(#""generation":1"#))
        try Data("# Greeting, edited\n".utf8).write(
            to: root.appendingPathComponent("chapters/01-greeting.md"))
        #expect(await events.read(until: "event: reload").contains(#"event: reload"#))

        server.send(SIGTERM)
        let status = await server.exitStatus(seconds: 10)
        // Once seen non-zero under load and never reproduced: say how it ended if it happens again.
        #expect(status == 0, "\(String(describing: server.process.termination))")
        let folders = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent(".build/serve-site").path)
        #expect(folders.isEmpty)
    }
}

/// Chapters that once took the whole server down (a stack overflow 0.5 s after the save, then an
/// allocation of gigabytes) are diagnostics in the banner; the API and the site stay up.
@Suite("workbook serve and a hostile chapter", .serialized)
struct ServeHostileChapterTests {
    @Test func aChapterThatWouldExhaustTheTanglerIsABannerErrorAndTheServerStaysUp() async throws {
        let served = try await ServedSmallBook.start()
        let (root, server) = (served.root, served.server)
        let events = try RawClient(port: server.port, receiveTimeoutSeconds: 60)
        events.send("GET /_workbook/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(await events.read(until: #""state":"ready""#).contains(#""generation":1"#))

        let chapters: [(text: String, error: String)] = [
            (
                HostileBooks.deepNesting(levels: 20_000),
                "chunk nesting deeper than 1,000: c0 → c1 → … → c1000"
            ),
            (HostileBooks.fanOut(levels: 41), "⟨c0⟩ would expand to more than 50,000 lines"),
        ]
        for (text, error) in chapters {
            try Data(text.utf8).write(to: root.appendingPathComponent("chapters/03-hostile.md"))
            let status = await events.read(until: error, maxBytes: 1 << 22)
            #expect(status.contains(error), "the banner's status event names the error")
            #expect(await rawGet("/healthz", port: server.port).hasPrefix("HTTP/1.1 200"))
            #expect(await rawGet("/", port: server.port).hasPrefix("HTTP/1.1 200"))
        }
        #expect(
            await rawGet("/_workbook/status", port: server.port).contains(#""file":"chapters/03-hostile.md""#)
        )

        server.send(SIGTERM)
        #expect(await server.exitStatus(seconds: 10) == 0)
    }
}

/// The repository's small site fixture, copied to a folder of its own and served there by
/// `workbook serve` with the site; `prepare` may change the copy before the server starts.
struct ServedSmallBook {
    let folder: SiteFolder
    let data: DataFolder
    let server: ServeProcess
    var root: URL { folder.url.appendingPathComponent("book") }

    static func start(prepare: (URL) throws -> Void = { _ in }) async throws -> ServedSmallBook {
        let folder = try SiteFolder(files: [:])
        let root = folder.url.appendingPathComponent("book")
        try FileManager.default.copyItem(
            at: repositoryRoot.appendingPathComponent("Tests/WeaveTests/Fixtures/small-book"), to: root)
        try prepare(root)
        let data = try DataFolder()
        let server = try await ServeProcess.start(
            ["--port", "0", "--data-dir", data.url.path, "--book", root.path], site: true)
        return ServedSmallBook(folder: folder, data: data, server: server)
    }
}

/// One request on a fresh connection; the raw response.
private func rawGet(_ path: String, port: Int) async -> String {
    guard let client = try? RawClient(port: port, receiveTimeoutSeconds: 30) else { return "" }
    client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    return await client.readAll()
}
