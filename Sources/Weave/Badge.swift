import Literate

/// The status a code block shows on the site: what proves it, said honestly.
///
/// It starts from the engine's `BlockStatus` (what `workbook check --report` prints) and adds
/// what only the site knows: `tested` when coverage data shows that a compiled block's lines
/// ran in the test suite, and `checkFailed` when its checker reported an error.
public enum Badge: Sendable, Equatable, Hashable {
    case compiled
    case tested
    case tangled
    case checked(by: String)
    case checkFailed(by: String)
    case parseChecked(module: String)
    case unused
    case displayOnly

    /// The site's badge for an engine status.
    public init(_ status: BlockStatus, tested: Bool = false, failed: Bool = false) {
        switch status {
        case .compiled: self = tested ? .tested : .compiled
        case .tangled: self = .tangled
        case .checked(let name): self = failed ? .checkFailed(by: name) : .checked(by: name)
        case .parseChecked(let module): self = .parseChecked(module: module)
        case .unused: self = .unused
        case .displayOnly: self = .displayOnly
        }
    }

    /// The badge's text, in `words`.
    public func label(_ words: SiteWords) -> String {
        switch self {
        case .compiled: words[.badgeCompiled]
        case .tested: words[.badgeTested]
        case .tangled: words[.badgeTangled]
        case .checked(let name): words.format(.badgeChecked, ["checker": name])
        case .checkFailed(let name): words.format(.badgeFailed, ["checker": name])
        case .parseChecked: words[.badgeParseChecked]
        case .unused: words[.badgeUnused]
        case .displayOnly: words[.badgeDisplayOnly]
        }
    }

    /// The CSS class suffix (`badge-compiled`).
    public var key: String {
        switch self {
        case .compiled: "compiled"
        case .tested: "tested"
        case .tangled: "tangled"
        case .checked: "checked"
        case .checkFailed: "failed"
        case .parseChecked: "parse-checked"
        case .unused: "unused"
        case .displayOnly: "display-only"
        }
    }

    /// The tooltip: what the badge promises, in `words`.
    public func explanation(_ words: SiteWords) -> String {
        switch self {
        case .compiled: words[.badgeCompiledTitle]
        case .tested: words[.badgeTestedTitle]
        case .tangled: words[.badgeTangledTitle]
        case .checked(let name): words.format(.badgeCheckedTitle, ["checker": name])
        case .checkFailed(let name): words.format(.badgeFailedTitle, ["checker": name])
        case .parseChecked(let module): words.format(.badgeParseCheckedTitle, ["module": module])
        case .unused: words[.badgeUnusedTitle]
        case .displayOnly: words[.badgeDisplayOnlyTitle]
        }
    }
}
