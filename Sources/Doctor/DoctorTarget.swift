import CommandLineKit
import DeepLinkCore
import Foundation

/// What `workbook doctor` was asked about: a site, and perhaps one link on it.
///
/// `example.com` means `https://example.com`; `https://example.com/product/42` also asks which
/// apps open that link. Plain `http://` is accepted only for `127.0.0.1` and `localhost`, so the
/// book's mock server can be checked on a laptop; iOS and Android fetch both files over HTTPS.
///
/// ```swift
/// let target = try DoctorTarget.parse("https://example.com/product/42")
/// target.aasaURL  // https://example.com/.well-known/apple-app-site-association
/// target.link     // https://example.com/product/42
/// ```
package struct DoctorTarget: Equatable, Sendable {
    /// `scheme://host[:port]`, without a path.
    package var origin: URL
    /// The link to run the matchers on, when the input had a path, a query or a fragment.
    package var link: URL?

    /// Plain HTTP on the loopback interface: fine for testing, never for production.
    var isLocalTest: Bool { origin.scheme == "http" }

    package var aasaURL: URL { URL(string: origin.absoluteString + AASAHostingCheck.wellKnownPath)! }
    package var assetLinksURL: URL {
        URL(string: origin.absoluteString + AssetLinksHostingCheck.wellKnownPath)!
    }

    /// The hosts where plain HTTP is accepted for testing.
    static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost"]

    /// Parses a domain or a URL; anything else is bad input (exit 2).
    package static func parse(_ text: String) throws -> DoctorTarget {
        let notATarget = CommandError.badInput(
            "'\(text)' is neither a domain (example.com) nor a URL (https://example.com/path)")
        let spelled = text.contains("://") ? text : "https://" + text
        guard !text.isEmpty, let components = URLComponents(string: spelled),
            let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(),
            isHostName(host)
        else { throw notATarget }
        switch scheme {
        case "https":
            break
        case "http" where loopbackHosts.contains(host):
            break
        case "http":
            throw CommandError.badInput(
                "'\(text)' is plain HTTP; iOS and Android fetch these files over HTTPS only "
                    + "(http:// is accepted for 127.0.0.1 and localhost, for testing)")
        default:
            throw notATarget
        }
        var origin = URLComponents()
        origin.scheme = scheme
        origin.host = host
        origin.port = components.port
        guard let originURL = origin.url else { throw notATarget }
        let hasLink =
            !components.percentEncodedPath.isEmpty || components.percentEncodedQuery != nil
            || components.percentEncodedFragment != nil
        return DoctorTarget(origin: originURL, link: hasLink ? components.url : nil)
    }

    /// Letters, digits and hyphens in dot-separated labels, at least two of them (or
    /// `localhost`); an IPv4 address passes too.
    static func isHostName(_ host: String) -> Bool {
        if host == "localhost" { return true }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}
