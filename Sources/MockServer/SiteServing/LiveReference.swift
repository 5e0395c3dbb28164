import Foundation
import HTTPCore

/// The SDK's API reference beside the live site: what `workbook reference` writes (a DocC
/// archive transformed for static hosting under `/reference`), served at `/reference/…` once it
/// is built.
///
/// `workbook serve --reference` builds it once, in the background, and reports here. Until then
/// every `/reference/…` path answers 503 with a page that says so and refreshes itself; a build
/// that failed answers 500 with the reason; a server that was not asked to build it answers 404
/// with how to get one. Once ready, the folder is served as DocC's static hosting expects: each
/// page path is a folder holding its `index.html` (`/reference/documentation/li2sdk/`), beside
/// the `css/`, `js/`, `data/` and `index/` folders the page loads, and `/reference/` leads to
/// the landing page that lists the modules.
///
/// ```swift
/// let reference = LiveReference()
/// reference.buildStarted()                           // GET /reference/… → 503, "being built"
/// reference.buildSucceeded(folder: builtFolder)      // GET /reference/documentation/li2sdk/ → its index.html
/// ```
public final class LiveReference: @unchecked Sendable {
    public enum State: Equatable, Sendable {
        /// Nobody asked this server to build the reference.
        case notBuilt
        case building
        case ready(folder: URL)
        /// The build ended without a reference; the text says why.
        case failed(reason: String)
    }

    /// The path the reference is served under, as `docc --hosting-base-path` was told.
    public static let mountPath = "/reference"
    /// Where `/reference/` leads: DocC's landing page, which lists the modules.
    public static let landingPath = "/reference/documentation/"

    private let lock = NSLock()
    private var current = State.notBuilt

    public init() {}

    public var state: State { lock.withLock { current } }

    public func buildStarted() { lock.withLock { current = .building } }

    public func buildSucceeded(folder: URL) { lock.withLock { current = .ready(folder: folder) } }

    public func buildFailed(reason: String) { lock.withLock { current = .failed(reason: reason) } }

    /// Is `path` the reference's (`/reference` or below)?
    public static func serves(_ path: String) -> Bool {
        path == mountPath || path.hasPrefix(mountPath + "/")
    }

    /// The answer to a `GET` or `HEAD` of a path under ``mountPath``; its own pages say `words`.
    public func response(for request: HTTPRequest, words: ServerWords = .keysOnly) -> HTTPResponse {
        switch state {
        case .notBuilt:
            return Self.page(
                status: .notFound, title: words[ServerWords.referenceNotBuiltTitle],
                text: words[ServerWords.referenceNotBuiltText], words: words)
        case .building:
            var response = Self.page(
                status: .serviceUnavailable, title: words[ServerWords.referenceBuildingTitle],
                text: words[ServerWords.referenceBuildingText], words: words, refreshSeconds: 2)
            response.headers["Retry-After"] = "2"
            return response
        case .failed(let reason):
            return Self.page(
                status: .internalServerError, title: words[ServerWords.referenceFailedTitle],
                text: words.format(
                    ServerWords.referenceFailedText, ["reason": InterstitialPage.escape(reason)]),
                words: words)
        case .ready(let folder):
            if request.path == Self.mountPath || request.path == Self.mountPath + "/" {
                return HTTPResponse(
                    status: HTTPStatus(302),
                    headers: ["Location": Self.landingPath, "Cache-Control": "no-cache"])
            }
            return StaticSite.response(for: request, root: folder, mountedAt: Self.mountPath, words: words)
        }
    }

    // MARK: Pages

    /// A small page of the server's own, in the style of ``StaticSite/buildingPage(_:)``.
    static func page(
        status: HTTPStatus, title: String, text: String, words: ServerWords, refreshSeconds: Int? = nil
    ) -> HTTPResponse {
        let title = InterstitialPage.escape(title)
        let refresh = refreshSeconds.map { "<meta http-equiv=\"refresh\" content=\"\($0)\">\n" } ?? ""
        let html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            \(refresh)<meta name="color-scheme" content="light dark">
            <title>\(title)</title>
            <style>body{font:1.1rem/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem}\
            pre{white-space:pre-wrap}</style>
            </head>
            <body>
            <h1>\(title)</h1>
            \(text)
            <p><a href="/">\(InterstitialPage.escape(words[ServerWords.back]))</a></p>
            </body>
            </html>

            """
        return HTTPResponse(
            status: status,
            headers: ["Content-Type": StaticSite.contentTypes["html"]!, "Cache-Control": "no-store"],
            body: Data(html.utf8))
    }
}
