/// Turns heading texts into stable, unique anchor ids, the way GitHub does, so that a link
/// written against the Markdown on GitHub also works on the site.
///
/// Lower-case letters and digits stay, `-` and `_` stay, spaces become `-`, and every other
/// character is dropped. A repeated slug gets `-1`, `-2`, ... in document order.
///
/// ```swift
/// var slugger = Slugger()
/// slugger.slug(for: "The site's half: `assetlinks.json`")  // "the-sites-half-assetlinksjson"
/// slugger.slug(for: "Proving it")                           // "proving-it"
/// slugger.slug(for: "Proving it")                           // "proving-it-1"
/// ```
public struct Slugger: Sendable {
    private var used: [String: Int] = [:]

    public init() {}

    /// Reserves an id that headings must not take (for example a code block's id).
    public mutating func reserve(_ id: String) { used[id, default: 0] += 1 }

    public mutating func slug(for text: String) -> String {
        let base = Self.slug(text)
        guard let count = used[base] else {
            used[base] = 1
            return base
        }
        var suffix = count
        var candidate = "\(base)-\(suffix)"
        while used[candidate] != nil {
            suffix += 1
            candidate = "\(base)-\(suffix)"
        }
        used[base] = suffix + 1
        used[candidate] = 1
        return candidate
    }

    /// The slug of `text` without de-duplication; `section` when nothing is left.
    public static func slug(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.lowercased() {
            if character == " " {
                result.append("-")
            } else if character == "-" || character == "_" || character.isLetter || character.isNumber {
                result.append(character)
            }
        }
        return result.isEmpty ? "section" : result
    }
}
