import Foundation
import Testing

/// `workbook assetlinks lint` and `workbook assetlinks verify` as a user runs them.
struct AssetLinksCommandTests {
    static let release =
        "A5:4D:CA:18:25:30:BB:1D:6D:13:2C:DE:D6:23:7B:2E:D9:1E:3F:72:1F:CB:19:71:17:44:94:D6:49:3C:9D:5C"
    static let playSigning =
        "34:60:BE:31:20:1E:69:FE:DA:A0:EE:E8:B9:99:7F:5C:7C:29:99:FD:AF:E5:93:25:3C:D6:54:AF:4D:FA:D7:14"
    static let wallet =
        "27:A0:AE:B3:FE:E9:23:2F:8A:F2:21:1F:9E:E4:91:C5:B1:0B:EC:B5:56:3B:FC:1E:6F:93:42:7E:CB:C8:FE:29"

    @Test func lintPrintsNothingForACleanFile() async throws {
        let output = try await SubjectFixtures.run(["assetlinks", "lint", "assetlinks.json"])
        #expect(output.status == 0)
        #expect(output.stdout == "")
        #expect(output.stderr == "")
    }

    @Test func lintPrintsFindingsInFileOrderAndFailsOnErrors() async throws {
        let output = try await SubjectFixtures.run(["assetlinks", "lint", "assetlinks-errors.json"])
        #expect(output.status == 1)
        #expect(
            output.stdout == """
                assetlinks-errors.json: warning assetlinks.unknown-relation [0].relation[1]: unknown relation \
                "delegate_permission/common.open_links"; App Links need delegate_permission/common.handle_all_urls
                assetlinks-errors.json: error assetlinks.package-name [0].target.package_name: "shop" is not a \
                valid package name: two or more dot-separated parts, each starting with a letter and holding only \
                letters, digits and underscores
                assetlinks-errors.json: error assetlinks.fingerprint-lowercase \
                [0].target.sha256_cert_fingerprints[0]: write fingerprints in uppercase, as keytool prints them: \
                \(Self.release)

                """)
    }

    @Test func warningsAloneDoNotFailTheLint() async throws {
        let output = try await SubjectFixtures.run(["assetlinks", "lint", "assetlinks-warnings.json"])
        #expect(output.status == 0)
        #expect(
            output.stdout == """
                assetlinks-warnings.json: warning assetlinks.no-app-links $: no statement grants \
                delegate_permission/common.handle_all_urls to an android_app, so no App Link can verify

                """)
    }

    @Test func anObjectInsteadOfAnArrayIsAnErrorFinding() async throws {
        let output = try await SubjectFixtures.run(["assetlinks", "lint", "assetlinks-object.json"])
        #expect(output.status == 1)
        #expect(
            output.stdout
                == "assetlinks-object.json: error assetlinks.not-an-array $: the top level must be a JSON array of statements\n"
        )
    }

    @Test func invalidJSONAndMissingFilesAreBadInput() async throws {
        let invalid = try await SubjectFixtures.run(["assetlinks", "lint", "aasa-not-json.json"])
        #expect(invalid.status == 2)
        #expect(
            invalid.stderr
                == "error: aasa-not-json.json:3:18: not valid JSON: a comma before '}': remove the trailing comma\n"
        )
        let missing = try await SubjectFixtures.run(["assetlinks", "lint", "gone.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "error: gone.json: no such file\n")
        let folder = try await SubjectFixtures.run(["assetlinks", "lint", "."])
        #expect(folder.status == 2)
        #expect(folder.stderr == "error: .: is a folder, not a file\n")
    }

    @Test func verifyAuthorisesAListedBuild() async throws {
        let output = try await SubjectFixtures.run([
            "assetlinks", "verify", "assetlinks.json", "--package", "com.example.shop", "--fingerprint",
            Self.playSigning,
        ])
        #expect(output.status == 0)
        #expect(output.stdout == "authorised by statement [0]\n")
        #expect(output.stderr == "")
    }

    /// The fingerprint asked about may come in any case; the file's entries may not, since
    /// Android compares them exactly (source: "AOSP: AndroidAppAssetMatcher.java").
    @Test func verifyTakesAnyCaseButTheFileMustBeUppercase() async throws {
        let lowercase = try await SubjectFixtures.run([
            "assetlinks", "verify", "assetlinks.json", "--package", "com.example.shop",
            "--fingerprint=" + Self.release.lowercased().replacingOccurrences(of: ":", with: ""),
        ])
        #expect(lowercase.status == 0)
        #expect(lowercase.stdout == "authorised by statement [0]\n")
        let fileInLowercase = try await SubjectFixtures.run([
            "assetlinks", "verify", "assetlinks-errors.json", "--package", "shop", "--fingerprint",
            Self.release,
        ])
        #expect(fileInLowercase.status == 1)
        #expect(
            fileInLowercase.stdout
                == "not authorised: statement [0] writes the certificate as \(Self.release.lowercased()); "
                + "Android compares the file's text exactly with the fingerprint it computes, \(Self.release), "
                + "so write it in uppercase with colons\n")
    }

    @Test func verifySaysWhatIsMissing() async throws {
        let cases: [(package: String, fingerprint: String, expected: String)] = [
            (
                "com.example.tea", Self.release,
                "package com.example.tea is not listed (listed: com.example.shop, com.example.wallet)\n"
            ),
            (
                "com.example.shop", Self.wallet,
                "\(Self.wallet) is not listed for this package (listed: \(Self.release), \(Self.playSigning))\n"
            ),
            (
                "com.example.wallet", Self.wallet,
                "statements [1] name the app but do not grant delegate_permission/common.handle_all_urls\n"
            ),
        ]
        for (package, fingerprint, expected) in cases {
            let output = try await SubjectFixtures.run([
                "assetlinks", "verify", "assetlinks.json", "--package", package, "--fingerprint", fingerprint,
            ])
            #expect(output.status == 1, "\(package)")
            #expect(output.stdout == expected)
        }
    }

    @Test func aMalformedFingerprintIsBadInput() async throws {
        let output = try await SubjectFixtures.run([
            "assetlinks", "verify", "assetlinks.json", "--package", "com.example.shop", "--fingerprint",
            "AB:CD",
        ])
        #expect(output.status == 2)
        #expect(output.stdout == "")
        #expect(
            output.stderr
                == "error: \"AB:CD\" is not a SHA-256 fingerprint; expected 32 hex bytes such as 14:6D:E9:...\n"
        )
    }

    @Test func verifyNeedsAJSONArray() async throws {
        let output = try await SubjectFixtures.run([
            "assetlinks", "verify", "assetlinks-object.json", "--package", "com.example.shop",
            "--fingerprint",
            Self.release,
        ])
        #expect(output.status == 2)
        #expect(
            output.stderr
                == "error: assetlinks-object.json: the top level must be a JSON array of statements\n")
    }

    @Test func verifyWithoutPackageOrFingerprintIsAUsageError() async throws {
        let noPackage = try await SubjectFixtures.run([
            "assetlinks", "verify", "assetlinks.json", "--fingerprint", "AB",
        ])
        #expect(noPackage.status == 64)
        #expect(
            noPackage.stderr == """
                error: missing option --package

                USAGE:
                  workbook assetlinks verify <FILE> --package PACKAGE --fingerprint SHA256

                See 'workbook assetlinks verify --help'.

                """)
        let noFingerprint = try await SubjectFixtures.run([
            "assetlinks", "verify", "assetlinks.json", "--package", "a.b",
        ])
        #expect(noFingerprint.status == 64)
        #expect(noFingerprint.stderr.hasPrefix("error: missing option --fingerprint\n"))
        let noFile = try await SubjectFixtures.run([
            "assetlinks", "verify", "--package", "a.b", "--fingerprint", "AB",
        ])
        #expect(noFile.status == 64)
        #expect(noFile.stderr.hasPrefix("error: missing argument FILE\n"))
        let noValue = try await SubjectFixtures.run(["assetlinks", "verify", "assetlinks.json", "--package"])
        #expect(noValue.status == 64)
        #expect(noValue.stderr.hasPrefix("error: option '--package' needs a value (PACKAGE)\n"))
    }

    @Test func anUnknownOptionIsAUsageError() async throws {
        let output = try await SubjectFixtures.run(["assetlinks", "lint", "--fix", "assetlinks.json"])
        #expect(output.status == 64)
        #expect(output.stderr.hasPrefix("error: unknown option '--fix'\n"))
    }

    @Test func verifyHelpSaysWhichFingerprintToUse() async throws {
        let output = try await SubjectFixtures.run(["assetlinks", "verify", "-h"])
        #expect(output.status == 0)
        #expect(
            output.stdout.hasPrefix(
                """
                OVERVIEW: Say whether an assetlinks.json file authorises an app to open the site's links.

                Answers the question Android's verifier asks the site:
                """))
        #expect(output.stdout.contains("with Play\nApp Signing that is Google's key, not your upload key."))
        #expect(
            output.stdout.hasSuffix(
                """
                USAGE:
                  workbook assetlinks verify <FILE> --package PACKAGE --fingerprint SHA256

                ARGUMENTS:
                  <FILE>  The assetlinks.json file.

                OPTIONS:
                  --package PACKAGE     The app's package name (application ID).
                  --fingerprint SHA256  The SHA-256 fingerprint of the signing certificate.
                  -h, --help            Show this help.

                """))
    }
}
