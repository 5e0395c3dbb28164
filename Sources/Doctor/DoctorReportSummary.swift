import DeepLinkCore
import Foundation

/// The doctor's report as data rather than lines: what the Link Lab's `POST /api/v1/lab/doctor`
/// answers. Same facts as ``DoctorReport/lines``, one value per platform.
package struct DoctorSummary: Equatable, Sendable {
    package struct Platform: Equatable, Sendable {
        package var platform: String
        package var url: String
        package var answered: Bool
        package var response: String
        package var passed: Bool
        package var findings: [LintFinding]
        package var fileNotChecked: String?
        /// Who opens the link: nil when no link was asked about or there is no readable file.
        package var apps: [String]?
        package var included: [Platform]
    }

    package var origin: String
    package var link: String?
    package var passed: Bool
    package var ios: Platform
    package var android: Platform
    /// The report as `workbook doctor` prints it.
    package var lines: [String]
}

extension DoctorReport {
    package var summary: DoctorSummary {
        DoctorSummary(
            origin: target.origin.absoluteString, link: target.link?.absoluteString, passed: passed,
            ios: Self.summary(ios), android: Self.summary(android), lines: lines)
    }

    private static func summary(_ check: PlatformCheck) -> DoctorSummary.Platform {
        var apps: [String]?
        if case .apps(let list)? = check.openers { apps = list }
        return DoctorSummary.Platform(
            platform: check.platform.rawValue, url: check.url.absoluteString, answered: check.answered,
            response: check.response, passed: check.passed, findings: check.findings,
            fileNotChecked: check.fileNotChecked, apps: apps, included: check.included.map(summary))
    }
}

extension DoctorTarget {
    /// The host the files are fetched from.
    package var host: String { origin.host ?? "" }
    /// The port the files are fetched from: the URL's, or its scheme's default.
    package var port: Int { origin.port ?? (origin.scheme == "http" ? 80 : 443) }
}

extension FetchedResponse {
    /// A response a fetcher outside this module read.
    package static func read(url: URL, statusCode: Int, location: String?, contentType: String?, body: Data)
        -> FetchedResponse
    {
        FetchedResponse(
            url: url, statusCode: statusCode, location: location, contentType: contentType, body: body)
    }
}
