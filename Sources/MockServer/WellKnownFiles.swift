import DeepLinkCore
import Foundation

/// The two association files every link domain serves, generated from the configured apps and
/// linted with the book's own linters before the server accepts a single connection: a server
/// that taught association files must never serve a broken one.
///
/// ```swift
/// let files = try WellKnownFiles(configuration: configuration)
/// files.appleAppSiteAssociation  // the AASA JSON, or nil without an iOS app
/// ```
public struct WellKnownFiles: Equatable, Sendable {
    /// The `apple-app-site-association` body, nil when no iOS app is configured.
    public let appleAppSiteAssociation: Data?
    /// The `assetlinks.json` body, nil when no Android app is configured.
    public let assetLinks: Data?

    /// Paths the association file keeps away from the app: the API and the server's own pages.
    static let excludedPaths = ["/api/*", "/healthz", "/l/*"]

    public init(configuration: ServerConfiguration) throws(WellKnownFilesError) {
        if let ios = configuration.ios {
            let data = try Self.encode(Self.aasa(for: ios))
            let errors = AASALinter.lint(data).filter { $0.severity == .error }
            guard errors.isEmpty else {
                throw WellKnownFilesError(file: "apple-app-site-association", findings: errors)
            }
            appleAppSiteAssociation = data
        } else {
            appleAppSiteAssociation = nil
        }
        if let android = configuration.android {
            let data = try Self.assetLinksJSON(for: android)
            let errors = AssetLinksLinter.lint(data).filter { $0.severity == .error }
            guard errors.isEmpty else { throw WellKnownFilesError(file: "assetlinks.json", findings: errors) }
            assetLinks = data
        } else {
            assetLinks = nil
        }
    }

    /// Every short link opens the app; the API and the server's own pages never do.
    static func aasa(for app: ServerConfiguration.IOSApp) -> AASAFile {
        var components = excludedPaths.map { AASAFile.Component(path: $0, exclude: true) }
        components.append(AASAFile.Component(path: "/*", comment: "every short link"))
        return AASAFile(
            applinks: AASAFile.AppLinks(details: [
                AASAFile.Detail(appIDs: [app.appID], components: components)
            ]))
    }

    static func encode(_ file: AASAFile) throws(WellKnownFilesError) -> Data {
        do {
            return try file.encoded()
        } catch {
            throw WellKnownFilesError(file: "apple-app-site-association", findings: [])
        }
    }

    /// One statement: the app may handle all of the domain's URLs.
    static func assetLinksJSON(for app: ServerConfiguration.AndroidApp) throws(WellKnownFilesError) -> Data {
        let statement: [[String: Any]] = [
            [
                "relation": [AssetLinks.handleAllURLs],
                "target": [
                    "namespace": "android_app",
                    "package_name": app.package,
                    "sha256_cert_fingerprints": app.sha256CertFingerprints,
                ],
            ]
        ]
        do {
            return try JSONSerialization.data(
                withJSONObject: statement, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        } catch {
            throw WellKnownFilesError(file: "assetlinks.json", findings: [])
        }
    }
}

/// A generated association file that the linter rejects: the configuration is wrong.
public struct WellKnownFilesError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var findings: [LintFinding]

    public var description: String {
        (["the generated \(file) does not pass its linter:"] + findings.map { "  \($0)" })
            .joined(separator: "\n")
    }
}
