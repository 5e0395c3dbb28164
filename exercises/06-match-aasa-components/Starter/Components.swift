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
    // TODO: Match the whole text, not a prefix, in time linear in the text (no backtracking: a
    //       test runs a pathological pattern). A `*` can eat nothing or one more character:
    //       follow both, as a set of pattern positions rather than by recursion (chapter 16).
    return pattern == text
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
    // TODO: For each component in order: it matches when its path pattern (if any) matches the
    //       path and its fragment pattern (if any) matches the fragment ("" when there is none).
    //       The first match decides: .excluded(rule:) for an exclude rule, .opens(rule:) otherwise.
    //       Trim trailing slashes from the path and its pattern; `/buy/*` also takes `/buy`.
    return .noMatch
}
