import AttributionService
import Foundation

/// The files the server ships beside its code: the OpenAPI document and the interstitial
/// page's template. They are real files (easy to read, diff and validate), read once.
public enum ServerResources {
    /// `openapi.json`, served as is at `GET /api/v1/openapi.json`.
    public static let openAPIDocument: Data = load("openapi", "json")

    /// The interstitial page with `{{name}}` placeholders.
    public static let interstitialTemplate: String = String(
        decoding: load("interstitial", "html"), as: UTF8.self)

    private static func load(_ name: String, _ ext: String) -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: ext),
            let data = FileManager.default.contents(atPath: url.path)
        else {
            // The resources are part of the build; without them the build is broken.
            fatalError("MockServer resource \(name).\(ext) is missing from the bundle")
        }
        return data
    }
}

/// Fills the interstitial template for one visit.
///
/// The template is split into text and `{{name}}` slots once; each visit only joins the pieces.
/// (Foundation's `replacingOccurrences` rescans the whole page per value and, on Linux, bridges
/// through `NSString`: it made every iPhone visit cost milliseconds.)
///
/// ```swift
/// let html = InterstitialPage.render(page)  // the link shows as <code id="li2-clipboard-link">…</code>
/// ```
public enum InterstitialPage {
    public static func render(_ page: Interstitial, template: String = ServerResources.interstitialTemplate)
        -> String
    {
        let pieces =
            template == ServerResources.interstitialTemplate ? defaultPieces : Piece.split(template)
        var html = ""
        html.reserveCapacity(template.utf8.count + 512)
        for piece in pieces {
            switch piece {
            case .text(let text):
                html += text
            case .slot(let name):
                switch name {
                case "clipboardLink": html += escape(page.clipboardLink)
                case "appStoreURL": html += escape(page.appStoreURL)
                case "destination": html += escape(page.link.url)
                default: html += "{{\(name)}}"
                }
            }
        }
        return html
    }

    /// HTML-escapes text for an element's content or a quoted attribute: a destination URL
    /// is configured by whoever creates links, and must not become markup.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    private static let defaultPieces = Piece.split(ServerResources.interstitialTemplate)

    /// A run of template text, or a `{{name}}` slot.
    enum Piece: Equatable {
        case text(String)
        case slot(String)

        static func split(_ template: String) -> [Piece] {
            var pieces: [Piece] = []
            var rest = Substring(template)
            while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
                if open.lowerBound > rest.startIndex {
                    pieces.append(.text(String(rest[..<open.lowerBound])))
                }
                pieces.append(.slot(String(rest[open.upperBound..<close.lowerBound])))
                rest = rest[close.upperBound...]
            }
            if !rest.isEmpty { pieces.append(.text(String(rest))) }
            return pieces
        }
    }
}
