import AttributionService
import Doctor
import Foundation
import HTTPCore
import MicroHTTPDServer
import MockServer
import MockServerTesting
import StrictJSON
import TestSupport
import Testing

@testable import Lab

/// The doctor route reaches out, so its rules are tested without a network: an injected
/// resolver and fetcher, and local test servers on loopback. No test resolves a public name.
struct LabDoctorTests {
    @Test(arguments: [
        ("127.0.0.1", AddressKind.loopback), ("127.255.0.9", .loopback), ("::1", .loopback),
        ("10.1.2.3", .private), ("172.16.0.1", .private), ("172.31.255.255", .private),
        ("192.168.1.1", .private),
        ("100.64.0.1", .private), ("fd00::1", .private), ("fc12::1", .private),
        ("169.254.169.254", .linkLocal), ("fe80::1", .linkLocal),
        ("224.0.0.1", .multicast), ("ff02::1", .multicast),
        ("0.0.0.0", .unspecified), ("::", .unspecified), ("240.0.0.1", .reserved),
        ("255.255.255.255", .reserved),
        ("::ffff:127.0.0.1", .loopback), ("::ffff:192.168.0.1", .private), ("[::1]", .loopback),
        ("93.184.216.34", .public), ("172.32.0.1", .public), ("2606:2800:220:1::1", .public),
    ])
    func everyAddressHasItsKind(_ address: String, _ kind: AddressKind) {
        #expect(AddressKind.of(address) == kind)
    }

    @Test func aNameIsNoAddress() {
        #expect(AddressKind.of("example.com") == nil)
    }

    /// A network that knows a few names and answers every fetch from a table, recording where
    /// it connected.
    final class FakeNetwork: @unchecked Sendable {
        let names: [String: [String]]
        let files: [String: FetchOutcome]
        private let lock = NSLock()
        private(set) var connections: [String] = []

        init(names: [String: [String]], files: [String: FetchOutcome] = [:]) {
            (self.names, self.files) = (names, files)
        }

        var network: LabNetwork {
            LabNetwork(
                resolve: { host in
                    self.names[host].map { .success($0) }
                        ?? .failure(LabResolveFailure(message: "the host name does not resolve"))
                },
                fetch: { url, address, _ in
                    self.lock.withLock { self.connections.append("\(url.absoluteString) @ \(address)") }
                    return self.files[url.absoluteString] ?? .failed("could not connect to the server")
                })
        }
    }

    static func ask(
        _ routes: LabRoutes, _ url: String, from client: String = "198.51.100.7", clock: ManualClock? = nil
    )
        async throws -> HTTPResponse
    {
        let clock = clock ?? ManualClock(start: TestServer.start)
        let service = AttributionService(
            configuration: TestServer.configuration.serviceConfiguration, links: InMemoryLinkStore([]),
            deferredRecords: InMemoryDeferredRecordStore(capacity: 10), clock: .manual(clock),
            tokens: .counting())
        let router = HTTPRouter(
            routes.routes(configuration: TestServer.configuration, service: service), logger: .silent)
        var request = post("/api/v1/lab/doctor", #"{"url": "\#(url)"}"#)
        request.remoteAddress = client
        return await router.respond(to: request)
    }

    static let lift =
        "; the lab fetches only from public addresses on port 443 (workbook serve --lab-fetch-private lifts "
        + "this for a local test server)"

    @Test(arguments: [
        ("https://loop.example/", "loop.example resolves to 127.0.0.1, which is a loopback address"),
        ("https://inside.example/", "inside.example resolves to 10.0.0.8, which is a private address"),
        (
            "https://metadata.example/",
            "metadata.example resolves to 169.254.169.254, which is a link-local address"
        ),
        ("https://group.example/", "group.example resolves to 224.0.0.251, which is a multicast address"),
        ("https://nothing.example/", "nothing.example resolves to 0.0.0.0, which is an unspecified address"),
        (
            "https://mapped.example/",
            "mapped.example resolves to ::ffff:192.168.1.9, which is a private address"
        ),
        // One private address among public ones is enough: the fetch could land on it.
        ("https://mixed.example/", "mixed.example resolves to 192.168.0.2, which is a private address"),
        ("http://127.0.0.1:8080/", "127.0.0.1 is a loopback address"),
        ("https://public.example:8443/", "port 8443 is not 443"),
    ])
    func aTargetOutsideThePublicInternetIsRefusedBeforeAnyFetch(_ url: String, _ reason: String) async throws
    {
        let fake = FakeNetwork(names: [
            "loop.example": ["127.0.0.1"], "inside.example": ["10.0.0.8"],
            "metadata.example": ["169.254.169.254"],
            "group.example": ["224.0.0.251"], "nothing.example": ["0.0.0.0"],
            "mapped.example": ["::ffff:192.168.1.9"], "mixed.example": ["93.184.216.34", "192.168.0.2"],
            "public.example": ["93.184.216.34"],
        ])
        let response = try await Self.ask(LabRoutes(fetchRules: LabFetchRules(), network: fake.network), url)
        #expect(response.bodyText == errorResponse(403, "fetch_refused", reason + Self.lift).bodyText)
        #expect(response.status == .forbidden)
        #expect(fake.connections == [])
    }

    @Test func aPublicTargetIsFetchedFromTheAddressThatWasChecked() async throws {
        let aasa =
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.shop"], "components": [{"/": "/product/*"}]}]}}"#
        let fake = FakeNetwork(
            names: ["shop.example": ["93.184.216.34"]],
            files: [
                "https://shop.example/.well-known/apple-app-site-association": .response(
                    FetchedResponse(
                        url: URL(string: "https://shop.example/.well-known/apple-app-site-association")!,
                        statusCode: 200, location: nil, contentType: "application/json", body: Data(aasa.utf8)
                    ))
            ])
        let response = try await Self.ask(
            LabRoutes(fetchRules: LabFetchRules(), network: fake.network), "https://shop.example/product/42")
        #expect(response.status == .ok)
        #expect(
            fake.connections == [
                "https://shop.example/.well-known/apple-app-site-association @ 93.184.216.34",
                "https://shop.example/.well-known/assetlinks.json @ 93.184.216.34",
            ])
        let answer = try JSONValue(data: response.body)
        #expect(answer["ios"]?["apps"] == .array([.string("ABCDE12345.com.example.shop")]))
        #expect(answer["ios"]?["passed"] == .bool(true))
        #expect(answer["android"]?["answered"] == .bool(false))
        #expect(answer["android"]?["response"] == .string("no response: could not connect to the server"))
        #expect(answer["passed"] == .bool(false))
    }

    @Test func aNameThatDoesNotResolveIsAReportNotAHang() async throws {
        let fake = FakeNetwork(names: [:])
        let response = try await Self.ask(
            LabRoutes(fetchRules: LabFetchRules(), network: fake.network), "nowhere.example")
        #expect(response.status == .ok)
        let answer = try JSONValue(data: response.body)
        #expect(answer["ios"]?["response"] == .string("no response: the host name does not resolve"))
        #expect(answer["android"]?["response"] == .string("no response: the host name does not resolve"))
    }

    @Test func tenRequestsAMinuteFromOneAddress() async throws {
        let clock = ManualClock(start: TestServer.start)
        let routes = LabRoutes(fetchRules: LabFetchRules(), network: FakeNetwork(names: [:]).network)
        for _ in 1...10 {
            #expect(try await Self.ask(routes, "nowhere.example", clock: clock).status == .ok)
        }
        clock.advance(by: 15)
        let refused = try await Self.ask(routes, "nowhere.example", clock: clock)
        #expect(refused.status == HTTPStatus(429))
        #expect(refused.headers["Retry-After"] == "45")
        #expect(
            refused.bodyText
                == errorResponse(
                    429, "too_many_requests",
                    "at most 10 doctor requests a minute from one address; try again in 45 s"
                ).bodyText)
        // Another address is not held back, and the first one is let in once the minute is over.
        #expect(
            try await Self.ask(routes, "nowhere.example", from: "203.0.113.9", clock: clock).status == .ok)
        clock.advance(by: 45)
        #expect(try await Self.ask(routes, "nowhere.example", clock: clock).status == .ok)
    }
}

/// The real fetcher (`curl`, pinned to the checked address) against local test servers, which
/// `--lab-fetch-private` allows. A fetch blocks its thread, so each runs off the cooperative
/// pool: on a 2-core machine the pool has two threads, and the servers under test need them.
@Suite(.serialized) struct LabFetcherTests {
    struct Files: HTTPResponder {
        let answers: @Sendable (HTTPRequest) async -> HTTPResponse
        func respond(to request: HTTPRequest) async -> HTTPResponse { await answers(request) }
    }

    /// Generous, so that a busy machine never fails a fetch that should succeed.
    static let rules = LabFetchRules(allowPrivate: true, timeout: 30)
    /// For the server that never answers: short, since the timeout is the answer.
    static let impatient = LabFetchRules(allowPrivate: true, timeout: 2)

    @Test func aRedirectIsReportedNotFollowed() async throws {
        try await withLiveServer(
            Files(answers: { _ in
                HTTPResponse(
                    status: HTTPStatus(301), headers: ["Location": "https://elsewhere.example/aasa"],
                    body: Data()
                )
            })
        ) { port in
            let url = URL(string: "http://127.0.0.1:\(port)/.well-known/apple-app-site-association")!
            let outcome = await offPool { CurlFetcher.fetch(url, address: "127.0.0.1", rules: Self.rules) }
            guard case .response(let response) = outcome else {
                Issue.record("no response: \(outcome)")
                return
            }
            #expect(response.statusCode == 301)
            #expect(response.location == "https://elsewhere.example/aasa")
        }
    }

    @Test func aFileOverTheLimitIsNotRead() async throws {
        let large = Data(repeating: 0x20, count: 300_000)
        try await withLiveServer(
            Files(answers: { _ in
                HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: large)
            })
        ) { port in
            let url = URL(string: "http://127.0.0.1:\(port)/.well-known/apple-app-site-association")!
            #expect(
                await offPool { CurlFetcher.fetch(url, address: "127.0.0.1", rules: Self.rules) }
                    == .failed("the file is larger than 131072 bytes, the most Apple reads; not read further")
            )
        }
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let release = Mailbox<Bool>()
        try await withLiveServer(
            Files(answers: { _ in
                _ = await release.take(timeout: .seconds(30))
                return HTTPResponse(status: .ok, headers: [:], body: Data())
            })
        ) { port in
            let url = URL(string: "http://127.0.0.1:\(port)/.well-known/assetlinks.json")!
            #expect(
                await offPool { CurlFetcher.fetch(url, address: "127.0.0.1", rules: Self.impatient) }
                    == .failed("timed out after 2.0 s"))
            release.put(true)
        }
    }

    @Test func theDoctorChecksALocalServerWhenAllowed() async throws {
        try await withLiveServer(
            Files(answers: { request in
                request.path.hasSuffix("apple-app-site-association")
                    ? HTTPResponse(
                        status: .ok, headers: ["Content-Type": "application/json"],
                        body: Data(#"{"applinks": {"details": []}}"#.utf8))
                    : HTTPResponse(status: .notFound, headers: [:], body: Data())
            })
        ) { port in
            let report = try await offPool {
                try Lab.doctor(url: "http://127.0.0.1:\(port)/", rules: Self.rules, network: .live)
            }
            #expect(report.ios.answered && report.android.answered)
            #expect(report.android.response.hasPrefix("status 404"))
        }
    }
}
