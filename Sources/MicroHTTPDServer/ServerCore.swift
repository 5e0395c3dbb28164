import CMicroHTTPD
import CMicroHTTPDShim
import Foundation
import HTTPCore

// MARK: - The adapter

/// One request's progress from its headers to its completion. Its `phase` changes only under
/// the server core's lock, because the responder's task and the libmicrohttpd thread both
/// touch it.
final class RequestState: @unchecked Sendable {
    enum Phase {
        case receiving
        case rejected(HTTPResponse)
        case waiting
        case ready(HTTPResponse)
        case answered
    }

    let method: HTTPMethod
    let path: String
    let query: [QueryItem]
    let headers: HTTPHeaders
    /// The request target's length as sent, for ``RequestHeadLimits``.
    let targetLength: Int
    let remoteAddress: String?
    var body: BodyAccumulator
    var drained = 0
    var phase = Phase.receiving
    let connection: OpaquePointer

    init(
        method: HTTPMethod, path: String, query: [QueryItem], headers: HTTPHeaders, targetLength: Int,
        remoteAddress: String?, limit: BodyLimit, connection: OpaquePointer
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.targetLength = targetLength
        self.remoteAddress = remoteAddress
        self.body = BodyAccumulator(limit: limit)
        self.connection = connection
    }
}

/// The part of the server the C callbacks reach through their context pointer.
final class ServerCore: @unchecked Sendable {
    let responder: any HTTPResponder
    let bodyLimit: BodyLimit
    let headLimits: RequestHeadLimits
    let logger: HTTPLogger
    private let lock = NSLock()
    private var inFlight = 0
    private var waiting: [ObjectIdentifier: RequestState] = [:]
    private var streams: [ObjectIdentifier: HTTPStream] = [:]
    private var daemonRunning = false
    private var stopping = false
    private var acceptingWork = true
    /// Set before the daemon starts and cleared after it stopped, so the callbacks in between
    /// read it without the lock.
    private var deadlines: RequestDeadlines?

    /// Past the limit, a chunked body (whose size was not announced) is read and thrown away
    /// up to this many bytes so the client still gets its 413; beyond it the connection is cut.
    private let drainAllowance = 1 << 20

    init(
        responder: any HTTPResponder, bodyLimit: BodyLimit, headLimits: RequestHeadLimits, logger: HTTPLogger
    ) {
        (self.responder, self.bodyLimit, self.headLimits, self.logger) = (
            responder, bodyLimit, headLimits, logger
        )
    }

    var inFlightCount: Int { lock.withLock { inFlight } }

    /// Starts the deadlines' timer thread (none when both are off: `headSeconds` and
    /// `bodySeconds` of 0 or less). `writesTimeout`: a late body gets its 408 (plain HTTP only).
    func startDeadlines(
        headSeconds: Double, bodySeconds: Double, bodyBytesPerSecond: Int, writesTimeout: Bool,
        clock: @escaping @Sendable () -> UInt64
    ) -> RequestDeadlines? {
        guard headSeconds > 0 || bodySeconds > 0 else { return nil }
        let body =
            bodySeconds > 0
            ? RequestDeadlines.BodyPolicy(
                base: UInt64(bodySeconds * 1e9), bytesPerSecond: UInt64(max(1, bodyBytesPerSecond))) : nil
        let headLimit: UInt64? = headSeconds > 0 ? UInt64(headSeconds * 1e9) : nil
        let started = RequestDeadlines(
            headLimit: headLimit, body: body, now: clock,
            endBody: writesTimeout ? RequestDeadlines.sendTimeout : RequestDeadlines.endConnection)
        let thread = Thread { started.run() }
        thread.name = "HTTP request deadlines"
        thread.start()
        deadlines = started
        return started
    }

    var deadlinesAwaitingHead: Int { deadlines?.awaitingHead ?? 0 }
    var deadlinesReceivingBody: Int { deadlines?.receivingBody ?? 0 }

    func endLateRequests() {
        deadlines?.endLateConnections()
    }

    func stopDeadlines() {
        deadlines?.stop()
        deadlines = nil
    }

    /// libmicrohttpd's connection notifications, before it closes the socket.
    func connection(_ connection: OpaquePointer, socket: Int32, started: Bool) {
        let key = UInt(bitPattern: connection)
        if started {
            if socket >= 0 { deadlines?.started(key, socket: socket) }
        } else {
            deadlines?.closed(key)
        }
    }

    func markDaemonRunning() {
        lock.withLock {
            daemonRunning = true
            stopping = false
            acceptingWork = true
        }
    }

    /// From now on every response asks the client to close its connection.
    func markStopping() { lock.withLock { stopping = true } }

    func markDaemonGone() { lock.withLock { daemonRunning = false } }

    /// One call of libmicrohttpd's access handler; returns false to drop the connection.
    func access(
        connection: OpaquePointer, url: String, method: String, version: String,
        uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>,
        requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> Bool {
        let key = UInt(bitPattern: connection)
        guard let stored = requestState.pointee else {
            // First call: headers are complete, no body byte has been read yet.
            let state = makeState(connection: connection, url: url, method: method)
            requestState.pointee = Unmanaged.passRetained(state).toOpaque()
            lock.withLock { inFlight += 1 }
            do {
                try headLimits.check(targetLength: state.targetLength, headers: state.headers)
                try RequestFraming.check(headers: state.headers, version: version)
                try bodyLimit.forPath(state.path).admit(headers: state.headers)
            } catch {
                // Answering now makes libmicrohttpd skip the body (and any 100-continue)
                // and close the connection after the response.
                _ = deadlines?.bodyComplete(key)
                state.phase = .answered
                return queue(error.response, on: connection, method: state.method)
            }
            deadlines?.headArrived(key, announcedBody: Self.announcedLength(state.headers))
            return true
        }
        let state = Unmanaged<RequestState>.fromOpaque(stored).takeUnretainedValue()
        if uploadDataSize.pointee > 0 {
            let count = uploadDataSize.pointee
            uploadDataSize.pointee = 0
            // Past its deadline the connection was ended (and told 408): read nothing more.
            guard deadlines?.bodyReceived(key, count: count) != false else { return false }
            guard case .receiving = state.phase else {
                state.drained += count
                return state.drained <= drainAllowance
            }
            do {
                try state.body.append(Data(bytes: UnsafeRawPointer(uploadData!), count: count))
            } catch {
                // libmicrohttpd cannot queue a response while a body piece is being handed
                // over, so remember the answer and give it at the final call, closing the
                // connection afterwards: a client that overran once is not kept alive.
                var response = error.response
                response.headers["Connection"] = "close"
                state.phase = .rejected(response)
                state.drained = count
            }
            return true
        }
        // Final call (or the call after a resume).
        let phase = lock.withLock { state.phase }
        switch phase {
        case .receiving:
            // The deadline ended it a moment ago: the client has its 408.
            guard deadlines?.bodyComplete(key) != false else { return false }
            let request = HTTPRequest(
                method: state.method, path: state.path, query: state.query, headers: state.headers,
                body: state.body.data, remoteAddress: state.remoteAddress)
            guard lock.withLock({ acceptingWork }) else {
                // A keep-alive request that arrived after the grace period ran out.
                state.phase = .answered
                return queue(HTTPError.shuttingDown.response, on: connection, method: state.method)
            }
            lock.withLock { state.phase = .waiting }
            MHD_suspend_connection(connection)
            // Only a suspended connection may be resumed, so the request becomes visible to a
            // stopping server (which resumes what is waiting) after the suspend, not before.
            let registered = lock.withLock {
                guard acceptingWork else {
                    state.phase = .ready(HTTPError.shuttingDown.response)
                    MHD_resume_connection(connection)
                    return false
                }
                waiting[ObjectIdentifier(state)] = state
                return true
            }
            guard registered else { return true }
            let responder = self.responder
            Task(executorPreference: ResponderThreads.shared) {
                let response = await responder.respond(to: request)
                self.deliver(response, to: state)
            }
            return true
        case .rejected(let response), .ready(let response):
            lock.withLock { state.phase = .answered }
            return queue(response, on: connection, method: state.method)
        case .waiting, .answered:
            return true
        }
    }

    /// Hands a finished response to a suspended connection, unless shutdown already answered it.
    func deliver(_ response: HTTPResponse, to state: RequestState) {
        lock.withLock {
            guard case .waiting = state.phase, daemonRunning else { return }
            state.phase = .ready(response)
            waiting[ObjectIdentifier(state)] = nil
            MHD_resume_connection(state.connection)
        }
    }

    /// Answers every request still waiting on its responder (used when a stop runs out of time).
    func answerWaitingRequests(with response: HTTPResponse) {
        lock.withLock {
            acceptingWork = false
            guard daemonRunning else { return }
            for state in waiting.values {
                state.phase = .ready(response)
                MHD_resume_connection(state.connection)
            }
            waiting.removeAll()
        }
    }

    func completed(connection: OpaquePointer?, requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        // The connection may carry another request: its head has a deadline again.
        if let connection { deadlines?.requestEnded(UInt(bitPattern: connection)) }
        guard let stored = requestState.pointee else { return }
        requestState.pointee = nil
        let state = Unmanaged<RequestState>.fromOpaque(stored).takeRetainedValue()
        lock.withLock {
            inFlight -= 1
            waiting[ObjectIdentifier(state)] = nil
        }
    }

    /// The body length a head announces: its `Content-Length`, or 0 (none, or chunked).
    private static func announcedLength(_ headers: HTTPHeaders) -> Int {
        guard let value = headers["Content-Length"] else { return 0 }
        var digits = Substring(value)
        while digits.first == " " || digits.first == "\t" { digits.removeFirst() }
        while digits.last == " " || digits.last == "\t" { digits.removeLast() }
        return Int(digits) ?? 0
    }

    private func makeState(connection: OpaquePointer, url: String, method: String) -> RequestState {
        let headers = Self.values(of: .HEADER_KIND, on: connection)
        let rawQuery = Self.values(of: .GET_ARGUMENT_KIND, on: connection)
        let query = rawQuery.map {
            QueryItem(
                name: HTTPRequest.decodeFormComponent($0.name),
                value: $0.value.map(HTTPRequest.decodeFormComponent))
        }
        var address = [CChar](repeating: 0, count: 64)
        let remote =
            wb_mhd_client_address(connection, &address, address.count) == 0
            ? String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        return RequestState(
            method: HTTPMethod(rawValue: method), path: url, query: query,
            headers: HTTPHeaders(headers.map { HTTPHeaders.Field(name: $0.name, value: $0.value ?? "") }),
            targetLength: RequestHeadLimits.targetLength(path: url, query: rawQuery),
            remoteAddress: remote, limit: bodyLimit.forPath(url), connection: connection)
    }

    private final class Collected {
        var items: [(name: String, value: String?)] = []
    }

    private static func values(of kind: MHD_ValueKind, on connection: OpaquePointer) -> [(
        name: String, value: String?
    )] {
        let collected = Collected()
        let context = Unmanaged.passUnretained(collected).toOpaque()
        _ = MHD_get_connection_values(
            connection, kind,
            { context, _, key, value in
                let collected = Unmanaged<Collected>.fromOpaque(context!).takeUnretainedValue()
                collected.items.append((String(cString: key!), value.map { String(cString: $0) }))
                return .YES
            }, context)
        return collected.items
    }

    /// Finishes every open stream (a stopping server must not keep a connection suspended).
    func finishStreams() {
        let open = lock.withLock { Array(streams.values) }
        for stream in open { stream.finish() }
    }

    /// Forgets a stream whose connection ended.
    func streamEnded(_ stream: HTTPStream) {
        lock.withLock { streams[ObjectIdentifier(stream)] = nil }
        stream.connectionEnded()
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer, method: HTTPMethod) -> Bool {
        let created: OpaquePointer?
        if method == .head, let stream = response.stream {
            // A HEAD gets the stream's headers and nothing else: the stream is never opened. Its
            // content has no length to announce, so the response is framed by the connection's
            // close, which libmicrohttpd does only in its HTTP/1.0 form; its chunked form would
            // send a body (RFC 9110 §9.3.2 forbids one).
            stream.finish()
            created = wb_mhd_create_head_of_stream_response()
        } else if let stream = response.stream {
            let stopping = lock.withLock {
                streams[ObjectIdentifier(stream)] = stream
                return self.stopping
            }
            if stopping { stream.finish() }
            created = StreamBinding.response(for: stream, on: connection, core: self)
        } else {
            created = response.body.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(
                    bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
            }
        }
        guard let created else { return false }
        defer { MHD_destroy_response(created) }
        var headers = response.headers
        if lock.withLock({ stopping }) {
            // Tell keep-alive clients to reconnect elsewhere rather than reuse this connection.
            headers["Connection"] = "close"
        }
        for field in headers {
            // libmicrohttpd frames the body itself and owns these.
            let name = field.name.lowercased()
            if name == "content-length" || name == "transfer-encoding" { continue }
            _ = MHD_add_response_header(created, field.name, field.value)
        }
        return MHD_queue_response(connection, UInt32(response.status.code), created) == .YES
    }
}

// The C callbacks: they capture nothing, find the core through the context pointer, and
// hand over at once.

let serverAccessCallback: wb_mhd_access_callback = {
    context, connection, url, method, version, uploadData, uploadDataSize, requestState in
    let core = Unmanaged<ServerCore>.fromOpaque(context!).takeUnretainedValue()
    let keep = core.access(
        connection: connection!, url: String(cString: url!), method: String(cString: method!),
        version: version.map { String(cString: $0) } ?? "", uploadData: uploadData,
        uploadDataSize: uploadDataSize!, requestState: requestState!)
    return keep ? 1 : 0
}

let serverCompletedCallback: wb_mhd_completed_callback = { context, connection, requestState, _ in
    let core = Unmanaged<ServerCore>.fromOpaque(context!).takeUnretainedValue()
    core.completed(connection: connection, requestState: requestState!)
}

let serverConnectionCallback: wb_mhd_connection_callback = { context, connection, socket, started in
    let core = Unmanaged<ServerCore>.fromOpaque(context!).takeUnretainedValue()
    core.connection(connection!, socket: socket, started: started != 0)
}

let serverLogCallback: wb_mhd_log_callback = { context, message in
    let core = Unmanaged<ServerCore>.fromOpaque(context!).takeUnretainedValue()
    core.logger.write("libmicrohttpd: \(String(cString: message!))")
}
