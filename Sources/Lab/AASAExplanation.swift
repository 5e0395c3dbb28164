import DeepLinkCore
import Foundation

/// What each `applinks.details` entry decides for a URL, naming the rule that decided as it is
/// written in the file: the lines `workbook aasa match --explain` prints, and the entries the
/// lab's `explanation` lists.
///
/// ```swift
/// AASAExplanation.lines(matcher, url: URL(string: "https://example.com/help/app")!)
/// // ["details[0] ABCDE12345.com.example.shop: keeps its apps out: components[0] "
/// //  + "{\"/\":\"/help/*\",\"exclude\":true} matches and excludes it"]
/// ```
package enum AASAExplanation {
    /// One entry's decision.
    package struct Entry: Equatable, Sendable {
        /// Its index in `applinks.details`.
        package var index: Int
        package var appIDs: [String]
        /// `opens`, `excluded` or `no-match`.
        package var decision: String
        /// The deciding rule as the file spells it (`components[2] {"/":"/buy/*"}`); nil when
        /// no rule matched.
        package var rule: String?
        /// What the entry decides, in a sentence.
        package var reason: String
    }

    /// One entry per `details` entry, in file order.
    package static func entries(_ matcher: AASAMatcher, url: URL) -> [Entry] {
        let details = matcher.file.applinks?.details ?? []
        // Which entry decided each app first: a later entry cannot change that.
        var decidedBy: [String: Int] = [:]
        return matcher.verdicts(for: url).map { verdict in
            let detail = details[verdict.detail]
            let earlier = verdict.appIDs.compactMap { appID in decidedBy[appID].map { (appID, $0) } }
            if verdict.decision != .noMatch {
                for appID in verdict.appIDs where decidedBy[appID] == nil {
                    decidedBy[appID] = verdict.detail
                }
            }
            let note = earlier.map { " (not for \($0.0): details[\($0.1)] decided first)" }.joined()
            switch verdict.decision {
            case .opens(let rule):
                let spelled = describe(rule: rule, in: detail)
                return Entry(
                    index: verdict.detail, appIDs: verdict.appIDs, decision: "opens", rule: spelled,
                    reason: "opens the URL: \(spelled) matches" + note)
            case .excluded(let rule):
                let spelled = describe(rule: rule, in: detail)
                return Entry(
                    index: verdict.detail, appIDs: verdict.appIDs, decision: "excluded", rule: spelled,
                    reason: "keeps its apps out: \(spelled) matches and excludes it" + note)
            case .noMatch:
                return Entry(
                    index: verdict.detail, appIDs: verdict.appIDs, decision: "no-match", rule: nil,
                    reason: "decides nothing: no rule matches")
            }
        }
    }

    /// The sentence for a file without any `details` entry.
    package static let noDetails = "the file has no applinks.details entry, so no app opens any URL"

    /// `details[0] ABCDE12345.com.example.shop: opens the URL: …`, one line per entry.
    package static func lines(_ matcher: AASAMatcher, url: URL) -> [String] {
        let entries = entries(matcher, url: url)
        guard !entries.isEmpty else { return [noDetails] }
        return entries.map { entry in
            let apps = entry.appIDs.isEmpty ? "(no app ID)" : entry.appIDs.joined(separator: ", ")
            return "details[\(entry.index)] \(apps): \(entry.reason)"
        }
    }

    /// `components[2] {"/":"/product/*"}` or `paths[1] "NOT /help/*"`: the rule as the file
    /// spells it, so the reader can find it. iOS 13 and later read `components` when an entry
    /// has them and ignore its `paths`, and so does the matcher.
    package static func describe(rule: Int, in detail: AASAFile.Detail) -> String {
        if let components = detail.components, components.indices.contains(rule) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let json = (try? encoder.encode(components[rule])).map { String(decoding: $0, as: UTF8.self) }
            return "components[\(rule)] \(json ?? "")"
        }
        if let paths = detail.paths, paths.indices.contains(rule) {
            return "paths[\(rule)] \"\(paths[rule])\""
        }
        return "rule \(rule)"
    }
}
