import DeepLinkCore
import Foundation

/// What `workbook applinks match` prints, kept apart from the printing so tests can call it.
package enum AppLinksListing {
    /// One filter that accepts a URL: `com.example.shop.MainActivity app-link`.
    package struct Line: Equatable, Sendable, CustomStringConvertible {
        package var activity: String
        /// The app verifies the URL's host and the filter takes web links from a browser.
        package var isAppLink: Bool

        package init(activity: String, isAppLink: Bool) {
            (self.activity, self.isAppLink) = (activity, isAppLink)
        }

        package var description: String { "\(activity) \(isAppLink ? "app-link" : "deep-link")" }
    }

    /// Every filter, in manifest order, that declares `VIEW` and whose merged `<data>` accepts
    /// `url`. Categories are left out on purpose: `adb shell am start` or another app can send
    /// the link without `BROWSABLE`, so the filter does take it; `--explain` says what a
    /// browser would do.
    package static func accepting(
        _ manifest: AndroidManifest, url: URL, apiLevel: Int = IntentFilter.latestAPILevel,
        targetSDK: Int? = nil
    ) -> [Line] {
        let uri = AndroidURI(url)
        let hostIsVerified = manifest.verifyingFilter(for: url, targetSDK: targetSDK) != nil
        return manifest.activities.flatMap { activity in
            activity.intentFilters.compactMap { filter -> Line? in
                guard filter.actions.contains(IntentFilterMatcher.actionView),
                    IntentFilterMatcher.matchData(filter, uri: uri, apiLevel: apiLevel) == nil
                else { return nil }
                return Line(
                    activity: activity.name,
                    isAppLink: IntentFilterMatcher.opensAsAppLink(
                        filter, uri: uri, hostIsVerified: hostIsVerified))
            }
        }
    }

    /// The report of every filter (``AndroidManifest/explain(url:)``), each followed by a note
    /// when the filter has no `BROWSABLE` category and its verdict does not already say so.
    package static func explanation(
        _ manifest: AndroidManifest, url: URL, apiLevel: Int = IntentFilter.latestAPILevel,
        targetSDK: Int? = nil
    ) -> [String] {
        let filters = manifest.activities.flatMap(\.intentFilters)
        guard !filters.isEmpty else {
            return ["the manifest declares no intent filter, so no link opens the app"]
        }
        return zip(manifest.explain(url: url, apiLevel: apiLevel, targetSDK: targetSDK), filters).map {
            report, filter in
            let saysSo = report.verdict == .rejected(.noBrowsableCategory)
            guard !IntentFilterMatcher.canOpenFromBrowser(filter), !saysSo else {
                return report.description
            }
            return report.description + "; " + noBrowsableNote
        }
    }

    package static let noBrowsableNote = "no BROWSABLE category, so a browser cannot open it"

    /// When the app's target is unknown (no `targetSdkVersion` in the manifest, no
    /// `--target-sdk`) and an app targeting API 30 or lower would get another answer: a note that
    /// says so. Nil otherwise.
    package static func legacyNote(
        _ manifest: AndroidManifest, url: URL, apiLevel: Int, targetSDK: Int?
    ) -> String? {
        guard targetSDK == nil, manifest.targetSDKVersion == nil else { return nil }
        let legacy = IntentFilterMatcher.restrictedDomainsTargetSDK - 1
        let modern = accepting(manifest, url: url, apiLevel: apiLevel)
        let older = accepting(manifest, url: url, apiLevel: apiLevel, targetSDK: legacy)
        guard older != modern else { return nil }
        let listing = older.isEmpty ? "no filter" : older.map(\.description).joined(separator: ", ")
        return "note: the manifest states no targetSdkVersion, so this answers for an app targeting API 31 "
            + "or later; targeting API \(legacy) or lower, Android would verify the host through any "
            + "filter's autoVerify: \(listing) (pass --target-sdk N to choose)"
    }
}
