import Foundation
import StrictJSON

/// What `GET /_workbook/status` answers: how far the served site is, and what the book's
/// checks found.
///
/// ```json
/// {"generation": 3, "state": "ready", "restartNeeded": false, "restartReason": null,
///  "diagnostics": [{"file": "chapters/08-the-track-open-protocol.md", "line": 41, "column": 5,
///                   "severity": "error", "message": "no chunk named 'x'"}],
///  "deferredRecordsEvicted": 0}
/// ```
///
/// Every key is always present (`null` when empty), so a page can read it without checks;
/// only `deferredRecordsEvicted`, which is about the API rather than the site, is in the route's
/// answer and not in the stream's `status` events.
public struct LiveStatus: Codable, Equatable, Sendable {
    public enum State: String, Codable, Sendable {
        /// No site yet: the first build is running.
        case building
        /// The site of ``LiveStatus/generation`` is served.
        case ready
        /// The last build failed; the previous site (if any) is still served.
        case failed
    }

    /// One finding, as `workbook check` prints it: `file:line:column: severity: message`.
    public struct Diagnostic: Codable, Equatable, Sendable {
        @ExplicitNull public var file: String?
        @ExplicitNull public var line: Int?
        @ExplicitNull public var column: Int?
        /// `error`, `warning` or `note`.
        public var severity: String
        public var message: String

        public init(file: String?, line: Int?, column: Int?, severity: String, message: String) {
            (self.file, self.line, self.column, self.severity, self.message) = (
                file, line, column, severity, message
            )
        }
    }

    /// Counts successful builds: 0 until the first one, then 1, 2, ... Each new generation is
    /// announced with a `reload` event.
    public var generation: Int
    public var state: State
    public var diagnostics: [Diagnostic]
    /// The book now tangles to Swift that the running server was not built from.
    public var restartNeeded: Bool
    /// What to run, in words, when ``restartNeeded``.
    @ExplicitNull public var restartReason: String?
    /// Deferred records the server dropped to stay within `limits.deferredRecords`, oldest
    /// first: more than 0 means visits came faster than the cap allows for a day's TTL. Set by
    /// `GET /_workbook/status` only.
    public var deferredRecordsEvicted: Int?

    public init(
        generation: Int = 0, state: State = .building, diagnostics: [Diagnostic] = [],
        restartNeeded: Bool = false, restartReason: String? = nil, deferredRecordsEvicted: Int? = nil
    ) {
        (
            self.generation, self.state, self.diagnostics, self.restartNeeded, self.restartReason,
            self.deferredRecordsEvicted
        ) = (generation, state, diagnostics, restartNeeded, restartReason, deferredRecordsEvicted)
    }
}

/// What `GET /_workbook/config` answers: what a page needs to call the running server. It never
/// holds the secret key.
///
/// ```json
/// {"apiBase": "/api/v1", "linkDomain": "go.example", "publishableKey": "li2_pk_demo",
///  "testClock": false, "version": "0.1.0"}
/// ```
public struct LiveConfiguration: Codable, Equatable, Sendable {
    /// The key the server accepts for tracking calls (after `WORKBOOK_PUBLISHABLE_KEY`).
    public var publishableKey: String
    /// The first configured link domain, if any.
    @ExplicitNull public var linkDomain: String?
    public var apiBase: String
    public var testClock: Bool
    /// The workbook's version.
    public var version: String

    public init(
        publishableKey: String, linkDomain: String?, apiBase: String = "/api/v1", testClock: Bool,
        version: String
    ) {
        (self.publishableKey, self.linkDomain, self.apiBase, self.testClock, self.version) = (
            publishableKey, linkDomain, apiBase, testClock, version
        )
    }
}
