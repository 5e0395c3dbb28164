/// The words of the pages the server writes itself (the page shown while the site is being
/// built, the SDK reference's pages, a missing page of a site without its own `404.html`): the
/// site's words (`site/words.json`), which the live site's builder reads and hands over, since
/// the server knows no theme.
///
/// ```swift
/// let live = LiveSite(words: ServerWords { key, values in siteWords.format(key, values) })
/// live.words.format("live.building.title", [:])   // "Building the site..."
/// ```
public struct ServerWords: Sendable {
    /// The word for a key, its `{name}` placeholders filled from the values.
    public var format: @Sendable (_ key: String, _ values: [String: String]) -> String

    public init(_ format: @escaping @Sendable (_ key: String, _ values: [String: String]) -> String) {
        self.format = format
    }

    /// No words: each shows its key.
    public static let keysOnly = ServerWords { key, _ in key }

    public subscript(key: String) -> String { format(key, [:]) }

    /// Every key the server's pages use, for the check that the words have them all.
    public static let keys = [
        buildingTitle, buildingText, notFoundTitle, notFoundText, back, referenceNotBuiltTitle,
        referenceNotBuiltText, referenceBuildingTitle, referenceBuildingText, referenceFailedTitle,
        referenceFailedText,
    ]

    static let buildingTitle = "live.building.title"
    static let buildingText = "live.building.text"
    static let notFoundTitle = "live.not-found.title"
    static let notFoundText = "live.not-found.text"
    static let back = "live.back"
    static let referenceNotBuiltTitle = "reference.not-built.title"
    static let referenceNotBuiltText = "reference.not-built.html"
    static let referenceBuildingTitle = "reference.building.title"
    static let referenceBuildingText = "reference.building.html"
    static let referenceFailedTitle = "reference.failed.title"
    static let referenceFailedText = "reference.failed.html"
}
