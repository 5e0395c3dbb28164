/// The sections of the book that explain what the lab answers: each finding and verdict links
/// the one that states its rule. Site paths, as the pages are served; a test checks that each
/// names a heading that exists.
package enum LabSections {
    package static let aasaLinting = "chapters/03-universal-links.html#linting-the-file"
    package static let aasaMatching = "chapters/03-universal-links.html#which-app-opens-this-url"
    package static let aasaHosting = "chapters/03-universal-links.html#hosting-the-file"
    package static let assetLinksHosting = "chapters/04-app-links.html#the-sites-half-assetlinksjson"
    package static let entitlements = "chapters/03-universal-links.html#the-apps-half-associated-domains"
    package static let assetLinksLinting = "chapters/04-app-links.html#linting-the-file"
    package static let assetLinksVerifier = "chapters/04-app-links.html#who-is-authorised-the-verifier"
    package static let intentFilters = "chapters/04-app-links.html#the-apps-half-intent-filters"
    package static let explainingFilters = "chapters/04-app-links.html#explaining-the-answer"
    package static let apiLevels = "chapters/04-app-links.html#matching-a-link-against-a-filter"

    /// Every path above, for the test that proves them.
    package static let all = [
        aasaLinting, aasaMatching, aasaHosting, assetLinksHosting, entitlements, assetLinksLinting,
        assetLinksVerifier, intentFilters,
        explainingFilters, apiLevels,
    ]

    /// The section that explains a finding's code, by its area (`aasa.`, `assetlinks.`, …).
    package static func read(code: String) -> String? {
        if code.hasPrefix("aasa.") { return aasaLinting }
        if code.hasPrefix("assetlinks.") { return assetLinksLinting }
        if code.hasPrefix("entitlements.") { return entitlements }
        if code.hasPrefix("manifest.") { return intentFilters }
        if code.hasPrefix("applinks.") { return explainingFilters }
        return nil
    }
}
