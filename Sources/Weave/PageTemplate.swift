/// An HTML template from the theme, with `{{name}}` placeholders, read once and filled per page.
///
/// The known placeholders are listed in `slots`; `{{icon NAME}}` inlines the SVG file
/// `assets/icons/NAME.svg` of the theme (inline, so that icons take the text colour in both
/// themes), and `{{t KEY}}` the word `KEY` of the theme's `words.json` (``SiteWords``),
/// HTML-escaped, or as it is when the key ends in `.html`; a `{name}` inside the word that names
/// a slot is filled like `{{name}}` (`{source-path}`). An unknown placeholder, icon or word is an
/// error when the template is read, not a silent blank.
///
/// ```swift
/// let template = try PageTemplate(
///     text: "<title>{{title}} · {{t site.name}}</title>", icons: [:],
///     words: SiteWords(["site.name": "The Book"]))
/// template.render(["title": "Routing"])  // <title>Routing · The Book</title> (as bytes)
/// ```
public struct PageTemplate: Sendable, Equatable {
    /// The placeholders a page template may use.
    public static let slots: Set<String> = [
        "title", "description", "root", "page-kind", "sidebar", "content", "toc", "pager", "scripts",
        "source-path", "words-json", "lang", "alternates", "language-switch",
    ]

    private enum Part: Sendable, Equatable {
        case literal([UInt8])
        case slot(String)
    }

    private let parts: [Part]

    /// Parses `text`. `icons` maps icon names to their SVG markup; `words` gives the words that
    /// `{{t KEY}}` inlines (an unknown key throws ``WeaveMessage/unknownWord(key:line:)`` with
    /// the template's line).
    public init(text: String, icons: [String: String], words: SiteWords = SiteWords()) throws(WeaveMessage) {
        var parts: [Part] = []
        var literal: [UInt8] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            literal += Array(rest[..<open.lowerBound].utf8)
            guard let close = rest[open.upperBound...].range(of: "}}") else { throw .unclosedPlaceholder }
            let name = Self.trimSpaces(rest[open.upperBound..<close.lowerBound])
            if name.hasPrefix("icon ") {
                let icon = Self.trimSpaces(name.dropFirst(5))
                guard let svg = icons[icon] else { throw .unknownPlaceholder(name: name) }
                literal += Array(svg.utf8)
            } else if name.hasPrefix("t ") {
                let key = Self.trimSpaces(name.dropFirst(2))
                guard let word = words.entries[key] else {
                    let line = text[..<open.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
                    throw .unknownWord(key: key, line: line)
                }
                Self.inline(word, isHTML: key.hasSuffix(".html"), into: &parts, literal: &literal)
            } else {
                guard Self.slots.contains(name) else { throw .unknownPlaceholder(name: name) }
                parts.append(.literal(literal))
                literal = []
                parts.append(.slot(name))
            }
            rest = rest[close.upperBound...]
        }
        literal += Array(rest.utf8)
        parts.append(.literal(literal))
        self.parts = parts
    }

    /// The page: each placeholder replaced by its value's bytes (missing values are empty).
    public func render(_ values: [String: [UInt8]]) -> [UInt8] {
        let pieces = render(pieces: values.mapValues { [$0[...]] })
        var output: [UInt8] = []
        output.reserveCapacity(pieces.reduce(0) { $0 + $1.count })
        for piece in pieces { output += piece }
        return output
    }

    /// The page as the pieces it is made of, in order, without copying any of them: a page is
    /// written piece by piece, so that a long page (the whole book) is never joined in memory.
    /// A placeholder's value may itself be several pieces.
    public func render(pieces values: [String: [ArraySlice<UInt8>]]) -> [ArraySlice<UInt8>] {
        var output: [ArraySlice<UInt8>] = []
        output.reserveCapacity(parts.count + 8)
        for part in parts {
            switch part {
            case .literal(let bytes): output.append(bytes[...])
            case .slot(let name): output += values[name] ?? []
            }
        }
        return output
    }

    /// A word in the page: escaped unless it is HTML, and each `{slot}` in it a slot.
    private static func inline(_ word: String, isHTML: Bool, into parts: inout [Part], literal: inout [UInt8])
    {
        var text = ""
        func flush() {
            literal += Array((isHTML ? text : HTML.escape(text)).utf8)
            text = ""
        }
        var rest = Substring(word)
        while let open = rest.firstIndex(of: "{") {
            text += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"),
                slots.contains(String(rest[afterOpen..<close]))
            {
                flush()
                parts.append(.literal(literal))
                literal = []
                parts.append(.slot(String(rest[afterOpen..<close])))
                rest = rest[rest.index(after: close)...]
            } else {
                text.append("{")
                rest = rest[afterOpen...]
            }
        }
        text += rest
        flush()
    }

    private static func trimSpaces(_ text: Substring) -> String {
        String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    /// `render` with string values, for small pages and tests.
    public func render(strings values: [String: String]) -> String {
        String(decoding: render(values.mapValues { Array($0.utf8) }), as: UTF8.self)
    }
}
