import Foundation

/// A value in a transcript that changes from run to run, written as `<name>` in the expected
/// output and matching exactly one token of a documented shape.
///
/// The console checker runs every command against a server with a fixed seed, so most values
/// repeat from run to run; a reader's own server hands out others. A placeholder says "a value of
/// this shape stands here" without pinning it.
///
/// ```swift
/// Placeholder.clickId.shape     // "16 letters and digits"
/// OutputPattern(line: #"{"clickId":"<clickId>"}"#).matches(#"{"clickId":"Ab3dEf6hIj9kLm2n"}"#)  // true
/// ```
package enum Placeholder: String, CaseIterable, Sendable {
    /// The `clickId` of a `track/open` answer.
    case clickId
    /// A click token, as the interstitial plants it.
    case li2Cid = "li2_cid"
    /// A link id the server generated (`link_` and 16 letters and digits).
    case linkId
    /// A link key the server generated (7 letters and digits).
    case linkKey
    /// The `sale_event_id` of a sale.
    case saleEventId
    /// An ISO 8601 instant in UTC, as events carry it.
    case timestamp

    /// The regular expression one occurrence stands for, and the same shape in words (for the
    /// book's table and for messages), side by side so that they cannot drift apart.
    private var definition: (pattern: String, shape: String) {
        switch self {
        case .clickId, .li2Cid: ("[A-Za-z0-9]{16}", "16 letters and digits")
        case .linkId: ("link_[A-Za-z0-9]{16}", "link_ and 16 letters and digits")
        case .linkKey: ("[A-Za-z0-9]{7}", "7 letters and digits")
        case .saleEventId: ("sale_[A-Za-z0-9]{16}", "sale_ and 16 letters and digits")
        case .timestamp:
            (
                "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z",
                "an ISO 8601 UTC instant such as 2025-06-15T15:06:40.000Z"
            )
        }
    }

    /// The regular expression one occurrence stands for.
    var pattern: String { definition.pattern }

    /// The shape in words, for the book's table and for messages.
    var shape: String { definition.shape }

    /// `<name>`, as a transcript writes it.
    var token: String { "<\(rawValue)>" }
}

/// One expected line (or JSON string) with its placeholders, compiled to a whole-text pattern.
/// Text around the placeholders is literal; `<name>` with a name that is not a placeholder (such
/// as HTML's `<code>`) is literal too.
package struct OutputPattern {
    let text: String
    private let expression: NSRegularExpression?

    init(line text: String) {
        self.text = text
        var pattern = ""
        var rest = Substring(text)
        var hasPlaceholder = false
        while let open = rest.firstIndex(of: "<") {
            pattern += NSRegularExpression.escapedPattern(for: String(rest[..<open]))
            rest = rest[open...]
            if let placeholder = Placeholder.allCases.first(where: { rest.hasPrefix($0.token) }) {
                pattern += "(?:" + placeholder.pattern + ")"
                rest = rest.dropFirst(placeholder.token.count)
                hasPlaceholder = true
            } else {
                pattern += NSRegularExpression.escapedPattern(for: "<")
                rest = rest.dropFirst()
            }
        }
        pattern += NSRegularExpression.escapedPattern(for: String(rest))
        // Without a placeholder the comparison is plain equality.
        self.expression = hasPlaceholder ? try? NSRegularExpression(pattern: "^" + pattern + "$") : nil
    }

    /// Whether `actual` is the expected text, each placeholder standing for one token of its shape.
    func matches(_ actual: String) -> Bool {
        guard let expression else { return actual == text }
        let range = NSRange(actual.startIndex..<actual.endIndex, in: actual)
        return expression.firstMatch(in: actual, options: [.anchored], range: range)?.range == range
    }
}
