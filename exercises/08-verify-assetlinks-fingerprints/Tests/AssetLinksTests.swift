import Foundation
import Testing

@testable import VerifyAssetlinksFingerprints

/// The keys of chapter 04, "Which fingerprints?": release (upload), Play App Signing, debug.
enum Keys {
    static let release =
        "A4:D4:51:EC:23:46:37:26:F7:2C:43:D6:4C:71:09:68:F6:B6:02:CD:65:3B:4D:E8:AD:EE:1B:55:62:40:A8:29"
    static let play =
        "28:7B:49:7C:15:52:8C:FD:AC:4E:40:AB:46:E9:70:67:DE:CF:FB:88:43:1D:56:81:02:1B:6D:C5:49:35:74:7D"
    static let debug =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    /// A SHA-1 fingerprint, which keytool prints just above the SHA-256 one.
    static let sha1 = "3C:1A:5E:9B:77:02:4F:C6:8D:31:AA:90:12:6B:E4:D5:07:FF:38:2C"
}

struct FingerprintCase: CustomTestStringConvertible, Sendable {
    var id: String
    var source: String
    var text: String
    var expected: String?
    var rule: String

    var testDescription: String { id }
}

struct VerifyCase: CustomTestStringConvertible, Sendable {
    var id: String
    var source: String
    var statements: [Statement]
    var package: String
    var fingerprint: String
    var expected: Verdict
    var rule: String

    var testDescription: String { id }
}

struct AssetLinksTests {
    static let fingerprints: [FingerprintCase] = [
        FingerprintCase(
            id: "canonical", source: "this book: chapter 04, The site's half: assetlinks.json",
            text: Keys.release,
            expected: Keys.release,
            rule: "a canonical fingerprint stays as it is"),
        FingerprintCase(
            id: "lower-case", source: "this book: chapter 17, Modelling the statements",
            text: Keys.release.lowercased(),
            expected: Keys.release, rule: "hex digits are upper-cased"),
        FingerprintCase(
            id: "no-colons", source: "this book: chapter 17, Modelling the statements",
            text: Keys.play.replacingOccurrences(of: ":", with: ""), expected: Keys.play,
            rule: "colons are optional in the input and always present in the output"),
        FingerprintCase(
            id: "sha1", source: "this book: chapter 04, Which fingerprints?", text: Keys.sha1, expected: nil,
            rule: "a SHA-1 fingerprint has 20 bytes, not 32: the classic mistake"),
        FingerprintCase(
            id: "not-hex", source: "this book: chapter 17, Modelling the statements",
            text: String(Keys.release.dropLast(2)) + "ZZ", expected: nil, rule: "only hex digits count"),
        FingerprintCase(
            id: "empty", source: "this book: chapter 17, Modelling the statements", text: "", expected: nil,
            rule: "nothing is no fingerprint"),
    ]

    static func app(_ package: String, _ fingerprints: [String], relations: [String] = [handleAllURLs])
        -> Statement
    {
        Statement(relations: relations, target: .androidApp(package: package, fingerprints: fingerprints))
    }

    static let verifications: [VerifyCase] = [
        VerifyCase(
            id: "authorised", source: "this book: chapter 04, Who is authorised? The verifier",
            statements: [app("com.example.shop", [Keys.release, Keys.play])], package: "com.example.shop",
            fingerprint: Keys.play, expected: .authorised(statement: 0),
            rule: "a listed package and fingerprint with handle_all_urls is authorised"),
        VerifyCase(
            id: "lower-case-entry-is-not-listed",
            source: "this book: chapter 04, Who is authorised? The verifier",
            statements: [app("com.example.shop", [Keys.release.lowercased()])], package: "com.example.shop",
            fingerprint: Keys.release, expected: .fingerprintNotListed(listed: [Keys.release.lowercased()]),
            rule: "Android compares the file's text exactly: a lower-case fingerprint names no certificate"),
        VerifyCase(
            id: "lower-case-question", source: "this book: chapter 17, Who is authorised? The verifier",
            statements: [app("com.example.shop", [Keys.release])], package: "com.example.shop",
            fingerprint: Keys.release.lowercased(), expected: .authorised(statement: 0),
            rule: "the fingerprint asked about may be written in any case: its canonical form is compared"),
        VerifyCase(
            id: "second-statement", source: "this book: chapter 17, Modelling the statements",
            statements: [
                Statement(relations: [handleAllURLs], target: .web(site: "https://example.com")),
                app("com.example.shop", [Keys.release]),
            ],
            package: "com.example.shop", fingerprint: Keys.release,
            expected: .authorised(statement: 1),
            rule: "statement indexes count every statement of the file, web targets too"),
        VerifyCase(
            id: "invalid-fingerprint", source: "this book: chapter 17, Who is authorised? The verifier",
            statements: [app("com.example.shop", [Keys.release])], package: "com.example.shop",
            fingerprint: Keys.sha1, expected: .invalidFingerprint(Keys.sha1),
            rule: "asking with a SHA-1 fingerprint is answered before looking at the file"),
        VerifyCase(
            id: "debug-package", source: "this book: chapter 04, The site's half: assetlinks.json",
            statements: [app("com.example.shop", [Keys.release]), app("com.example.news", [Keys.release])],
            package: "com.example.shop.debug", fingerprint: Keys.debug,
            expected: .packageNotListed(listed: ["com.example.shop", "com.example.news"]),
            rule: "com.example.shop.debug is another app; the verdict lists the packages the file names"),
        VerifyCase(
            id: "upload-key-instead-of-play-key", source: "this book: chapter 04, Which fingerprints?",
            statements: [app("com.example.shop", [Keys.release, Keys.debug.lowercased()])],
            package: "com.example.shop", fingerprint: Keys.play,
            expected: .fingerprintNotListed(listed: [Keys.release, Keys.debug.lowercased()]),
            rule: "a Play-installed build carries the Play App Signing key; list what the file writes"),
        VerifyCase(
            id: "listed-twice", source: "this book: chapter 17, Who is authorised? The verifier",
            statements: [app("com.example.shop", [Keys.release]), app("com.example.shop", [Keys.release])],
            package: "com.example.shop", fingerprint: Keys.debug,
            expected: .fingerprintNotListed(listed: [Keys.release]),
            rule: "each fingerprint is listed once in the verdict"),
        VerifyCase(
            id: "login-creds-only", source: "this book: chapter 04, The site's half: assetlinks.json",
            statements: [
                app(
                    "com.example.shop", [Keys.release],
                    relations: ["delegate_permission/common.get_login_creds"])
            ],
            package: "com.example.shop", fingerprint: Keys.release,
            expected: .relationMissing(statements: [0]),
            rule: "get_login_creds shares passwords; it does not let the app open links"),
        VerifyCase(
            id: "first-granting-statement", source: "this book: chapter 17, Who is authorised? The verifier",
            statements: [
                app(
                    "com.example.shop", [Keys.release],
                    relations: ["delegate_permission/common.get_login_creds"]),
                app("com.example.shop", [Keys.release]),
            ],
            package: "com.example.shop", fingerprint: Keys.release,
            expected: .authorised(statement: 1),
            rule: "the verdict names the first statement that grants handle_all_urls"),
    ]

    /// Read: chapters/04-app-links.md#which-fingerprints
    /// Read: chapters/04-app-links.md#who-is-authorised-the-verifier
    @Test(arguments: fingerprints)
    func fingerprintsCompareInCanonicalForm(_ testCase: FingerprintCase) {
        #expect(canonicalFingerprint(testCase.text) == testCase.expected, "\(testCase.id): \(testCase.rule)")
    }

    /// Read: chapters/04-app-links.md#who-is-authorised-the-verifier
    @Test(arguments: verifications)
    func theVerdictSaysWhatIsMissing(_ testCase: VerifyCase) {
        let verdict = verify(
            testCase.statements, package: testCase.package, fingerprint: testCase.fingerprint)
        #expect(verdict == testCase.expected, "\(testCase.id): \(testCase.rule)")
    }
}
