import DeepLinkCore
import Foundation
import Literate
import StrictJSON

/// The facts `workbook doctor` keeps from one HTTP response.
package struct FetchedResponse: Equatable, Sendable {
    /// The URL that was requested (never the target of a redirect: none is followed).
    package var url: URL
    package var statusCode: Int
    /// The `Location` header, if any.
    package var location: String?
    /// The `Content-Type` header, if any.
    package var contentType: String?
    package var body: Data

    package init(url: URL, statusCode: Int, location: String? = nil, contentType: String?, body: Data) {
        (self.url, self.statusCode, self.location, self.contentType, self.body) = (
            url, statusCode, location, contentType, body
        )
    }
}

extension FetchedResponse {
    /// What the hosting checks of DeepLinkCore read: the same facts, with the body's size only.
    var hosted: HostedFileResponse {
        HostedFileResponse(
            url: url, statusCode: statusCode, location: location, contentType: contentType,
            bodySize: body.count)
    }
}

/// What fetching one well-known file gave: a response, or the reason there was none.
package enum FetchOutcome: Equatable, Sendable {
    case response(FetchedResponse)
    /// No HTTP response at all: the connection failed or the fetch timed out.
    case failed(String)
}

/// The doctor's verdict on a site, computed from the fetched files and nothing else, so that it
/// is a pure function tests can call with made-up responses.
///
/// ```swift
/// let report = DoctorReport(target: target, aasa: aasaOutcome, assetLinks: assetLinksOutcome)
/// print(report.lines.joined(separator: "\n"))
/// report.passed  // true when both iOS and Android pass
/// ```
package struct DoctorReport: Equatable, Sendable {
    package var target: DoctorTarget
    package var ios: PlatformCheck
    package var android: PlatformCheck

    /// Every platform passes: the exit status is 0.
    package var passed: Bool { ios.passed && android.passed }

    /// `included` holds what fetching each statement list that `assetlinks.json` includes gave
    /// (``includedURLs(_:)`` says which to fetch); a list the file includes but `included` lacks
    /// is reported as not fetched.
    package init(
        target: DoctorTarget, aasa: FetchOutcome, assetLinks: FetchOutcome,
        included: [URL: FetchOutcome] = [:]
    ) {
        self.target = target
        ios = PlatformCheck.ios(aasa, url: target.aasaURL, link: target.link)
        android = PlatformCheck.android(
            assetLinks, url: target.assetLinksURL, link: target.link, included: included)
    }

    /// How many included statement lists the doctor fetches: Android reads one level of includes
    /// here, and a file that names more lists than this is reported, not fetched in full.
    package static let includeLimit = 4

    /// The statement lists a fetched `assetlinks.json` includes, to fetch next: https addresses
    /// only (plain http on the loopback interface too, for testing), each once, at most
    /// ``includeLimit``.
    package static func includedURLs(_ assetLinks: FetchOutcome) -> [URL] {
        guard case .response(let response) = assetLinks, response.statusCode == 200,
            let includes = try? AssetLinks.includes(from: response.body)
        else { return [] }
        var urls: [URL] = []
        for include in includes {
            guard let url = URL(string: include.url), let scheme = url.scheme?.lowercased(),
                let host = url.host?.lowercased(),
                scheme == "https" || (scheme == "http" && DoctorTarget.loopbackHosts.contains(host)),
                !urls.contains(url)
            else { continue }
            urls.append(url)
        }
        return Array(urls.prefix(includeLimit))
    }
}

/// One platform's half of the report: the response, the findings, and who opens the link.
package struct PlatformCheck: Equatable, Sendable {
    package enum Platform: String, Sendable {
        case ios = "iOS"
        case android = "Android"
    }

    /// The answer to "who opens the link?" for one platform.
    package enum Openers: Equatable, Sendable {
        /// The file was read: these apps (iOS app IDs, Android packages), perhaps none.
        case apps([String])
        /// There is no file to ask: no response, not a 200, or a body that cannot be read.
        case unknown
    }

    package var platform: Platform
    /// The URL of the well-known file.
    package var url: URL
    /// Whether the server answered at all.
    package var answered: Bool
    /// A summary of the response, or why there was none.
    package var response: String
    /// Hosting findings first, then the file's lint findings.
    package var findings: [LintFinding]
    /// Why the file itself was not linted, when it was not.
    package var fileNotChecked: String?
    /// Who opens the target's link; `nil` when no link was given.
    package var openers: Openers?
    /// A response arrived and no finding is an error.
    package var passed: Bool
    /// The statement lists the file includes, each checked as the file itself (Android only).
    package var included: [PlatformCheck] = []

    /// What differs between the platforms: the hosting rules, the file's lint, and who the file
    /// lets open a link.
    struct Rules: Sendable {
        var platform: Platform
        var hosting: @Sendable (HostedFileResponse) -> [LintFinding]
        var invalidJSONCode: String
        /// The file's findings, given the hosting findings (to leave out what they already said).
        var lint: @Sendable (Data, _ hosting: [LintFinding]) -> [LintFinding]
        /// The apps the file lets open `link`; nil when the file cannot be read as the model.
        var openers: @Sendable (Data, _ link: URL) -> [String]?
    }

    static let iosRules = Rules(
        platform: .ios, hosting: AASAHostingCheck.check, invalidJSONCode: "aasa.invalid-json",
        lint: { body, hosting in
            var lint = AASALinter.lint(body)
            // The hosting check already said the body is too large; once is enough.
            if hosting.contains(where: { $0.code == "hosting.size" }) {
                lint.removeAll { $0.code == "aasa.size" }
            }
            return lint
        },
        openers: { body, link in (try? AASAFile.decode(body)).map { AASAMatcher($0).appIDs(opening: link) } })

    static let androidRules = Rules(
        platform: .android, hosting: AssetLinksHostingCheck.check,
        invalidJSONCode: AssetLinksLinter.Code.invalidJSON,
        lint: { body, _ in AssetLinksLinter.lint(body) },
        openers: { body, _ in (try? AssetLinks.statements(from: body)).map(handlingPackages) })

    static func ios(_ outcome: FetchOutcome, url: URL, link: URL?) -> PlatformCheck {
        check(outcome, url: url, link: link, rules: iosRules)
    }

    /// The file, then each statement list it includes, fetched or not: the include's own
    /// findings count, and the apps it grants open the link too.
    static func android(_ outcome: FetchOutcome, url: URL, link: URL?, included: [URL: FetchOutcome] = [:])
        -> PlatformCheck
    {
        var file = check(outcome, url: url, link: link, rules: androidRules)
        guard case .response(let response) = outcome, response.statusCode == 200,
            let includes = try? AssetLinks.includes(from: response.body), !includes.isEmpty
        else { return file }
        let fetchable = DoctorReport.includedURLs(outcome)
        for include in includes {
            guard let includeURL = URL(string: include.url), fetchable.contains(includeURL) else {
                file.findings.append(
                    LintFinding(
                        .warning, "assetlinks.include-not-fetched", at: "[\(include.index)].include",
                        "not fetched: the doctor follows up to \(DoctorReport.includeLimit) https includes"))
                continue
            }
            let nested = check(
                included[includeURL] ?? .failed("not fetched"), url: includeURL, link: link,
                rules: androidRules)
            file.included.append(nested)
            if case .apps(let apps)? = nested.openers, case .apps(let own)? = file.openers {
                file.openers = .apps(own + apps.filter { !own.contains($0) })
            } else if case .apps? = nested.openers, file.openers == .unknown {
                file.openers = nested.openers
            }
        }
        file.passed = file.passed && file.included.allSatisfy(\.passed)
        return file
    }

    /// Hosting findings first; then, for a 200 that is strict JSON, the file's own findings and
    /// who it lets open the link.
    static func check(_ outcome: FetchOutcome, url: URL, link: URL?, rules: Rules) -> PlatformCheck {
        guard case .response(let response) = outcome else {
            return unanswered(rules.platform, outcome, url: url, link: link)
        }
        var findings = rules.hosting(response.hosted)
        var check = PlatformCheck(
            platform: rules.platform, url: url, answered: true, response: summary(response),
            findings: findings,
            fileNotChecked: nil, openers: link.map { _ in .unknown }, passed: false)
        if response.statusCode != 200 {
            check.fileNotChecked = notServed(response)
        } else if let finding = syntaxFinding(response.body, code: rules.invalidJSONCode) {
            findings.append(finding)
        } else {
            findings += rules.lint(response.body, findings)
            if let link, let apps = rules.openers(response.body, link) {
                check.openers = .apps(apps)
            }
        }
        check.findings = findings
        check.passed = !findings.hasErrors
        return check
    }

    /// A body that is not strict JSON, reported where it breaks. The linters parse with
    /// Foundation, which on Linux lets a trailing comma through; a strict parser would not.
    static func syntaxFinding(_ body: Data, code: String) -> LintFinding? {
        guard let problem = JSONSyntax.firstProblem(in: body) else { return nil }
        return LintFinding(
            .error, code, at: "$",
            "not valid JSON at line \(problem.line), column \(problem.column): \(problem.message)")
    }

    /// The packages granted `handle_all_urls`, in file order: the apps Android lets open every
    /// link of the host without asking. Which paths each takes is up to its intent filters.
    static func handlingPackages(_ statements: [AssetLinksStatement]) -> [String] {
        var packages: [String] = []
        for statement in statements where statement.relations.contains(AssetLinks.handleAllURLs) {
            if case .androidApp(let package, _) = statement.target, !packages.contains(package) {
                packages.append(package)
            }
        }
        return packages
    }

    private static func unanswered(
        _ platform: Platform, _ outcome: FetchOutcome, url: URL, link: URL?
    ) -> PlatformCheck {
        let reason: String
        switch outcome {
        case .failed(let text): reason = text
        case .response: reason = "no response"
        }
        return PlatformCheck(
            platform: platform, url: url, answered: false, response: "no response: \(reason)", findings: [],
            fileNotChecked: "there is no file to check", openers: link.map { _ in .unknown }, passed: false)
    }

    /// `status 301, Location: https://www.example.com/..., Content-Type: text/html, 162 bytes`
    static func summary(_ response: FetchedResponse) -> String {
        var parts = ["status \(response.statusCode)"]
        if let location = response.location { parts.append("Location: \(location)") }
        parts.append("Content-Type: \(response.contentType ?? "none")")
        parts.append(response.body.count == 1 ? "1 byte" : "\(response.body.count) bytes")
        return parts.joined(separator: ", ")
    }

    private static func notServed(_ response: FetchedResponse) -> String {
        "the body of a status \(response.statusCode) response is not the file"
    }
}

extension DoctorReport {
    /// The report as the command prints it.
    package var lines: [String] {
        var lines = ["Checking \(target.origin.absoluteString)"]
        if let link = target.link { lines.append("Link: \(link.absoluteString)") }
        if target.isLocalTest {
            lines.append(
                "note: plain HTTP is accepted for 127.0.0.1 and localhost, for testing; in production "
                    + "both files must be served over HTTPS")
        }
        lines.append("")
        lines += section(ios, title: "iOS (Universal Links)")
        lines.append("")
        lines += section(android, title: "Android (App Links)")
        lines.append("")
        lines.append("Result: iOS \(verdictWord(ios)), Android \(verdictWord(android))")
        return lines
    }

    private func section(_ check: PlatformCheck, title: String) -> [String] {
        var lines = ["\(title): \(check.url.absoluteString)", "  \(check.response)"]
        lines += findingLines(check, indent: "  ")
        for nested in check.included {
            lines.append("  included: \(nested.url.absoluteString)")
            lines.append("    \(nested.response)")
            lines += findingLines(nested, indent: "    ")
        }
        if let openers = check.openers {
            lines.append("  " + openersLine(check.platform, openers, passed: check.passed))
        }
        let findings = check.findings + check.included.flatMap(\.findings)
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.count - errors
        var counts: [String] = []
        if errors > 0 { counts.append(errors == 1 ? "1 error" : "\(errors) errors") }
        if warnings > 0 { counts.append(warnings == 1 ? "1 warning" : "\(warnings) warnings") }
        if !check.answered { counts.append("no response") }
        lines.append(
            "  verdict: \(verdictWord(check))"
                + (counts.isEmpty ? "" : " (\(counts.joined(separator: ", ")))"))
        return lines
    }

    /// A check's findings, or why its file was not checked, or that it has no problem.
    private func findingLines(_ check: PlatformCheck, indent: String) -> [String] {
        var lines = check.findings.map { indent + "\($0)" }
        if let reason = check.fileNotChecked {
            lines.append(indent + "file not checked: \(reason)")
        } else if check.findings.isEmpty {
            lines.append(indent + "no problems found")
        }
        return lines
    }

    private func openersLine(
        _ platform: PlatformCheck.Platform, _ openers: PlatformCheck.Openers, passed: Bool
    ) -> String {
        let caveat = passed ? "" : ", once the errors are fixed"
        switch (platform, openers) {
        case (_, .unknown):
            return "who opens the link: unknown, there is no readable file"
        case (.ios, .apps(let apps)):
            let answer = apps.isEmpty ? "no app (Safari opens it)" : apps.joined(separator: ", ")
            return "apps that open the link: \(answer)\(caveat)"
        case (.android, .apps(let packages)):
            let answer =
                packages.isEmpty
                ? "none (no statement grants handle_all_urls)"
                : packages.joined(separator: ", ") + " (if their intent filters take the path)"
            return "apps verified to open the link: \(answer)\(caveat)"
        }
    }

    private func verdictWord(_ check: PlatformCheck) -> String {
        check.passed ? "pass" : "FAIL"
    }
}
