import AttributionService
import CommandLineKit
import Dispatch
import Foundation
import HTTPCore
import LiterateCLI
import MicroHTTPDServer
import MockServer
import Simulator

/// `workbook serve [--host ADDRESS] [--port PORT] [--config FILE] [--data-dir DIR] [--reset]
/// [--tls-cert FILE --tls-key FILE] [--test-clock] [--seed N] [--book DIR] [--no-site] [--reference]
/// [--request-head-timeout SECONDS] [--max-connections-per-address N]`
let serveCommand = Command(
    CommandSpec(
        name: "serve",
        abstract: "Run the mock attribution server the book teaches (chapter 8), with the book's site.",
        discussion: """
            Serves the attribution API on your machine: POST /api/v1/track/open, the conversion
            endpoints, link management, the short links with their interstitial page, and the
            apple-app-site-association and assetlinks.json files generated from the configured
            apps. Every answered call is stored as an event in DIR/events.sqlite before the answer
            leaves; GET /api/v1/events (with the secret key) reads them back.

            Beside the API it serves the book as a live site at / (open the address it prints).
            The site is built in the background into BOOK/.build/serve-site/ (never committed),
            so the server answers at once; until the first build is ready, pages answer
            "Building the site..." and refresh themselves. While it runs, a save in chapters/,
            exercises/ or site/ rebuilds the site and open pages reload; the snippet checks run
            after each rebuild and their findings appear in a banner at the top of the page.
            When a chapter's Swift changes, the page also says to run ./wb tangle and restart,
            because the running server cannot load new code. API routes always win over site
            files. The "Try it" panels of chapter 8 and the API reference send real requests to
            this server. The simulator page (simulator.html) plays a deferred deep link step by
            step with the real SDK running inside the server, through POST /api/v1/sim/sessions
            and POST /api/v1/sim/sessions/{id}/events (at most 64 sessions, each ending after
            15 idle minutes). --no-site serves the API alone; --book DIR serves another book folder.
            The live routes: GET /_workbook/status, /_workbook/config and /_workbook/events.

            --reference (./wb serve passes it) also builds the SDK's API reference once, in the
            background, with 'workbook reference' into BOOK/.build/reference (its output goes to
            BOOK/.build/reference.log), and serves it at /reference/: the SDK's pages at
            /reference/documentation/li2sdk/. Until it is ready, /reference/ answers a page saying
            it is being built. It is not rebuilt on save; restart the server for a new one.

            Once it accepts connections it prints one line 'listening on http://HOST:PORT', then
            the URLs to try and the keys in use. Ctrl-C (or SIGTERM) stops it gracefully: requests
            in flight finish and their events are on disk before it exits.

            The configuration (JSON) names the link domains, the iOS and Android apps, the links
            and the two keys; the repository ships config/demo.json. The environment variables
            WORKBOOK_PUBLISHABLE_KEY and WORKBOOK_SECRET_KEY, when set, replace the configured keys.

            --test-clock runs the service on a clock that only moves when you call
            POST /api/v1/test/clock {"advanceSeconds": N} with the secret key, so a test can let a
            deferred record expire without waiting. Without the flag that route does not exist.
            --seed N draws every token (click tokens, clickIds, link keys and ids) from a generator
            seeded with N, so that the same calls get the same answers on every run; the console
            checker of 'workbook check' uses it. Seeded tokens are guessable: tests only.

            Binding to an address other than 127.0.0.1 exposes the server, and the keys it prints,
            to your network: do it only on a network you trust (chapter 12 explains how to try
            Universal Links from a phone with --tls-cert and --tls-key).

            Slow clients: a connection must deliver each request head within
            --request-head-timeout seconds (10 by default) of its start or of its previous
            request's end, however slowly it trickles bytes; it is closed otherwise. One client
            address may hold at most --max-connections-per-address connections at once (64 by
            default; a load test from 127.0.0.1 with more connections must raise it); more are
            closed as they arrive.

            Exit status: 0 after a graceful stop, 1 when the server cannot start (the port is
            taken, the data folder cannot be written), 2 for an unusable configuration.

            Example:
              $ workbook serve --port 0
              listening on http://127.0.0.1:41873
              try:
                curl http://127.0.0.1:41873/healthz
                …
            """,
        options: [
            OptionSpec("host", value: "ADDRESS", help: "The numeric address to bind (default: 127.0.0.1)."),
            OptionSpec("port", value: "PORT", help: "The port (default: 8080); 0 picks a free one."),
            OptionSpec("config", value: "FILE", help: "The configuration (default: config/demo.json)."),
            OptionSpec("data-dir", value: "DIR", help: "Where the event log lives (default: .workbook)."),
            OptionSpec("reset", help: "Delete the stored events before starting."),
            OptionSpec("tls-cert", value: "FILE", help: "Serve HTTPS with this PEM certificate (chain)."),
            OptionSpec("tls-key", value: "FILE", help: "The PEM private key for --tls-cert."),
            OptionSpec(
                "test-clock", help: "Start on a manual clock and enable POST /api/v1/test/clock (tests only)."
            ),
            OptionSpec("seed", value: "N", help: "Draw tokens from a generator seeded with N (tests only)."),
            OptionSpec(
                "book", value: "DIR",
                help: "The book whose site to serve (default: the repository root, holding chapters/)."),
            OptionSpec("no-site", help: "Serve the API only: no site, no rebuilds."),
            OptionSpec(
                "reference",
                help: "Build the SDK's API reference once, in the background; serve it at /reference/."),
            OptionSpec(
                "request-head-timeout", value: "SECONDS",
                help: "Close a connection whose request head takes longer (default: 10)."),
            OptionSpec(
                "max-connections-per-address", value: "N",
                help: "Connections one client address may hold at once (default: 64)."),
        ])
) { arguments, console in
    var options = try ServeOptions.parse(arguments)
    let site = try ServeOptions.site(arguments, console: console)
    if site != nil {
        options.liveSite = LiveSite()
        options.version = workbookVersion
    }
    // The reference is served beside the site, so --no-site serves none.
    let reference = site.flatMap {
        arguments.flag("reference") ? ReferenceSession.Settings(bookRoot: $0.bookRoot) : nil
    }
    return ServeSession.run(options, site: site, reference: reference, console: console)
}

/// The command line turned into the runtime's options.
enum ServeOptions {
    static let command = ["workbook", "serve"]
    static let defaultConfiguration = "config/demo.json"
    static let defaultDataDirectory = ".workbook"

    static func parse(_ arguments: ParsedArguments) throws -> MockServerRuntime.Options {
        let port = try portNumber(arguments.value("port"))
        let certificate = arguments.value("tls-cert")
        let key = arguments.value("tls-key")
        guard (certificate == nil) == (key == nil) else {
            throw CommandError.usage("--tls-cert and --tls-key go together", command: command)
        }
        let path = arguments.value("config") ?? defaultConfiguration
        guard FileManager.default.fileExists(atPath: path) else {
            let hint =
                arguments.value("config") == nil ? " (run from the repository, or pass --config FILE)" : ""
            throw CommandError.badInput("no configuration file at \(path)\(hint)")
        }
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration.load(from: URL(fileURLWithPath: path))
        } catch {
            throw CommandError.badInput(error.description)
        }
        var options = MockServerRuntime.Options(
            configuration: configuration,
            dataDirectory: URL(fileURLWithPath: arguments.value("data-dir") ?? defaultDataDirectory))
        options.host = arguments.value("host") ?? "127.0.0.1"
        options.port = port
        options.reset = arguments.flag("reset")
        options.testClock = arguments.flag("test-clock")
        options.seed = try seed(arguments.value("seed"))
        options.requestHeadTimeoutSeconds = try headTimeout(arguments.value("request-head-timeout"))
        options.maxConnectionsPerAddress = try perAddressLimit(arguments.value("max-connections-per-address"))
        options.routeProviders = [SimulatorRoutes()]
        if let certificate, let key {
            options.tls = HTTPServer.TLSFiles(certificatePath: certificate, privateKeyPath: key)
        }
        return options
    }

    /// The live site's settings, or nil with `--no-site` (or when no book is found and none was
    /// asked for: the API is still served).
    static func site(_ arguments: ParsedArguments, console: Console) throws -> LiveSiteBuilder.Settings? {
        guard !arguments.flag("no-site") else { return nil }
        let root: URL
        do {
            root = try bookRoot(arguments)
        } catch {
            guard arguments.value("book") == nil else { throw error }
            console.error("no chapters/ folder here or above: serving the API only (pass --book DIR)")
            return nil
        }
        let theme = try themeFolder(arguments, root: root) { URL(fileURLWithPath: $0).standardizedFileURL }
        var settings = LiveSiteBuilder.Settings(
            bookRoot: root, themeFolder: theme,
            outputFolder: root.appendingPathComponent(".build/serve-site/\(getpid())"),
            checkers: { SnippetCheckers.all(book: root) })
        settings.log = { line in console.error(line) }
        return settings
    }

    static func seed(_ text: String?) throws -> UInt64? {
        guard let text else { return nil }
        guard let seed = UInt64(text) else {
            throw CommandError.usage("--seed needs a whole number from 0 to \(UInt64.max)", command: command)
        }
        return seed
    }

    static func headTimeout(_ text: String?) throws -> Double? {
        guard let text else { return nil }
        guard let seconds = Double(text), seconds.isFinite, (0.1...3_600).contains(seconds) else {
            throw CommandError.usage(
                "--request-head-timeout needs a number of seconds from 0.1 to 3600", command: command)
        }
        return seconds
    }

    static func perAddressLimit(_ text: String?) throws -> Int? {
        guard let text else { return nil }
        guard let limit = Int(text), (1...100_000).contains(limit) else {
            throw CommandError.usage(
                "--max-connections-per-address needs a whole number from 1 to 100000", command: command)
        }
        return limit
    }

    static func portNumber(_ text: String?) throws -> Int {
        guard let text else { return 8080 }
        guard let port = Int(text), (0...65_535).contains(port) else {
            throw CommandError.usage("--port needs a number from 0 to 65535", command: command)
        }
        return port
    }
}

/// Runs the server until SIGINT or SIGTERM, then stops it gracefully.
enum ServeSession {
    static func run(
        _ options: MockServerRuntime.Options, site: LiveSiteBuilder.Settings? = nil,
        reference: ReferenceSession.Settings? = nil, console: Console
    ) -> ExitCode {
        // The server's work runs on the cooperative pool and libmicrohttpd's threads; the main
        // thread turns its run loop meanwhile, so that the main actor (where the simulator's SDK
        // resolvers live, as in an app) is served.
        MainActorRunLoop.run { await serve(options, site: site, reference: reference, console: console) }
    }

    static func serve(
        _ options: MockServerRuntime.Options, site: LiveSiteBuilder.Settings? = nil,
        reference: ReferenceSession.Settings? = nil, console: Console
    ) async -> ExitCode {
        let signals = SignalWatcher(signals: [SIGINT, SIGTERM])
        var options = options
        options.logger = HTTPLogger { line in console.error(line) }
        let runtime = MockServerRuntime(options: options)
        let address: String
        do {
            address = try await runtime.start()
        } catch {
            console.error("error: \(error)")
            if case .configuration = error { return .badInput }
            return .failure
        }
        console.print("listening on \(address)")
        for line in greeting(address: address, options: options) { console.print(line) }
        let liveSite = LiveSiteSession.start(site, live: options.liveSite, console: console)
        if let site {
            console.print("site: \(address)/ (woven from \(site.bookRoot.path); rebuilt on every save)")
        }
        let referenceBuild = reference.flatMap { settings in
            options.liveSite.flatMap {
                ReferenceSession.start(settings, live: $0.reference, address: address, console: console)
            }
        }
        let received = await signals.next()
        console.error("received \(received == SIGINT ? "SIGINT" : "SIGTERM"): finishing requests in flight")
        liveSite?.stop()
        referenceBuild?.stop()
        await runtime.stop()
        console.error("stopped; the events are in \(options.dataDirectory.path)")
        return .success
    }

    /// The URLs to try and the keys in use, printed after the `listening on` line.
    static func greeting(address: String, options: MockServerRuntime.Options) -> [String] {
        let configuration = options.configuration
        var lines = ["try:", "  curl \(address)/healthz", "  curl \(address)/api/v1/openapi.json"]
        if configuration.ios != nil {
            lines.append("  curl \(address)/.well-known/apple-app-site-association")
        }
        if configuration.android != nil {
            lines.append("  curl \(address)/.well-known/assetlinks.json")
        }
        if let link = configuration.links.first?.link {
            lines.append("  open \(address)/l/\(link.domain)/\(link.key) in a browser (a short link)")
            lines.append(
                "  curl -X POST \(address)/api/v1/track/open -H 'X-Li2-Key: \(configuration.keys.publishable)' "
                    + "-H 'Content-Type: application/json' -d '{\"deepLink\": \"\(link.shortLink)\"}'")
        }
        lines += [
            "keys:",
            "  publishable \(configuration.keys.publishable)  (X-Li2-Key: tracking only)",
            "  secret      \(configuration.keys.secret)  (Authorization: Bearer: links, events)",
            "events: \(options.dataDirectory.appendingPathComponent(MockServerRuntime.eventLogName).path)",
        ]
        if options.testClock {
            lines.append("test clock: on (POST \(address)/api/v1/test/clock {\"advanceSeconds\": N})")
        }
        if let seed = options.seed {
            lines.append("seed: \(seed) (every token is predictable: never expose this server)")
        }
        return lines
    }
}

/// Turns SIGINT and SIGTERM into something a task can await. The default handlers would kill
/// the process at once; dispatch sources let the server finish what it started.
final class SignalWatcher: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []
    private let stream: AsyncStream<Int32>
    private let continuation: AsyncStream<Int32>.Continuation

    init(signals: [Int32]) {
        (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            let continuation = continuation
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
        continuation.finish()
    }

    /// Waits for the next signal.
    func next() async -> Int32 {
        for await number in stream { return number }
        return SIGTERM
    }
}
