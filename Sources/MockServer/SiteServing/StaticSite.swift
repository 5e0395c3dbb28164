import Foundation
import HTTPCore

/// Serves a built site from a folder: the file a path names, a folder's `index.html`, and the
/// site's own `404.html` for anything else.
///
/// Only `GET` and `HEAD` reach it (``LiveSiteResponder`` sends everything else to the API). A
/// path is decoded segment by segment and refused (404) if a segment is `.` or `..`, starts
/// with a dot, or hides a `/` or NUL behind an escape: nothing outside the folder, and none of
/// its hidden files, can be named.
///
/// ```swift
/// let response = StaticSite.response(for: HTTPRequest(method: .get, target: "/chapters/"), root: folder)
/// response.headers["Content-Type"]  // "text/html; charset=utf-8"
/// ```
public enum StaticSite {
    /// Content types by file extension; anything else is `application/octet-stream`.
    public static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "json": "application/json",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "ico": "image/x-icon",
        "txt": "text/plain; charset=utf-8",
        "md": "text/plain; charset=utf-8",
        "swift": "text/plain; charset=utf-8",
        "xml": "application/xml",
        "plist": "application/xml",
        "woff2": "font/woff2",
    ]

    /// The content type for a file name.
    public static func contentType(of name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        return contentTypes[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    /// The answer for `request` from the site in `root`, served at the server's root or under
    /// `prefix` (`/reference`: `/reference/css/a.css` is `root/css/a.css`); `words` say a missing
    /// page of a site without its own `404.html`.
    public static func response(
        for request: HTTPRequest, root: URL, mountedAt prefix: String = "", words: ServerWords = .keysOnly
    ) -> HTTPResponse {
        var path = request.path
        if !prefix.isEmpty {
            guard path == prefix || path.hasPrefix(prefix + "/") else {
                return notFound(root: root, words: words)
            }
            path.removeFirst(prefix.count)
        }
        guard let segments = safeSegments(path) else { return notFound(root: root, words: words) }
        let fileManager = FileManager.default
        var url = root
        for segment in segments { url.appendPathComponent(segment) }
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            return notFound(root: root, under: segments.first, words: words)
        }
        if isDirectory.boolValue {
            // Relative links inside an index page need the folder's trailing slash.
            guard path.hasSuffix("/") else {
                return HTTPResponse(
                    status: HTTPStatus(301),
                    headers: ["Location": prefix + folderLocation(path), "Cache-Control": "no-cache"])
            }
            url.appendPathComponent("index.html")
        }
        guard isInside(url, root: root), let data = fileManager.contents(atPath: url.path) else {
            return notFound(root: root, words: words)
        }
        return HTTPResponse(
            status: .ok,
            // no-cache: the browser asks again after each rebuild instead of showing an old page.
            headers: ["Content-Type": contentType(of: url.lastPathComponent), "Cache-Control": "no-cache"],
            body: data)
    }

    /// The site's `404.html` with status 404 (a plain sentence in `words` if the site has none). A
    /// path in a folder with a `404.html` of its own (a translation of the site, `vi/`) gets that one.
    public static func notFound(root: URL, under folder: String? = nil, words: ServerWords = .keysOnly)
        -> HTTPResponse
    {
        let own = folder.map { root.appendingPathComponent($0).appendingPathComponent("404.html").path }
        let page =
            own.flatMap { FileManager.default.contents(atPath: $0) }
            ?? FileManager.default.contents(atPath: root.appendingPathComponent("404.html").path)
        return HTTPResponse(
            status: .notFound,
            headers: ["Content-Type": contentTypes["html"]!, "Cache-Control": "no-cache"],
            body: page
                ?? Data(
                    ("<!DOCTYPE html><title>\(InterstitialPage.escape(words[ServerWords.notFoundTitle]))</title>"
                        + "<p>\(InterstitialPage.escape(words[ServerWords.notFoundText]))</p>\n").utf8))
    }

    /// `path` with its empty segments dropped and a slash added: `//chapters` becomes `/chapters/`.
    /// A `Location` that starts with `//` is a network-path reference to another host
    /// (RFC 3986 §4.2), which a browser would follow to the host `chapters`.
    static func folderLocation(_ path: String) -> String {
        "/" + path.split(separator: "/", omittingEmptySubsequences: true).map { $0 + "/" }.joined()
    }

    /// The decoded path segments, or nil when one of them may not be served.
    static func safeSegments(_ path: String) -> [String]? {
        var segments: [String] = []
        for raw in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let segment = raw.removingPercentEncoding else { return nil }
            if segment.hasPrefix(".") || segment.contains("/") || segment.contains("\0")
                || segment.contains("\\")
            {
                return nil
            }
            segments.append(segment)
        }
        return segments
    }

    /// A symbolic link inside the site must not lead out of it.
    private static func isInside(_ url: URL, root: URL) -> Bool {
        let folder = root.resolvingSymlinksInPath().standardizedFileURL.path
        let file = url.resolvingSymlinksInPath().standardizedFileURL.path
        return file.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// The page served while the first build runs, in `words`: it reloads itself every second.
    public static func buildingPage(_ words: ServerWords) -> String {
        let title = InterstitialPage.escape(words[ServerWords.buildingTitle])
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="refresh" content="1">
            <meta name="color-scheme" content="light dark">
            <title>\(title)</title>
            <style>body{font:1.1rem/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem}</style>
            </head>
            <body>
            <h1>\(title)</h1>
            <p>\(InterstitialPage.escape(words[ServerWords.buildingText]))</p>
            </body>
            </html>

            """
    }

    /// `503` with ``buildingPage(_:)``.
    public static func building(_ words: ServerWords) -> HTTPResponse {
        HTTPResponse(
            status: .serviceUnavailable,
            headers: [
                "Content-Type": contentTypes["html"]!, "Retry-After": "1", "Cache-Control": "no-store",
            ],
            body: Data(buildingPage(words).utf8))
    }
}
