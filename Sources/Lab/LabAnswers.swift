import CommandLineKit
import DeepLinkCore
import Doctor
import Foundation
import StrictJSON

/// The lab's answers: the book's matchers and linters asked about a reader's own files, with the
/// same verdicts the CLI prints (`workbook aasa match`, `applinks match`, `assetlinks verify`)
/// and every finding placed in the pasted text and linked to its section. Pure functions of
/// their input: the routes (``LabRoutes``) decode requests and encode these.
///
/// A broken file under test is not a request error: it is a finding in the answer. A request
/// that cannot be asked (a URL that is not one, an API level out of range) is a
/// ``LabRequestError``, which the routes answer with 400.
///
/// ```swift
/// let answer = try Lab.aasa(file: text, url: "https://example.com/buy/1")
/// answer.apps  // ["ABCDE12345.com.example.app"]
/// ```
package enum Lab {
    // MARK: AASA

    package struct AASAAnswer: Encodable, Equatable, Sendable {
        /// The app IDs that open the URL, in file order (`[]`: Safari opens it); null without a
        /// URL or when iOS cannot read the file.
        @ExplicitNull package var apps: [String]?
        @ExplicitNull package var explanation: [AASAEntry]?
        package var findings: [LabFinding]
    }

    package struct AASAEntry: Encodable, Equatable, Sendable {
        package var index: Int
        @ExplicitNull package var line: Int?
        package var appIDs: [String]
        package var decision: String
        @ExplicitNull package var rule: String?
        package var reason: String
        package var read: String
    }

    package static func aasa(file: String, url: String?) throws(LabRequestError) -> AASAAnswer {
        let target = try url.map { text throws(LabRequestError) in try webURL(text, field: "url") }
        let data = Data(file.utf8)
        let positions = JSONPositions(data)
        let findings = placed(AASALinter.lint(data), in: data, positions: positions)
        guard let target, let decoded = try? AASAFile.decode(data) else {
            return AASAAnswer(apps: nil, explanation: nil, findings: findings)
        }
        let matcher = AASAMatcher(decoded)
        let explanation = AASAExplanation.entries(matcher, url: target).map { entry in
            AASAEntry(
                index: entry.index, line: positions("applinks.details[\(entry.index)]")?.line,
                appIDs: entry.appIDs, decision: entry.decision, rule: entry.rule, reason: entry.reason,
                read: LabSections.aasaMatching)
        }
        return AASAAnswer(apps: matcher.appIDs(opening: target), explanation: explanation, findings: findings)
    }

    // MARK: App Links

    package struct AppLinksAnswer: Encodable, Equatable, Sendable {
        @ExplicitNull package var accepting: [AcceptingFilter]?
        @ExplicitNull package var explanation: [FilterEntry]?
        package var findings: [LabFinding]
    }

    package struct AcceptingFilter: Encodable, Equatable, Sendable {
        package var activity: String
        /// `app-link` or `deep-link`.
        package var kind: String
    }

    package struct FilterEntry: Encodable, Equatable, Sendable {
        package var activity: String
        package var line: Int
        /// `accepted` or `rejected`.
        package var verdict: String
        /// The line `workbook applinks match --explain` prints for the filter.
        package var reason: String
        /// The attributes (and relative filter groups) a device at the API level does not know.
        package var ignoredAtAPILevel: [String]
        package var read: String
    }

    package static func applinks(manifest: String, url: String, apiLevel: Int?, targetSDK: Int?)
        throws(LabRequestError) -> AppLinksAnswer
    {
        let level = try apiLevelValue(apiLevel, field: "apiLevel") ?? IntentFilter.latestAPILevel
        let target = try apiLevelValue(targetSDK, field: "targetSdk")
        let link: URL
        do {
            link = try CommandInput.url(url)
        } catch {
            throw LabRequestError(field: "url", message: message(of: error))
        }
        if let refused = XMLSafety.refusal(in: manifest) {
            return AppLinksAnswer(accepting: nil, explanation: nil, findings: [refused])
        }
        let parsed: AndroidManifest
        do {
            parsed = try AndroidManifestReader.read(Data(manifest.utf8))
        } catch {
            let finding = LabFinding(
                code: "manifest.unreadable", severity: "error", message: error.message, path: "manifest",
                line: error.line, column: error.column, read: LabSections.intentFilters)
            return AppLinksAnswer(accepting: nil, explanation: nil, findings: [finding])
        }
        let accepting = AppLinksListing.accepting(parsed, url: link, apiLevel: level, targetSDK: target).map {
            AcceptingFilter(activity: $0.activity, kind: $0.isAppLink ? "app-link" : "deep-link")
        }
        let filters = parsed.activities.flatMap(\.intentFilters)
        let lines = AppLinksListing.explanation(parsed, url: link, apiLevel: level, targetSDK: target)
        let reports = parsed.explain(url: link, apiLevel: level, targetSDK: target)
        let explanation = zip(reports, filters.isEmpty ? [] : lines).map { report, line in
            var ignored = report.ignoredAttributes.map(\.description)
            if report.ignoredGroups > 0 { ignored.append("uri-relative-filter-group") }
            return FilterEntry(
                activity: report.activity, line: report.line,
                verdict: { if case .accepted = report.verdict { "accepted" } else { "rejected" } }(),
                reason: line,
                ignoredAtAPILevel: ignored,
                read: ignored.isEmpty ? LabSections.explainingFilters : LabSections.apiLevels)
        }
        var findings: [LabFinding] = []
        if let note = AppLinksListing.legacyNote(parsed, url: link, apiLevel: level, targetSDK: target) {
            findings.append(
                LabFinding(
                    code: "applinks.target-sdk-unknown", severity: "warning", message: note, path: "manifest",
                    line: nil, column: nil, read: LabSections.explainingFilters))
        }
        return AppLinksAnswer(accepting: accepting, explanation: explanation, findings: findings)
    }

    // MARK: assetlinks.json

    package struct AssetLinksAnswer: Encodable, Equatable, Sendable {
        /// Whether the file authorises the app; null when Android's verifier cannot read it.
        @ExplicitNull package var authorised: Bool?
        @ExplicitNull package var reason: String?
        package var findings: [LabFinding]
    }

    package static func assetlinks(file: String, package name: String, fingerprint: String)
        throws(LabRequestError) -> AssetLinksAnswer
    {
        guard !name.isEmpty else {
            throw LabRequestError(field: "package", message: "the package name is empty")
        }
        let data = Data(file.utf8)
        let findings = placed(AssetLinksLinter.lint(data), in: data, positions: JSONPositions(data))
        let verdict: AssetLinksVerifier.Verdict
        do throws(AssetLinks.DecodeError) {
            verdict = try AssetLinksVerifier.verify(data, package: name, fingerprint: fingerprint)
        } catch {
            return AssetLinksAnswer(authorised: nil, reason: nil, findings: findings)
        }
        if case .invalidFingerprint = verdict {
            throw LabRequestError(
                field: "fingerprint",
                message: AssetLinksVerifier.message(verdict) + "; expected 32 hex bytes such as 14:6D:E9:...")
        }
        let authorised = if case .authorised = verdict { true } else { false }
        return AssetLinksAnswer(
            authorised: authorised, reason: AssetLinksVerifier.message(verdict), findings: findings)
    }

    // MARK: Entitlements

    package struct EntitlementsAnswer: Encodable, Equatable, Sendable {
        /// The `applinks:` entries that cover the URL's host, as written; null when the file is
        /// not a property list with the entitlement.
        @ExplicitNull package var covering: [String]?
        package var findings: [LabFinding]
    }

    package static func entitlements(file: String, url: String) throws(LabRequestError) -> EntitlementsAnswer
    {
        let target = try webURL(url, field: "url")
        let data = Data(file.utf8)
        let positions = PlistPositions(file, arrayKey: AssociatedDomainsEntitlements.key)
        let (read, lintFindings) = AssociatedDomainsEntitlements.read(data)
        let findings = lintFindings.map { finding in
            LabFinding(finding, position: { positions($0) }, read: LabSections.read(code: finding.code))
        }
        let unreadable = lintFindings.contains {
            ["entitlements.invalid-plist", "entitlements.type", "entitlements.missing-key"].contains($0.code)
                && ($0.path == "$"
                    || $0.path == JSONSyntax.path("$", member: AssociatedDomainsEntitlements.key))
        }
        guard !unreadable else { return EntitlementsAnswer(covering: nil, findings: findings) }
        let host = target.host ?? ""
        let covering = read.entries.filter { $0.service == .applinks && $0.covers(host: host) }.map { entry in
            "applinks:\(entry.domain)" + (entry.mode.map { "?mode=\($0.rawValue)" } ?? "")
        }
        return EntitlementsAnswer(covering: covering, findings: findings)
    }

    // MARK: Inputs

    /// An `http` or `https` URL with a host, by the CLI's rules and in its words.
    static func webURL(_ text: String, field: String) throws(LabRequestError) -> URL {
        do {
            return try CommandInput.webURL(text)
        } catch {
            throw LabRequestError(field: field, message: message(of: error))
        }
    }

    /// The one line a CLI input error says.
    static func message(of error: any Error) -> String {
        if case .badInput(let message)? = error as? CommandError { return message }
        return "\(error)"
    }

    static func apiLevelValue(_ value: Int?, field: String) throws(LabRequestError) -> Int? {
        guard let value else { return nil }
        guard (1...IntentFilter.latestAPILevel).contains(value) else {
            throw LabRequestError(
                field: field,
                message: "must be a whole number from 1 to \(IntentFilter.latestAPILevel), got \(value)")
        }
        return value
    }

    /// A JSON file's findings, each at its place in the text and linked to its section.
    static func placed(_ findings: [LintFinding], in data: Data, positions: JSONPositions) -> [LabFinding] {
        findings.map { finding in
            LabFinding(
                finding, position: placeOf(finding, in: data, positions: positions),
                read: LabSections.read(code: finding.code))
        }
    }

    /// A JSON syntax finding sits where the syntax breaks; the others where their path is.
    static func placeOf(_ finding: LintFinding, in data: Data, positions: JSONPositions)
        -> (String) -> (line: Int, column: Int)?
    {
        if finding.code.hasSuffix(".invalid-json"), let problem = JSONSyntax.firstProblem(in: data) {
            return { _ in (problem.line, problem.column) }
        }
        return { positions($0) }
    }
}

/// A request the lab cannot answer: which field, and why. The routes answer it with 400.
package struct LabRequestError: Error, Equatable, Sendable {
    package var field: String
    package var message: String
}
