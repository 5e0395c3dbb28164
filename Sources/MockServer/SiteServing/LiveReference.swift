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

    /// The answer to a `GET` or `HEAD` of a path under ``mountPath``.
    public func response(for request: HTTPRequest) -> HTTPResponse {
        switch state {
        case .notBuilt:
            return Self.page(
                status: .notFound, title: "The SDK reference is not built here", text: Self.notBuiltText)
        case .building:
            var response = Self.page(
                status: .serviceUnavailable, title: "Building the SDK reference...", text: Self.buildingText,
                refreshSeconds: 2)
            response.headers["Retry-After"] = "2"
            return response
        case .failed(let reason):
            return Self.page(
                status: .internalServerError, title: "The SDK reference could not be built",
                text: Self.failedText(reason))
        case .ready(let folder):
            if request.path == Self.mountPath || request.path == Self.mountPath + "/" {
                return HTTPResponse(
                    status: HTTPStatus(302),
                    headers: ["Location": Self.landingPath, "Cache-Control": "no-cache"])
            }
            return StaticSite.response(for: request, root: folder, mountedAt: Self.mountPath)
        }
    }

    // MARK: Pages

    static let notBuiltText = """
        <p>This server was started without the SDK's API reference. <code>./wb serve</code> builds it \
        once in the background (it runs <code>workbook serve --reference</code>); you can also write \
        it yourself with <code>workbook reference --out DIR</code> and serve that folder at \
        <code>/reference/</code>.</p>
        """

    static let buildingText = """
        <p>The workbook is compiling Li2SDK and DeepLinkCore and rendering their documentation with \
        DocC (<code>workbook reference</code>); this takes under a minute the first time and a few \
        seconds after. This page reloads itself until the reference is ready. The rest of the site \
        works meanwhile.</p>
        """

    static func failedText(_ reason: String) -> String {
        "<p>The build stopped; the rest of the site works. What it said:</p>\n<pre>"
            + InterstitialPage.escape(reason)
            + "</pre>\n<p>Run <code>workbook reference</code> for the whole output, fix the cause, and "
            + "restart <code>./wb serve</code>.</p>"
    }

    /// A small page of the server's own, in the style of ``StaticSite/buildingPage``.
    static func page(status: HTTPStatus, title: String, text: String, refreshSeconds: Int? = nil)
        -> HTTPResponse
    {
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
            <p><a href="/">Back to the book</a></p>
            </body>
            </html>

            """
        return HTTPResponse(
            status: status,
            headers: ["Content-Type": StaticSite.contentTypes["html"]!, "Cache-Control": "no-store"],
            body: Data(html.utf8))
    }
}
