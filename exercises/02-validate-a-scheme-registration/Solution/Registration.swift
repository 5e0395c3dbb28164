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
    guard let first = name.first, first.isASCII, first.isLetter else { return false }
    return name.dropFirst().allSatisfy { character in
        character.isASCII && (character.isLetter || character.isNumber || "+-.".contains(character))
    }
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
    var findings: [Finding] = []
    func add(_ severity: Finding.Severity, _ code: String, _ path: String) {
        findings.append(Finding(severity: severity, code: code, path: path))
    }
    var seen: Set<String> = []
    for (index, type) in types.enumerated() {
        let path = "CFBundleURLTypes[\(index)]"
        if let name = type.name {
            if !isReverseDNS(name) {
                add(.warning, "url-type.name-not-reverse-dns", path + ".CFBundleURLName")
            }
        } else {
            add(.warning, "url-type.missing-name", path)
        }
        if let role = type.role, !knownRoles.contains(role) {
            add(.warning, "url-type.unknown-role", path + ".CFBundleTypeRole")
        }
        if type.schemes.isEmpty {
            add(.error, "url-type.empty-schemes", path + ".CFBundleURLSchemes")
        }
        for (schemeIndex, scheme) in type.schemes.enumerated() {
            let schemePath = "\(path).CFBundleURLSchemes[\(schemeIndex)]"
            let lowered = scheme.lowercased()
            if !isValidSchemeName(scheme) {
                add(.error, "scheme.invalid-name", schemePath)
            } else if wellKnownSchemes.contains(lowered) {
                add(.error, "scheme.well-known", schemePath)
            } else if !seen.insert(lowered).inserted {
                // `MyApp` in one target and `myapp` in another are the same registration.
                add(.error, "scheme.duplicate", schemePath)
            }
        }
    }
    return findings
}
