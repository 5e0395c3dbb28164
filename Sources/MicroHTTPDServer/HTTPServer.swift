import CMicroHTTPD
import CMicroHTTPDShim
import Foundation
import HTTPCore

/// Why ``HTTPServer/start(host:port:)`` failed.
public enum HTTPServerError: Error, Equatable, Sendable {
    case alreadyRunning
    case tlsUnsupported
    case unreadableTLSFile(path: String)
    case cannotStart(String)
}

/// Serves an ``HTTPResponder`` over HTTP (or HTTPS) with libmicrohttpd.
///
/// This adapter is the only part of the server that touches sockets or a C library, and it
/// stays thin (it could be swapped for another engine): for every
/// request it gathers the method, path, query, headers, body and peer address into an
/// ``HTTPRequest``, hands it to the responder, and writes the ``HTTPResponse`` back. Routing,
/// CORS, errors and limits live in Swift values that tests call directly.
///
/// Threading: libmicrohttpd runs its own pool of threads (`epoll` on Linux). A request whose
/// body is complete is *suspended*, the responder runs in a Swift task, and the connection is
/// resumed with the response, so a slow handler never occupies a server thread and a slow client
/// (one sending half a request) never occupies one either. A response carrying an
/// ``HTTPStream`` (Server-Sent Events) is written chunk by chunk as the stream is sent to, its
/// connection suspended in between; ``stop(gracePeriod:)`` finishes every open stream first.
///
/// ```swift
/// let server = HTTPServer(responder: router)
/// let port = try server.start(host: "127.0.0.1", port: 0)  // 0: any free port
/// // … curl http://127.0.0.1:\(port)/health …
/// await server.stop()  // finishes requests in flight, then closes
/// ```
public final class HTTPServer: @unchecked Sendable {
    /// Limits and options of a server. The defaults suit a local mock server that one
    /// benchmark on the same machine may hit with a few hundred connections, and that slow
    /// clients from a few dozen addresses cannot fill.
    public struct Configuration: Sendable {
        /// Connections open at once, across all clients. At the cap libmicrohttpd stops
        /// accepting, so further connections wait in the kernel's queue until one closes. Each
        /// takes a file descriptor: ``HTTPServer/start(host:port:)`` raises the process's soft
        /// limit on them (up to the hard one) to fit, and lowers this cap if it cannot.
        public var connectionLimit: Int = 4096
        /// Connections open at once from one IP address; beyond it a new connection is closed
        /// at once. Far below ``connectionLimit``, so that slow clients from one address cannot
        /// take every connection; a load test from 127.0.0.1 that opens more must raise it.
        public var perIPConnectionLimit: Int = 64
        /// Seconds a connection may stay idle before it is closed. Every byte resets it.
        public var connectionTimeoutSeconds: Int = 30
        /// Seconds a connection may take to deliver a whole request head, counted from its start
        /// (and on a kept-alive connection from the end of the previous request), however it
        /// trickles; 0 turns the deadline off. See ``RequestDeadlines``.
        public var requestHeadTimeoutSeconds: Double = 10
        /// Seconds every request body gets, counted from the end of its head, however it
        /// trickles; 0 turns the deadline off. A body also gets one more second for every
        /// ``requestBodyBytesPerSecond`` it announces (or sends): 30 s and 16 KiB/s give a 64 KiB
        /// body 34 s. A late body is answered `408 request_timeout` (over plain HTTP) and its
        /// connection closed.
        public var requestBodyTimeoutSeconds: Double = 30
        /// The slowest average rate, in bytes per second, a body may arrive at past its base time.
        public var requestBodyBytesPerSecond: Int = 16 << 10
        /// The clock the deadlines read, in nanoseconds: the system's uptime clock unless a test
        /// passes one it moves itself (then calling ``HTTPServer/endLateRequests()``).
        public var deadlineClock: @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }
        /// The largest request target and header fields read (414 and 431 beyond them).
        public var headLimits = RequestHeadLimits()
        /// Bytes libmicrohttpd may use for one connection: the request head it reads (parsed in
        /// place), one record of about 56 bytes per header field and query item, and the response
        /// head. 2 MiB holds a head at ``headLimits`` made of the shortest possible fields (4,096
        /// query items and 8,192 header fields) with room to spare, so that such a request gets
        /// its 414 or 431 from this server. libmicrohttpd's default, 32 KiB, ran out at 476 query
        /// items and then answered nothing. Memory is taken as a connection uses it, not up front.
        public var connectionMemoryLimit: Int = 2 << 20
        /// libmicrohttpd worker threads.
        public var threadPoolSize: Int = 2
        /// The request body limit (413 beyond it).
        public var bodyLimit = BodyLimit()
        /// Serve HTTPS with these PEM files instead of plain HTTP.
        public var tls: TLSFiles?
        /// Receives unexpected errors and libmicrohttpd's own diagnostics.
        public var logger: HTTPLogger = .standardError

        public init() {}
    }

    /// A PEM certificate (chain) and its PEM private key.
    public struct TLSFiles: Sendable, Equatable {
        public var certificatePath: String
        public var privateKeyPath: String

        public init(certificatePath: String, privateKeyPath: String) {
            (self.certificatePath, self.privateKeyPath) = (certificatePath, privateKeyPath)
        }
    }

    public let configuration: Configuration
    private let core: ServerCore
    private let lock = NSLock()
    private var handle: OpaquePointer?
    private var boundPort: Int?
    private var stopping = false

    public init(responder: any HTTPResponder, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.core = ServerCore(
            responder: responder, bodyLimit: configuration.bodyLimit, headLimits: configuration.headLimits,
            logger: configuration.logger)
    }

    deinit {
        if let handle {
            core.markDaemonGone()
            wb_mhd_stop(handle)
            Unmanaged.passUnretained(core).release()
        }
    }

    /// The bound port while running, nil otherwise.
    public var port: Int? {
        lock.withLock { boundPort }
    }

    /// Requests received but not yet completed (useful to watch a graceful stop).
    public var requestsInFlight: Int {
        core.inFlightCount
    }

    /// Connections whose request-head deadline runs: waiting for a (first or next) request head.
    public var connectionsAwaitingHead: Int {
        core.deadlinesAwaitingHead
    }

    /// Connections whose body deadline runs: receiving a request body.
    public var connectionsReceivingBody: Int {
        core.deadlinesReceivingBody
    }

    /// Ends the connections past their head or body deadline now, by
    /// ``Configuration/deadlineClock``: what the deadlines' own timer does, for a test that
    /// moved its clock.
    public func endLateRequests() {
        core.endLateRequests()
    }

    /// Starts listening on a numeric IPv4 or IPv6 address (`localhost` means `127.0.0.1`).
    /// Port 0 picks a free port; the bound port is returned and kept in ``port``.
    @discardableResult
    public func start(host: String = "127.0.0.1", port: Int = 0) throws(HTTPServerError) -> Int {
        var certificate: String?
        var privateKey: String?
        if let tls = configuration.tls {
            guard wb_mhd_tls_supported() == 1 else { throw .tlsUnsupported }
            certificate = try Self.readPEM(tls.certificatePath)
            privateKey = try Self.readPEM(tls.privateKeyPath)
        }
        lock.lock()
        defer { lock.unlock() }
        guard handle == nil else { throw .alreadyRunning }
        let connectionLimit = Self.fitDescriptorLimit(
            to: configuration.connectionLimit, logger: configuration.logger)
        let deadlines = core.startDeadlines(
            headSeconds: configuration.requestHeadTimeoutSeconds,
            bodySeconds: configuration.requestBodyTimeoutSeconds,
            bodyBytesPerSecond: configuration.requestBodyBytesPerSecond,
            writesTimeout: configuration.tls == nil,
            clock: configuration.deadlineClock)
        let context = Unmanaged.passRetained(core).toOpaque()
        var error = [CChar](repeating: 0, count: 256)
        let started: OpaquePointer? = (host == "localhost" ? "127.0.0.1" : host).withCString { address in
            withOptionalCString(certificate) { certificatePEM in
                withOptionalCString(privateKey) { keyPEM in
                    var settings = wb_mhd_config(
                        bind_address: address,
                        port: UInt16(clamping: port),
                        connection_limit: UInt32(clamping: connectionLimit),
                        per_ip_connection_limit: UInt32(clamping: configuration.perIPConnectionLimit),
                        connection_timeout_seconds: UInt32(clamping: configuration.connectionTimeoutSeconds),
                        thread_pool_size: UInt32(clamping: configuration.threadPoolSize),
                        connection_memory_limit: max(0, configuration.connectionMemoryLimit),
                        tls_certificate_pem: certificatePEM,
                        tls_private_key_pem: keyPEM)
                    return wb_mhd_start(
                        &settings, serverAccessCallback, serverCompletedCallback, serverConnectionCallback,
                        serverLogCallback, context, &error, error.count)
                }
            }
        }
        guard let started else {
            deadlines?.stop()
            Unmanaged<ServerCore>.fromOpaque(context).release()
            throw .cannotStart(
                String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        core.markDaemonRunning()
        handle = started
        stopping = false
        boundPort = Int(wb_mhd_bound_port(started))
        return boundPort!
    }

    /// Stops gracefully: new connections are refused at once, requests already received run
    /// to completion, then the daemon closes. A request still waiting on its responder after
    /// `gracePeriod` is answered `503 shutting_down` so that no client hangs.
    public func stop(gracePeriod: Duration = .seconds(10)) async {
        let running: OpaquePointer? = lock.withLock {
            guard let handle, !stopping else { return nil }
            stopping = true
            return handle
        }
        guard let running else { return }
        core.markStopping()
        _ = wb_mhd_quiesce(running)
        // An open stream never completes on its own: end each one now, so that its connection
        // finishes like any other request instead of holding the stop for the grace period.
        core.finishStreams()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: gracePeriod)
        while core.inFlightCount > 0 && clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        // Always, even when nothing is in flight: a connection accepted before the quiesce can
        // still deliver its request now, and libmicrohttpd aborts the process if it is told to
        // stop while a connection is suspended. From here on a new request is answered 503 at
        // once instead of being suspended, and any still waiting get their 503 now.
        core.answerWaitingRequests(with: HTTPError.shuttingDown.response)
        let flushDeadline = clock.now.advanced(by: .seconds(1))
        while core.inFlightCount > 0 && clock.now < flushDeadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        core.markDaemonGone()
        wb_mhd_stop(running)
        core.stopDeadlines()
        lock.withLock {
            handle = nil
            boundPort = nil
        }
        Unmanaged.passUnretained(core).release()
    }

    /// Descriptors kept free for everything else the process opens: the event log, the site's
    /// files, the listening socket, a child process's pipes.
    static let reservedDescriptors = 256

    /// Raises the soft limit on open files so that `connections` fit beside the reserved ones;
    /// returns the connections that fit (the hard limit may allow fewer, said in the log).
    static func fitDescriptorLimit(to connections: Int, logger: HTTPLogger) -> Int {
        var limit = rlimit()
        guard getrlimit(resourceNoFile, &limit) == 0 else { return connections }
        let needed = rlim_t(max(0, connections) + reservedDescriptors)
        if limit.rlim_cur < needed {
            var raised = limit
            raised.rlim_cur = min(needed, limit.rlim_max)
            if setrlimit(resourceNoFile, &raised) == 0 { limit = raised }
        }
        let fitting = max(1, Int(clamping: limit.rlim_cur) - reservedDescriptors)
        guard fitting < connections else { return connections }
        logger.write(
            "the process may open \(limit.rlim_cur) files, so the server takes \(fitting) connections at once, "
                + "not \(connections) (raise the hard limit with ulimit -Hn)")
        return fitting
    }

    private static func readPEM(_ path: String) throws(HTTPServerError) -> String {
        guard let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)
        else { throw .unreadableTLSFile(path: path) }
        return text
    }
}

#if canImport(Glibc)
    private let resourceNoFile = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#else
    private let resourceNoFile = RLIMIT_NOFILE
#endif

private func withOptionalCString<Result>(
    _ text: String?, _ body: (UnsafePointer<CChar>?) -> Result
) -> Result {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
