/// An append-only buffer of UTF-8 bytes with the escaping HTML needs.
///
/// Pages are built as bytes, not as `String` concatenations: every append is amortised O(1) and
/// escaping runs over UTF-8 code units without creating intermediate strings.
///
/// ```swift
/// var html = HTMLWriter()
/// html.raw("<p>")
/// html.text("Tom & \"Jerry\" <3")
/// html.raw("</p>")
/// html.string  // <p>Tom &amp; &quot;Jerry&quot; &lt;3</p>
/// ```
public struct HTMLWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// The buffer as a string (for tests and small fragments).
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends markup as it is.
    public mutating func raw(_ markup: String) {
        var markup = markup
        markup.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends markup bytes as they are.
    public mutating func raw<Bytes: Sequence>(bytes more: Bytes) where Bytes.Element == UInt8 {
        bytes.append(contentsOf: more)
    }

    /// Appends text, escaping `&`, `<`, `>` and `"` (safe in element content and in double-quoted
    /// attribute values, as cmark escapes them).
    public mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { escape($0) }
    }

    /// Appends text from a substring of UTF-8 bytes, escaped like `text(_:)`.
    mutating func text(bytes source: ArraySlice<UInt8>) {
        source.withUnsafeBufferPointer { escape($0) }
    }

    private mutating func escape(_ source: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for index in 0..<source.count {
            let entity: StaticString
            switch source[index] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            default: continue
            }
            if start < index {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start..<index]))
            }
            bytes.append(
                contentsOf: UnsafeBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount))
            start = index + 1
        }
        if start < source.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start...])) }
    }

    /// Appends a URL for an `href` or `src` attribute the way cmark does: characters that are
    /// safe in a URL stay, `&` and `'` become entities, and everything else is percent-encoded
    /// (so a space or a non-ASCII letter in a destination still makes a valid link).
    public mutating func url(_ url: String) {
        for byte in url.utf8 {
            if byte == UInt8(ascii: "&") {
                raw("&amp;")
            } else if byte == UInt8(ascii: "'") {
                raw("&#x27;")
            } else if Self.isSafeInURL(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    /// Ends the current line unless the buffer is empty or already ends with a newline (cmark's
    /// `cr()`), so blocks start on lines of their own.
    public mutating func newlineIfNeeded() {
        if let last = bytes.last, last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isSafeInURL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        // Spelled out: a `contains` over a string of them costs a generic call a byte.
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "!"),
            UInt8(ascii: "*"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","), UInt8(ascii: "%"),
            UInt8(ascii: "#"), UInt8(ascii: "@"), UInt8(ascii: "?"), UInt8(ascii: "="), UInt8(ascii: ";"),
            UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "$"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}

/// String functions for HTML.
public enum HTML {
    /// `text` with `&`, `<`, `>` and `"` escaped.
    ///
    /// ```swift
    /// HTML.escape("a < b")  // "a &lt; b"
    /// ```
    public static func escape(_ text: String) -> String {
        var writer = HTMLWriter()
        writer.text(text)
        return writer.string
    }

    /// True for URLs a page must never follow: `javascript:`, `vbscript:`, `file:`, and `data:`
    /// other than the four common image types (cmark's rule for its safe mode). The book is
    /// trusted, but a rendered page should not be able to run script from a link by accident.
    public static func isDangerousURL(_ url: String) -> Bool {
        let lower = url.prefix(20).lowercased()
        for scheme in ["javascript:", "vbscript:", "file:"] where lower.hasPrefix(scheme) { return true }
        if lower.hasPrefix("data:") {
            return !["data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"].contains {
                lower.hasPrefix($0)
            }
        }
        return false
    }
}
