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

    /// The badge's text.
    public var label: String {
        switch self {
        case .compiled: "compiled"
        case .tested: "tested"
        case .tangled: "tangled"
        case .checked(let name): "checked as \(name)"
        case .checkFailed(let name): "check failed (\(name))"
        case .parseChecked: "parse-checked (Apple-only)"
        case .unused: "unused"
        case .displayOnly: "display-only"
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

    /// The tooltip: what the badge promises.
    public var explanation: String {
        switch self {
        case .compiled:
            "Tangled into a Swift file that the package compiles on every change."
        case .tested:
            "Compiled, and at least one of its lines ran in the test suite (measured with code coverage)."
        case .tangled:
            "Tangled into a file outside the Swift sources."
        case .checked(let name):
            "Validated by the '\(name)' checker on every 'workbook check'."
        case .checkFailed(let name):
            "The '\(name)' checker reports an error for this snippet: run 'workbook check'."
        case .parseChecked(let module):
            "Apple-only Swift (needs \(module)): parsed with swiftc here, compiled only on Apple platforms."
        case .unused:
            "A named chunk that no file includes."
        case .displayOnly:
            "Nothing checks this snippet: it is shown as written."
        }
    }
}
