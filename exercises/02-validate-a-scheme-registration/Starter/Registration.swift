import Foundation

/// One entry of `CFBundleURLTypes` in an app's Info.plist, as read from the file.
struct URLType: Equatable, Sendable {
    /// `CFBundleURLName`, by convention a reverse-DNS identifier such as `com.example.shop`.
    var name: String?
    /// `CFBundleURLSchemes`, exactly as written.
    var schemes: [String]
    /// `CFBundleTypeRole`: `Editor`, `Viewer`, `Shell` or `None`.
    var role: String?
}

/// One problem in a registration. `path` names the place in the plist, such as
/// `CFBundleURLTypes[0].CFBundleURLSchemes[1]`.
struct Finding: Equatable, Sendable, CustomStringConvertible {
    enum Severity: String, Sendable {
        case error
        case warning
    }

    var severity: Severity
    var code: String
    var path: String

    var description: String { "\(severity.rawValue) \(code) \(path)" }
}

/// Schemes the system or the web already owns; an app can never count on receiving them, so
/// validation refuses them (chapter 01, "Schemes you cannot have").
let wellKnownSchemes: Set<String> = [
    "about", "android-app", "app-settings", "blob", "content", "data", "facetime", "facetime-audio", "file",
    "ftp", "http", "https", "intent", "itms-apps", "itms-services", "javascript", "mailto", "maps", "market",
    "sms", "tel", "ws", "wss",
]

/// The roles Info.plist knows.
let knownRoles: Set<String> = ["Editor", "Viewer", "Shell", "None"]

/// At least two dot-separated labels of ASCII letters, digits, `-` or `_`: `com.example.shop`.
func isReverseDNS(_ name: String) -> Bool {
    let labels = name.split(separator: ".", omittingEmptySubsequences: false)
    return labels.count >= 2
        && labels.allSatisfy { label in
            !label.isEmpty
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) }
        }
}

/// Whether `name` follows RFC 3986's scheme grammar: an ASCII letter, then ASCII letters, digits,
/// `+`, `-` and `.`. Nothing else, not even `é` (which `Character.isLetter` accepts).
func isValidSchemeName(_ name: String) -> Bool {
    // TODO: Walk the characters. The first must be an ASCII letter; the rest ASCII letters,
    //       digits, "+", "-" or ".". An empty name is not valid, and neither is "myapp://".
    return true
}

/// Lints URL types in document order.
///
/// Errors: `scheme.invalid-name`, `scheme.well-known`, `scheme.duplicate` (schemes compare
/// case-insensitively; the finding points at the second registration), `url-type.empty-schemes`.
/// Warnings: `url-type.missing-name`, `url-type.name-not-reverse-dns`, `url-type.unknown-role`.
///
/// ```swift
/// lint([URLType(name: nil, schemes: ["myapp"])])
/// // [warning url-type.missing-name CFBundleURLTypes[0]]
/// ```
func lint(_ types: [URLType]) -> [Finding] {
    // TODO: For each URL type at index i (path "CFBundleURLTypes[i]"), in this order:
    //       1. a missing name (at the type's path) or a name that is not reverse-DNS
    //          (at ".CFBundleURLName"),
    //       2. an unknown role (at ".CFBundleTypeRole"),
    //       3. no schemes at all (at ".CFBundleURLSchemes"),
    //       4. each scheme j (at ".CFBundleURLSchemes[j]"): invalid name, else well-known
    //          (compare lower-cased), else registered before (anywhere, in any case).
    return []
}
