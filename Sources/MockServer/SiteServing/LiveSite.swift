import Foundation
import HTTPCore
import StrictJSON

/// The live site's state, shared by whoever builds it and the server that serves it: the folder
/// of the current build, the ``LiveStatus``, and the open Server-Sent Events streams.
///
/// The builder reports (``buildStarted()``, ``buildSucceeded(folder:diagnostics:languages:)``,
/// ``buildFailed(diagnostics:)``, ``checksFinished(diagnostics:restartReason:)``); each report
/// that changes something is pushed to every open page as an event:
///
/// ```text
/// event: reload
/// data: {"generation":2}
///
/// event: reload
/// data: {"generation":3,"languages":["vi"]}
///
/// event: status
/// data: {"diagnostics":[],"generation":2,"restartNeeded":false,"restartReason":null,"state":"ready"}
/// ```
///
/// ```swift
/// let live = LiveSite()
/// live.buildSucceeded(folder: siteFolder, diagnostics: [])   // generation 1, pages reload
/// ```
public final class LiveSite: @unchecked Sendable {
    /// Streams open at once (a browser opens one per tab). One more replaces the oldest: a page
    /// that closed is noticed only at the next write, so after quick navigation the oldest streams
    /// are mostly of pages that are gone. A live page that is replaced is told so, and stops.
    public let streamLimit: Int
    /// The SDK's API reference, served at `/reference/` beside the site.
    public let reference: LiveReference
    private let lock = NSLock()
    private var folder: URL?
    private var current = LiveStatus()
    private var buildDiagnostics: [LiveStatus.Diagnostic] = []
    private var checkDiagnostics: [LiveStatus.Diagnostic] = []
    private var streams: [ObjectIdentifier: HTTPStream] = [:]
    /// The open streams, oldest first.
    private var admitted: [ObjectIdentifier] = []
    private var closed = false
    /// The words of the pages the server writes itself (``ServerWords``).
    public let words: ServerWords

    public init(
        streamLimit: Int = 32, reference: LiveReference = LiveReference(), words: ServerWords = .keysOnly
    ) {
        (self.streamLimit, self.reference, self.words) = (streamLimit, reference, words)
    }

    /// The status pages see.
    public var status: LiveStatus { lock.withLock { current } }

    /// The folder being served, nil until the first build succeeds.
    public var siteFolder: URL? { lock.withLock { folder } }

    /// Streams open now.
    public var openStreams: Int { lock.withLock { streams.count } }

    // MARK: Reports from the builder

    /// A build began. Before the first success the state is `building`; afterwards the old site
    /// stays up and the state is left as it was, so a page does not flicker on every save.
    public func buildStarted() {
        update { status in
            if status.generation == 0 { status.state = .building }
        }
    }

    /// A build wrote a complete site to `folder`: serve it, count a generation, and tell every
    /// page to reload. With `languages`, only the pages in those languages (`<html lang>`) are
    /// told to reload; the others take the new generation and stay (the site's English is
    /// published before its translations are rebuilt, so that an English page never waits for
    /// them).
    public func buildSucceeded(folder: URL, diagnostics: [LiveStatus.Diagnostic], languages: [String]? = nil)
    {
        let generation: Int = lock.withLock {
            self.folder = folder
            current.generation += 1
            return current.generation
        }
        let scope =
            languages.map { #","languages":"# + "[" + $0.map(JSONValue.quoted).joined(separator: ",") + "]" }
            ?? ""
        broadcast(event: "reload", data: #"{"generation":\#(generation)\#(scope)}"#)
        update { status in
            status.state = .ready
            self.buildDiagnostics = diagnostics
        }
    }

    /// A build could not finish: keep serving the last site and show why.
    public func buildFailed(diagnostics: [LiveStatus.Diagnostic]) {
        update { status in
            status.state = .failed
            self.buildDiagnostics = diagnostics
        }
    }

    /// The slow checks (snippet checkers, tangle drift) finished.
    public func checksFinished(diagnostics: [LiveStatus.Diagnostic], restartReason: String?) {
        update { status in
            self.checkDiagnostics = diagnostics
            status.restartNeeded = restartReason != nil
            status.restartReason = restartReason
        }
    }

    /// Applies `change` under the lock and sends a `status` event if the status changed.
    private func update(_ change: (inout LiveStatus) -> Void) {
        let changed: LiveStatus? = lock.withLock {
            var next = current
            change(&next)
            // The checks read the chapters the build read: what both found is listed once.
            next.diagnostics = buildDiagnostics + checkDiagnostics.filter { !buildDiagnostics.contains($0) }
            guard next != current else { return nil }
            current = next
            return next
        }
        if let changed { broadcast(event: "status", data: Self.json(changed)) }
    }

    // MARK: Streams

    /// Opens an event stream for `GET /_workbook/events`: it starts with the current status
    /// (a page that reconnects learns what it missed), then carries every event.
    public func openStream() -> HTTPResponse {
        let stream = HTTPStream()
        let outcome: (status: LiveStatus, replaced: [HTTPStream])? = lock.withLock {
            guard !closed else { return nil }
            var replaced: [HTTPStream] = []
            while streams.count >= max(1, streamLimit), !admitted.isEmpty {
                if let oldest = streams.removeValue(forKey: admitted.removeFirst()) {
                    replaced.append(oldest)
                }
            }
            streams[ObjectIdentifier(stream)] = stream
            admitted.append(ObjectIdentifier(stream))
            return (current, replaced)
        }
        guard let outcome else {
            return HTTPError(
                .serviceUnavailable, code: "stopping", message: "the server is stopping",
                headers: ["Retry-After": "5"]
            ).response
        }
        for old in outcome.replaced {
            _ = old.send(Self.eventText(event: "replaced", data: "{}"))
            old.finish()
        }
        let admittedStatus = outcome.status
        stream.onClose { [weak self] in self?.forget(stream) }
        // retry: how soon a browser reconnects after the server went away (milliseconds).
        stream.send("retry: 1000\n\n" + Self.eventText(event: "status", data: Self.json(admittedStatus)))
        return HTTPResponse(status: .ok, headers: Self.streamHeaders, stream: stream)
    }

    /// What `HEAD /_workbook/events` answers: the stream's headers, with a stream that is already
    /// finished and never counted, so that a HEAD pushes no page's stream out. The HTTP server
    /// sends no body for it.
    public func streamHead() -> HTTPResponse {
        let stream = HTTPStream()
        stream.finish()
        return HTTPResponse(status: .ok, headers: Self.streamHeaders, stream: stream)
    }

    static let streamHeaders: HTTPHeaders = [
        "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store",
        "X-Accel-Buffering": "no",
    ]

    /// A comment line every page ignores; it keeps proxies from closing an idle stream and lets
    /// the server notice pages that went away.
    public func sendHeartbeat() {
        for stream in openStreamList() where !stream.send(": heartbeat\n\n") { forget(stream) }
    }

    /// Ends every stream and refuses new ones (the server is stopping).
    public func close() {
        let open: [HTTPStream] = lock.withLock {
            closed = true
            defer {
                streams.removeAll()
                admitted.removeAll()
            }
            return Array(streams.values)
        }
        for stream in open { stream.finish() }
    }

    private func broadcast(event: String, data: String) {
        let text = Self.eventText(event: event, data: data)
        for stream in openStreamList() where !stream.send(text) { forget(stream) }
    }

    private func openStreamList() -> [HTTPStream] {
        lock.withLock { Array(streams.values) }
    }

    private func forget(_ stream: HTTPStream) {
        let id = ObjectIdentifier(stream)
        lock.withLock {
            guard streams.removeValue(forKey: id) != nil else { return }
            admitted.removeAll { $0 == id }
        }
    }

    /// One Server-Sent Event: `event:` and `data:` lines and a blank line.
    public static func eventText(event: String, data: String) -> String {
        "event: \(event)\ndata: \(data)\n\n"
    }

    /// Sorted-keys JSON on one line (an SSE `data:` line must not break).
    static func json<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
