import AttributionService
import EventLog
import Foundation
import HTTPCore
import MicroHTTPDServer
import SystemErrors

/// The running mock server: the event log under the data folder, the app, libmicrohttpd, and a
/// periodic purge of expired deferred records. `workbook serve` is a thin command around it.
///
/// ```swift
/// let runtime = MockServerRuntime(options: .init(configuration: configuration,
///                                                dataDirectory: URL(fileURLWithPath: ".workbook")))
/// let address = try await runtime.start()  // http://127.0.0.1:8080
/// …
/// await runtime.stop()  // requests in flight finish, events are flushed, the log is closed
/// ```
public final class MockServerRuntime: @unchecked Sendable {
    /// The port `workbook serve` listens on unless told otherwise: the one place it is declared.
    /// The console checker rewrites the addresses on it in the chapters' transcripts, which keep
    /// it written out for the reader to copy (a test holds them to this value).
    public static let defaultPort = 8080

    public struct Options: Sendable {
        public var host = "127.0.0.1"
        public var port = MockServerRuntime.defaultPort
        public var configuration: ServerConfiguration
        public var dataDirectory: URL
        /// Delete the data folder's contents first.
        public var reset = false
        public var tls: HTTPServer.TLSFiles?
        /// Run on a manual clock that `POST /api/v1/test/clock` advances.
        public var testClock = false
        /// Draw every token (click tokens, `clickId`s, link keys and ids) from a generator seeded
        /// with this value, so that a fixed sequence of calls gets the same answers on every run.
        /// For tests and the console checker only: seeded tokens are guessable.
        public var seed: UInt64?
        /// How often expired deferred records are forgotten.
        public var purgeInterval: Duration = .seconds(60)
        /// Receives one line per request, and the server's unexpected errors.
        public var logger: HTTPLogger = .standardError
        public var logRequests = true
        /// Serve the book's site beside the API (``LiveSiteResponder``); its builder reports
        /// to this value. Nil serves the API alone.
        public var liveSite: LiveSite?
        /// The workbook's version, as `GET /_workbook/config` reports it.
        public var version = "0.0.0"
        /// Seconds a connection has to deliver a request head (`serve --request-head-timeout`);
        /// nil: the HTTP server's default (10).
        public var requestHeadTimeoutSeconds: Double?
        /// Seconds every request body gets before its 1 s per 16 KiB (`serve
        /// --request-body-timeout`); nil: the HTTP server's default (30).
        public var requestBodyTimeoutSeconds: Double?
        /// Connections one client address may hold (`serve --max-connections-per-address`); nil:
        /// the configuration's `limits.connectionsPerIP`, else the HTTP server's default (64).
        public var maxConnectionsPerAddress: Int?
        /// Routes that modules above the server add (`workbook serve` adds the simulator's).
        public var routeProviders: [any RouteProvider] = []

        public init(configuration: ServerConfiguration, dataDirectory: URL) {
            (self.configuration, self.dataDirectory) = (configuration, dataDirectory)
        }
    }

    /// Why the server could not start.
    public enum StartError: Error, CustomStringConvertible {
        case dataDirectory(String)
        case eventLog(String)
        case configuration(WellKnownFilesError)
        case server(HTTPServerError)

        public var description: String {
            switch self {
            case .dataDirectory(let message): message
            case .eventLog(let message): "cannot open the event log: \(message)"
            case .configuration(let error): error.description
            case .server(let error): "cannot start the HTTP server: \(error)"
            }
        }
    }

    public let options: Options
    private let lock = NSLock()
    private var server: HTTPServer?
    private var store: SQLiteEventStore?
    private var purgeTask: Task<Void, Never>?
    private var clock: ManualClock?

    public init(options: Options) {
        self.options = options
    }

    /// The events file inside the data folder.
    public static let eventLogName = "events.sqlite"
    /// Every file the server keeps in the data folder (SQLite adds the WAL and its index).
    public static let dataFiles = [eventLogName, eventLogName + "-wal", eventLogName + "-shm"]

    /// Opens the log, builds the app and starts listening. Returns the base URL, with the
    /// bound port (useful with port 0).
    public func start() async throws(StartError) -> String {
        let directory = options.dataDirectory
        do {
            if options.reset {
                // Only the server's own files: a mistyped --data-dir must not empty a real folder.
                for name in Self.dataFiles
                where FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path) {
                    try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
                }
            }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .dataDirectory(
                "\(directory.path): cannot prepare the data folder (\(SystemError.describe(error)))")
        }
        let store: SQLiteEventStore
        do {
            store = try SQLiteEventStore(
                path: directory.appendingPathComponent(Self.eventLogName).path, durability: .powerLoss)
        } catch {
            throw .eventLog("\(error)")
        }
        let testClock = options.testClock ? ManualClock(start: Date()) : nil
        let app: MockServerApp
        do {
            app = try MockServerApp(
                configuration: options.configuration, eventStore: store, testClock: testClock,
                tokens: options.seed.map(TokenGenerator.seeded) ?? .random, logger: options.logger,
                routeProviders: options.routeProviders)
        } catch {
            await store.close()
            throw .configuration(error)
        }
        var configuration = HTTPServer.Configuration()
        // The app's limit, with the providers' overrides (the lab's larger bodies) in it.
        configuration.bodyLimit = app.bodyLimit
        configuration.logger = options.logger
        configuration.tls = options.tls
        if let limits = options.configuration.limits {
            if let value = limits.connections { configuration.connectionLimit = value }
            if let value = limits.connectionsPerIP { configuration.perIPConnectionLimit = value }
            if let value = limits.connectionTimeoutSeconds { configuration.connectionTimeoutSeconds = value }
        }
        if let value = options.maxConnectionsPerAddress { configuration.perIPConnectionLimit = value }
        if let value = options.requestHeadTimeoutSeconds { configuration.requestHeadTimeoutSeconds = value }
        if let value = options.requestBodyTimeoutSeconds { configuration.requestBodyTimeoutSeconds = value }
        var served: any HTTPResponder = app
        if let live = options.liveSite {
            served = LiveSiteResponder(
                api: app, site: live,
                configuration: LiveConfiguration(
                    publishableKey: options.configuration.keys.publishable,
                    linkDomain: options.configuration.linkDomains.first, testClock: options.testClock,
                    version: options.version),
                deferredRecordsEvicted: { await app.deferredRecordsEvicted() })
        }
        let responder: any HTTPResponder =
            options.logRequests ? served.wrapped(in: AccessLog(logger: options.logger)) : served
        let server = HTTPServer(responder: responder, configuration: configuration)
        let port: Int
        do {
            port = try server.start(host: options.host, port: options.port)
        } catch {
            await store.close()
            throw .server(error)
        }
        let service = app.service
        let interval = options.purgeInterval
        let purge = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { break }
                await service.purge()
                HeapTrim.releaseFreedMemory()
            }
        }
        lock.withLock {
            self.server = server
            self.store = store
            self.purgeTask = purge
            self.clock = testClock
        }
        return Self.baseURL(host: options.host, port: port, tls: options.tls != nil)
    }

    /// Stops gracefully: no new connections, requests in flight finish (their events are
    /// committed before they answer), then the event log is closed.
    public func stop(gracePeriod: Duration = .seconds(10)) async {
        let (server, store, purge) = lock.withLock {
            () -> (HTTPServer?, SQLiteEventStore?, Task<Void, Never>?) in
            defer {
                self.server = nil
                self.store = nil
                self.purgeTask = nil
            }
            return (self.server, self.store, self.purgeTask)
        }
        purge?.cancel()
        // Open event streams end first, so the stop waits only on real requests.
        options.liveSite?.close()
        await server?.stop(gracePeriod: gracePeriod)
        await store?.close()
    }

    /// `http://HOST:PORT`, with IPv6 addresses in brackets.
    public static func baseURL(host: String, port: Int, tls: Bool) -> String {
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(tls ? "https" : "http")://\(shown):\(port)"
    }
}

/// Writes one line per request: method, path, status and time taken.
struct AccessLog: HTTPMiddleware {
    let logger: HTTPLogger

    func respond(to request: HTTPRequest, next: any HTTPResponder) async -> HTTPResponse {
        let clock = ContinuousClock()
        let started = clock.now
        let response = await next.respond(to: request)
        let elapsed = clock.now - started
        // Tenths of a millisecond, formatted by hand: `String(format:)` is slow on Linux and
        // this runs for every request.
        let tenths =
            elapsed.components.seconds * 10_000 + elapsed.components.attoseconds / 100_000_000_000_000
        logger.write(
            "\(request.method) \(request.path) \(response.status.code) \(tenths / 10).\(tenths % 10) ms")
        return response
    }
}
