/// One rule of an AASA `components` list, reduced to the path (`/`) and the fragment (`#`).
/// The query (`?`) follows the same rules, so it is left out here.
struct Component: Equatable, Sendable {
    /// The `/` pattern; `nil` (absent) behaves like `*` and matches any path.
    var path: String?
    /// The `#` pattern; `nil` (absent) matches any fragment, including none.
    var fragment: String?
    /// An `exclude` rule stops the scan: the URL stays in Safari.
    var exclude = false
}

/// What one `details` entry decides for a URL; `rule` is the index in `components`.
enum Decision: Equatable, Sendable {
    case opens(rule: Int)
    case excluded(rule: Int)
    case noMatch
}

/// Whether the whole of `text` matches `pattern`. `*` matches any run of characters, even an empty
/// one, `/` included; `?` matches exactly one character; every other character matches itself
/// (ignoring case when `caseSensitive` is false).
///
/// ```swift
/// patternMatches("/buy/*", "/buy/a/b")     // true
/// patternMatches("/buy/*", "/buy")         // false: the slash is missing
/// patternMatches("/item/?*", "/item/")     // false: ?* needs one character at least
/// ```
func patternMatches(_ pattern: String, _ text: String, caseSensitive: Bool = true) -> Bool {
    let pattern = Array(caseSensitive ? pattern : pattern.lowercased())
    let text = Array(caseSensitive ? text : text.lowercased())
    // The set of pattern positions reachable after reading a prefix of the text. Walking it once
    // keeps the work at pattern × text, where naive backtracking can explode on `*a*a*a*b`.
    func closure(_ positions: Set<Int>) -> Set<Int> {
        var result = positions
        var pending = Array(positions)
        while let position = pending.popLast() {
            if position < pattern.count, pattern[position] == "*", result.insert(position + 1).inserted {
                pending.append(position + 1)
            }
        }
        return result
    }
    var current = closure([0])
    for character in text {
        var next: Set<Int> = []
        for position in current where position < pattern.count {
            switch pattern[position] {
            case "*": next.insert(position)
            case "?": next.insert(position + 1)
            case let literal where literal == character: next.insert(position + 1)
            default: break
            }
        }
        current = closure(next)
        if current.isEmpty { return false }
    }
    return current.contains(pattern.count)
}

/// Judges one `details` entry: the rules are tried in order and the first that matches decides.
/// A part the URL does not have (no fragment) is matched as the empty string. A path and a path
/// pattern lose their trailing slashes first, and a pattern that ends in `/*` also takes the path
/// without that last segment (`/buy/*` takes `/buy`), as Apple's `swcutil` does.
///
/// ```swift
/// decide([Component(path: "/help/*", exclude: true), Component(path: "/*")], path: "/help/faq", fragment: nil)
/// // .excluded(rule: 0): the scan stopped there, although rule 1 would have matched
/// ```
func decide(_ components: [Component], path: String, fragment: String?, caseSensitive: Bool = true)
    -> Decision
{
    for (index, component) in components.enumerated() {
        if let pattern = component.path, !pathMatches(pattern, path, caseSensitive: caseSensitive) {
            continue
        }
        if let pattern = component.fragment,
            !patternMatches(pattern, fragment ?? "", caseSensitive: caseSensitive)
        {
            continue
        }
        return component.exclude ? .excluded(rule: index) : .opens(rule: index)
    }
    return .noMatch
}

/// A path pattern against a path, with trailing slashes dropped from both; a pattern ending in
/// `/*` may also match the path without that segment.
func pathMatches(_ pattern: String, _ path: String, caseSensitive: Bool) -> Bool {
    func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }
    let pattern = trimmed(pattern)
    let path = trimmed(path)
    if patternMatches(pattern, path, caseSensitive: caseSensitive) { return true }
    guard pattern.hasSuffix("/*") else { return false }
    let parent = String(pattern.dropLast(2))
    return patternMatches(parent.isEmpty ? "/" : parent, path, caseSensitive: caseSensitive)
}
