import Foundation

/// A "Try it" panel: an HTTP request a reader can edit and send to the running server, with room
/// for the answer. The site's script (`site/assets/site.js`) brings it to life when the page is
/// served by `workbook serve`; opened from files, it shows the request and says how to start a
/// server.
///
/// The markup is a contract that the site's script and the browser tests rely on:
///
/// ```html
/// <section class="try-it" data-method="POST" data-path="/api/v1/orders">
///   ... input.try-it-path, textarea.try-it-headers, textarea.try-it-body, button.try-it-send,
///   .try-it-status, .try-it-response-headers, .try-it-response
/// </section>
/// ```
///
/// It never contains a blank line, so that it stays one raw HTML block inside Markdown.
///
/// ```swift
/// let panel = TryItPanel(httpLines: ["POST /api/v1/orders HTTP/1.1", "X-Api-Key: key", "", "{}"])
/// panel?.html(words)  // "<section class=\"try-it\" data-method=\"POST\" ..."
/// ```
struct TryItPanel: Sendable, Equatable {
    var method: String
    var path: String
    /// `Name: value` lines.
    var headers: [String]
    var body: String
    /// A sentence shown above the Send button (for example: which key to paste).
    var note: String?

    /// What the panel says (HTML) while no server answers: how to start one, in a book's words
    /// (``SiteOptions/tryItOfflineNote``); nil says the theme's word (`tryit.offline.html`).
    var offlineNote: String?

    init(method: String, path: String, headers: [String], body: String, note: String? = nil) {
        (self.method, self.path, self.headers, self.body, self.note) = (method, path, headers, body, note)
    }

    /// Reads an `http` block: the request line, header lines, a blank line, the body.
    /// Nil when the first line is not `METHOD /path ...`.
    init?(httpLines lines: [String]) {
        guard let first = lines.first else { return nil }
        let parts = first.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[1].hasPrefix("/"),
            parts[0].allSatisfy({ $0.isLetter && $0.isUppercase })
        else { return nil }
        let rest = lines.dropFirst()
        let blank = rest.firstIndex { $0.trimmingCharacters(in: .whitespaces).isEmpty } ?? rest.endIndex
        var body = Array(rest[blank...].drop { $0.trimmingCharacters(in: .whitespaces).isEmpty })
        while let last = body.last, last.trimmingCharacters(in: .whitespaces).isEmpty { body.removeLast() }
        self.init(
            method: String(parts[0]), path: String(parts[1]), headers: Array(rest[..<blank]),
            body: body.joined(separator: "\n"))
    }

    /// The panel's markup, its labels in `words`.
    func html(_ words: SiteWords) -> String {
        var out = HTMLWriter()
        out.raw("<section class=\"try-it\" data-method=\"")
        out.text(method)
        out.raw("\" data-path=\"")
        out.text(path)
        out.raw("\" aria-label=\"")
        out.text(words.format(.tryitLabel, ["method": method, "path": path]))
        out.raw("\">\n<p class=\"try-it-title\">")
        out.text(words[.tryitTitle])
        out.raw(" <span class=\"try-it-method\">")
        out.text(method)
        out.raw("</span> <input class=\"try-it-path\" type=\"text\" value=\"")
        out.text(path)
        out.raw("\" aria-label=\"")
        out.text(words[.tryitPath])
        out.raw("\" spellcheck=\"false\"></p>\n<label class=\"try-it-label\">")
        out.text(words[.tryitHeaders])
        out.raw("\n<textarea class=\"try-it-headers\" rows=\"")
        out.raw(String(Self.rows(headers.count)))
        out.raw("\" spellcheck=\"false\">")
        out.text(headers.joined(separator: "\n"))
        out.raw("</textarea></label>\n<label class=\"try-it-label\">")
        out.text(words[.tryitBody])
        out.raw("\n<textarea class=\"try-it-body\" rows=\"")
        let bodyLines = body.isEmpty ? 0 : body.split(separator: "\n", omittingEmptySubsequences: false).count
        out.raw(String(Self.rows(bodyLines)))
        out.raw("\" spellcheck=\"false\"")
        if body.isEmpty {
            out.raw(" placeholder=\"")
            out.text(words[.tryitNoBody])
            out.raw("\"")
        }
        out.raw(">")
        out.text(body)
        out.raw("</textarea></label>\n")
        if let note {
            out.raw("<p class=\"try-it-note\">")
            out.raw(note)
            out.raw("</p>\n")
        }
        out.raw("<p class=\"try-it-offline\">\(offlineNote ?? words[.tryitOffline])</p>\n")
        out.raw("<button class=\"try-it-send\" type=\"button\">")
        out.text(words[.tryitSend])
        out.raw("</button>\n")
        out.raw("<div class=\"try-it-result\">\n<p class=\"try-it-status\" role=\"status\"></p>\n")
        out.raw("<pre class=\"try-it-response-headers\"></pre>\n<pre class=\"try-it-response\"></pre>\n")
        out.raw("</div>\n</section>\n")
        return out.string
    }

    /// A textarea tall enough for `lines`, within reason.
    private static func rows(_ lines: Int) -> Int { min(max(lines + 1, 2), 16) }
}
