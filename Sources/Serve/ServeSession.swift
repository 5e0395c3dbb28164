import CommandLineKit
import Dispatch
import Foundation
import HTTPCore
import LiveSite
import MockServer
import SDKReference
import Simulator

/// Runs the server until SIGINT or SIGTERM, then stops it gracefully.
package enum ServeSession {
    package static func run(
        _ options: MockServerRuntime.Options, site: LiveSiteBuilder.Settings? = nil,
        reference: ReferenceSession.Settings? = nil, console: Console
    ) -> ExitCode {
        // The server answers on threads of its own (libmicrohttpd's and its responders'); the main
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
package final class SignalWatcher: @unchecked Sendable {
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
