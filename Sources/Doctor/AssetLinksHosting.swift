import DeepLinkCore
import Foundation

/// Android's hosting rules for `/.well-known/assetlinks.json`, the counterpart of
/// `AASAHostingCheck` (chapter 4, "The site's half"): HTTPS, status 200 with no redirect, and
/// `Content-Type: application/json`. The verifier runs in the background at install time and
/// nobody is there to click through an error, so it follows no redirect and accepts nothing
/// but JSON. Findings reuse the `hosting.*` codes of the AASA check.
///
/// ```swift
/// AssetLinksHosting.check(FetchedResponse(
///     url: URL(string: "https://example.com/.well-known/assetlinks.json")!, statusCode: 200,
///     contentType: "text/html", body: Data())).map(\.code)  // ["hosting.content-type"]
/// ```
package enum AssetLinksHosting {
    static let wellKnownPath = "/.well-known/assetlinks.json"

    static func check(_ response: FetchedResponse) -> [LintFinding] {
        var findings: [LintFinding] = []
        let scheme = response.url.scheme?.lowercased()
        if scheme != "https" {
            if scheme == "http", DoctorTarget.loopbackHosts.contains(response.url.host?.lowercased() ?? "") {
                findings.append(
                    LintFinding(
                        .warning, "hosting.not-https", at: "response.url",
                        "plain HTTP is accepted here for local testing only; Android fetches over HTTPS"))
            } else {
                findings.append(
                    LintFinding(
                        .error, "hosting.not-https", at: "response.url",
                        "Android fetches the file over HTTPS only"))
            }
        }
        if (300..<400).contains(response.statusCode) || response.location != nil {
            let target = response.location.map { " to \($0)" } ?? ""
            findings.append(
                LintFinding(
                    .error, "hosting.redirect",
                    at: response.location == nil ? "response.status" : "response.headers.Location",
                    "the server redirects\(target); Android follows no redirect, serve the file directly"))
        } else if response.statusCode != 200 {
            findings.append(
                LintFinding(
                    .error, "hosting.status", at: "response.status",
                    "status \(response.statusCode); the file must be served with status 200"))
        }
        let mediaType = response.contentType?.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        if mediaType != "application/json" {
            findings.append(
                LintFinding(
                    .error, "hosting.content-type", at: "response.headers.Content-Type",
                    "Content-Type is \(response.contentType ?? "missing"); it must be application/json"))
        }
        return findings
    }
}
