import Foundation

/// One HTTP answer as `curl -i` shows it, with no redirect followed.
struct Fetch: Sendable {
    var status: Int
    /// The headers as the server sent them. Header names compare without case (RFC 9110 §5.1).
    var headers: [String: String]
    var body: Data

    init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// The build on the user's phone, as its signing settings and its launch code say.
struct AppBuild: Sendable {
    var teamID: String
    var bundleID: String
    /// The strings of the `com.apple.developer.associated-domains` entitlement.
    var associatedDomains: [String]
    /// What the app passes to `Li2.configure(publishableKey:deepLinkDomains:apiBaseURL:)`.
    var publishableKey: String
    var deepLinkDomains: [String]
    var apiBaseURL: String
}

/// What support collected about one link that "does not work".
struct SupportReport: Sendable {
    /// The link the user tapped.
    var link: URL
    var build: AppBuild
    /// `GET https://<link's host>/.well-known/apple-app-site-association`, no redirect followed.
    var associationFile: Fetch
    /// `GET https://app-site-association.cdn-apple.com/a/v1/<link's host>`, when collected.
    var cdnCopy: Fetch?
}

/// One failure of chapter 11's list, as a support engineer names it.
enum Finding: Equatable, Sendable {
    /// No `applinks:` entry of the entitlement covers the link's host.
    case domainNotInEntitlement(String)
    /// The association file answers with a redirect (3xx) to this `Location`.
    case redirect(to: String)
    /// The association file answers with this status, neither 200 nor a redirect.
    case fileNotServed(status: Int)
    /// The association file comes with this `Content-Type` (empty when none was sent).
    case wrongContentType(String)
    /// The body is not JSON with an `applinks.details` array.
    case unreadableFile
    /// The file does not name the build's app ID; `listed` is what it names, in file order.
    case appIDNotListed(appID: String, listed: [String])
    /// Your server's file is right, but Apple's CDN still hands out a copy without the app.
    case staleCDNCopy
    /// The host is not among the SDK's `deepLinkDomains`: the resolver ignores the link.
    case domainNotInSDKConfig(String)
    /// The publishable key is empty.
    case emptyKey
    /// A secret key (`li2_sk_…`) is in the app.
    case secretKeyInApp
    /// The API root does not end in `/api/v1`.
    case apiRootWithoutVersion

    /// The fix, in chapter 11's words. Already written.
    var fix: String {
        switch self {
        case .domainNotInEntitlement(let host):
            return
                "add applinks:\(host) to the Associated Domains entitlement; www and the apex are two domains"
        case .redirect(let location):
            return
                "serve the file directly with status 200; Apple does not follow the redirect to \(location)"
        case .fileNotServed(let status):
            return "serve /.well-known/apple-app-site-association with status 200 (it answered \(status))"
        case .wrongContentType(let type):
            return "send Content-Type: application/json for the file (it sent '\(type)')"
        case .unreadableFile:
            return "serve valid JSON with an applinks.details array; lint it with workbook aasa lint"
        case .appIDNotListed(let appID, _):
            return "name \(appID) in the file, or ship the bundle ID the file names"
        case .staleCDNCopy:
            return "wait for Apple's CDN (it asks for the file within 24 hours, devices about once a week); "
                + "while developing, use ?mode=developer"
        case .domainNotInSDKConfig(let host):
            return "add \(host) to deepLinkDomains in Li2.configure"
        case .emptyKey:
            return "put the publishable key (li2_pk_…) where the build reads it"
        case .secretKeyInApp:
            return "ship the publishable key, and replace the leaked secret key in the dashboard"
        case .apiRootWithoutVersion:
            return "leave apiBaseURL out, or give the whole root, /api/v1 included"
        }
    }
}

/// Every finding in `report`, in the order a tap meets them: iOS's side (the entitlement, the
/// file's hosting, the file, Apple's copy), then the app's (the SDK's domains, the key, the API
/// root). An empty list means that nothing collected explains the symptom.
///
/// ```swift
/// diagnose(report)   // [.redirect(to: "https://www.go.example/.well-known/apple-app-site-association")]
/// ```
func diagnose(_ report: SupportReport) -> [Finding] {
    // TODO: iOS's side. Does an applinks: entry of the entitlement claim the link's host (a
    //       ?mode= suffix is harmless; *.parent covers subdomains only)?
    // TODO: The file's hosting: a 3xx is a redirect (name its Location), any other status but 200
    //       means it is not served. With a 200, the Content-Type's media type must be
    //       application/json, and the body must name TEAMID.bundleID in applinks.details.
    // TODO: Apple's copy, only when your server's file is right: does it name the app too?
    // TODO: The app's side: the host among deepLinkDomains, the key, the API root.
    return []
}
