/// One statement of `/.well-known/assetlinks.json`: the site grants `relations` to `target`.
struct Statement: Equatable, Sendable {
    enum Target: Equatable, Sendable {
        /// An Android app: its package name and the SHA-256 fingerprints of its signing certificates.
        case androidApp(package: String, fingerprints: [String])
        /// Another web site (for sharing credentials); never an app.
        case web(site: String)
    }

    var relations: [String]
    var target: Target
}

/// The relation App Links need: "this app may open my links".
let handleAllURLs = "delegate_permission/common.handle_all_urls"

/// The answer to "does this file authorise this build?", and if not, what is missing.
enum Verdict: Equatable, Sendable {
    /// Statement `statement` (an index in the file) grants the relation.
    case authorised(statement: Int)
    /// The fingerprint asked about is not 32 bytes of hex.
    case invalidFingerprint(String)
    /// No statement names the package; `listed` are the packages that are named, in file order.
    case packageNotListed(listed: [String])
    /// The package is named, but not with this certificate; `listed` are the fingerprints the file
    /// gives that package, as it writes them, in file order, each once. A fingerprint written in
    /// lower case is listed but never matches: Android compares the file's text exactly with the
    /// canonical form of the certificate it checks.
    case fingerprintNotListed(listed: [String])
    /// Package and fingerprint are named, but those statements (indexes) do not grant the relation.
    case relationMissing(statements: [Int])
}

/// The canonical form of a SHA-256 certificate fingerprint: 32 bytes as uppercase hex pairs
/// joined by colons. Accepts any case, with or without colons; `nil` when it is not 32 bytes of
/// hex (a SHA-1 fingerprint has 20).
///
/// ```swift
/// canonicalFingerprint("a4d451ec...")   // "A4:D4:51:EC:..."
/// ```
func canonicalFingerprint(_ text: String) -> String? {
    // TODO: Drop the colons, upper-case, require exactly 64 hex digits, then join the pairs with ":".
    return text
}

/// Whether `statements` grant `handle_all_urls` to `package` signed with `fingerprint`.
func verify(_ statements: [Statement], package: String, fingerprint: String) -> Verdict {
    // TODO: 1. an invalid fingerprint asked about -> .invalidFingerprint(fingerprint)
    //       2. no android_app statement for the package -> .packageNotListed(every app package, once)
    //       3. none of them lists the canonical form of the fingerprint, exactly as the file writes
    //          it -> .fingerprintNotListed(what the file lists for the package, as written, once each)
    //       4. none of those grants handleAllURLs -> .relationMissing(their indexes)
    //       5. otherwise .authorised(statement: first granting index)
    return .packageNotListed(listed: [])
}
