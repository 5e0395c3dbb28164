import Foundation
import Testing

/// `workbook applinks match` as a user runs it, on the shop manifest of the fixtures: a verified
/// filter for /product/, a custom-scheme filter, and a share activity without BROWSABLE.
struct AppLinksCommandTests {
    @Test func matchListsEveryAcceptingFilterWithItsKind() async throws {
        let output = try await SubjectFixtures.run([
            "applinks", "match", "AndroidManifest.xml", "https://example.com/product/42",
        ])
        #expect(output.status == 0)
        #expect(
            output.stdout == """
                com.example.shop.MainActivity app-link
                com.example.shop.ShareActivity deep-link

                """)
        #expect(output.stderr == "")
    }

    /// Android: "Verify Android App Links": `autoVerify` on one filter for a host is enough, even
    /// if other filters that use the host lack it. The orders filter has no `autoVerify`; its
    /// second host is verified through nothing.
    @Test func aHostVerifiedThroughAnotherFilterIsAnAppLinkForEveryWebFilter() async throws {
        let verified = try await SubjectFixtures.run([
            "applinks", "match", "AndroidManifest-per-host.xml", "https://example.com/orders/7",
        ])
        #expect(verified.status == 0)
        #expect(verified.stdout == "com.example.shop.OrdersActivity app-link\n")
        let unverified = try await SubjectFixtures.run([
            "applinks", "match", "AndroidManifest-per-host.xml", "https://shop.example.net/orders/7",
        ])
        #expect(unverified.status == 0)
        #expect(unverified.stdout == "com.example.shop.OrdersActivity deep-link\n")
        // The manifest names no target: an app targeting API 30 or lower has every web filter's
        // host verified once any filter asks (source: "AOSP: DomainVerificationCollector.java").
        #expect(
            unverified.stderr
                == "note: the manifest states no targetSdkVersion, so this answers for an app targeting API 31 "
                + "or later; targeting API 30 or lower, Android would verify the host through any filter's "
                + "autoVerify: com.example.shop.OrdersActivity app-link (pass --target-sdk N to choose)\n")
        let legacy = try await SubjectFixtures.run([
            "applinks", "match", "--target-sdk", "30", "AndroidManifest-per-host.xml",
            "https://shop.example.net/orders/7",
        ])
        #expect(
            (legacy.status, legacy.stdout, legacy.stderr) == (
                0, "com.example.shop.OrdersActivity app-link\n", ""
            ))
        let explained = try await SubjectFixtures.run([
            "applinks", "match", "--explain", "AndroidManifest-per-host.xml", "https://example.com/orders/7",
        ])
        #expect(
            explained.stdout == """
                line 5: com.example.shop.MainActivity filter #1: rejected: path "/orders/7" matches none of \
                pathPrefix="/product/"
                line 13: com.example.shop.OrdersActivity filter #1: accepted as an app link: opens the app \
                directly once the host is verified (through the autoVerify of line 5: \
                com.example.shop.MainActivity filter #1)

                """)
    }

    /// Android: `R.attr.pathSuffix` was added in API level 31. Below it the attribute is unknown,
    /// so the filter declares no path and takes every path of its host.
    @Test func apiLevelAnswersForAnOlderDevice() async throws {
        let latest = try await SubjectFixtures.run([
            "applinks", "match", "AndroidManifest-api-levels.xml", "https://example.com/about",
        ])
        #expect(latest.status == 1)
        #expect(latest.stdout == "")
        let android11 = try await SubjectFixtures.run([
            "applinks", "match", "--api-level", "30", "AndroidManifest-api-levels.xml",
            "https://example.com/about",
        ])
        #expect(android11.status == 0)
        #expect(android11.stdout == "com.example.shop.FilesActivity deep-link\n")
        let explained = try await SubjectFixtures.run([
            "applinks", "match", "--explain", "--api-level", "30", "AndroidManifest-api-levels.xml",
            "https://example.com/about",
        ])
        #expect(explained.status == 0)
        #expect(
            explained.stdout == """
                line 5: com.example.shop.FilesActivity filter #1: accepted as a deep link (not an app link: \
                no autoVerify="true"); at API level 30, Android does not know pathSuffix=".pdf" (API 31), \
                so ignores it

                """)
    }

    /// AOSP `IntentFilter.matchData`: with no host declared, the scheme-specific part must match
    /// one of the `ssp` attributes; `sspSuffix` needs API 31 and the `ssp` family API 19.
    @Test func schemeSpecificPartsDecideForAFilterWithoutHosts() async throws {
        let matched = try await SubjectFixtures.run([
            "applinks", "match", "AndroidManifest-ssp.xml", "tel:+1%20555%200100",
        ])
        #expect(matched.status == 0)
        #expect(matched.stdout == "com.example.phone.DialActivity deep-link\n")
        let missed = try await SubjectFixtures.run([
            "applinks", "match", "--explain", "AndroidManifest-ssp.xml", "tel:+44%2020%207946%200958",
        ])
        #expect(missed.status == 1)
        #expect(
            missed.stdout == """
                line 5: com.example.phone.DialActivity filter #1: rejected: scheme-specific part \
                "+44 20 7946 0958" matches none of sspPrefix="+1 ", sspSuffix="00", and no host is declared

                """)
        let old = try await SubjectFixtures.run([
            "applinks", "match", "--explain", "--api-level", "18", "AndroidManifest-ssp.xml",
            "tel:+44%2020%207946%200958",
        ])
        #expect(old.status == 0)
        #expect(
            old.stdout == """
                line 5: com.example.phone.DialActivity filter #1: accepted as a deep link (not an app link: \
                no autoVerify="true"; scheme "tel" is not http or https; no host); at API level 18, Android \
                does not know sspPrefix="+1 " (API 19), sspSuffix="00" (API 31), so ignores them

                """)
    }

    @Test func anAPILevelOutOfRangeIsAUsageError() async throws {
        for value in ["0", "36", "thirty", "3.5"] {
            let output = try await SubjectFixtures.run([
                "applinks", "match", "--api-level", value, "AndroidManifest.xml", "https://example.com/",
            ])
            #expect(output.status == 64)
            #expect(output.stdout == "")
            #expect(
                output.stderr.hasPrefix(
                    "error: --api-level needs a whole number from 1 to 35, got '\(value)'\n"))
        }
    }

    @Test func aCustomSchemeLinkIsADeepLink() async throws {
        let output = try await SubjectFixtures.run([
            "applinks", "match", "AndroidManifest.xml", "shop://cart",
        ])
        #expect(output.status == 0)
        #expect(output.stdout == "com.example.shop.MainActivity deep-link\n")
    }

    @Test func noAcceptingFilterPrintsNothingAndExitsOne() async throws {
        let output = try await SubjectFixtures.run([
            "applinks", "match", "AndroidManifest.xml", "https://example.com/about",
        ])
        #expect(output.status == 1)
        #expect(output.stdout == "")
        #expect(
            output.stderr
                == "no intent filter accepts https://example.com/about; run with --explain to see why\n")
    }

    @Test func explainReportsEveryFilterAndWhetherABrowserMayOpenIt() async throws {
        let accepted = try await SubjectFixtures.run([
            "applinks", "match", "AndroidManifest.xml", "https://example.com/product/42", "--explain",
        ])
        #expect(accepted.status == 0)
        #expect(
            accepted.stdout == """
                line 5: com.example.shop.MainActivity filter #1: accepted as an app link: opens the app directly \
                once the host is verified
                line 12: com.example.shop.MainActivity filter #2: rejected: scheme "https" not declared \
                (declared: shop; case matters)
                line 20: com.example.shop.ShareActivity filter #1: rejected: no BROWSABLE category, so a browser \
                cannot open it

                """)
        let rejected = try await SubjectFixtures.run([
            "applinks", "match", "--explain", "AndroidManifest.xml", "https://example.com/about",
        ])
        #expect(rejected.status == 1)
        #expect(
            rejected.stdout == """
                line 5: com.example.shop.MainActivity filter #1: rejected: path "/about" matches none of \
                pathPrefix="/product/"
                line 12: com.example.shop.MainActivity filter #2: rejected: scheme "https" not declared \
                (declared: shop; case matters)
                line 20: com.example.shop.ShareActivity filter #1: rejected: path "/about" matches none of \
                pathPrefix="/product/"; no BROWSABLE category, so a browser cannot open it

                """)
    }

    @Test func aMalformedManifestIsBadInputAtItsLine() async throws {
        let output = try await SubjectFixtures.run([
            "applinks", "match", "AndroidManifest-broken.xml", "https://example.com/",
        ])
        #expect(output.status == 2)
        #expect(output.stdout == "")
        // The parser's own wording differs between platforms; the position and the cause do not.
        #expect(output.stderr.hasPrefix("error: AndroidManifest-broken.xml:6:"))
        #expect(output.stderr.contains("malformed XML"))
        #expect(output.stderr.hasSuffix("\n") && output.stderr.split(separator: "\n").count == 1)
    }

    @Test func aMissingManifestIsBadInput() async throws {
        let output = try await SubjectFixtures.run([
            "applinks", "match", "Missing.xml", "https://example.com/",
        ])
        #expect(output.status == 2)
        #expect(output.stderr == "error: Missing.xml: no such file\n")
    }

    @Test func aURLWithoutASchemeIsBadInput() async throws {
        let output = try await SubjectFixtures.run([
            "applinks", "match", "AndroidManifest.xml", "example.com/product/1",
        ])
        #expect(output.status == 2)
        #expect(
            output.stderr == """
                error: 'example.com/product/1' is not an absolute URL; write it with its scheme, as in \
                https://example.com/path

                """)
    }

    @Test func anUnparsableURLIsBadInput() async throws {
        let output = try await SubjectFixtures.run([
            "applinks", "match", "AndroidManifest.xml", "https://[::1/",
        ])
        #expect(output.status == 2)
        #expect(output.stdout == "")
        #expect(output.stderr == "error: 'https://[::1/' is not a URL\n")
    }

    @Test func wrongUsageShowsTheUsage() async throws {
        let missing = try await SubjectFixtures.run(["applinks", "match", "AndroidManifest.xml"])
        #expect(missing.status == 64)
        #expect(
            missing.stderr == """
                error: missing argument URL

                USAGE:
                  workbook applinks match [--explain] [--api-level N] [--target-sdk N] <MANIFEST> <URL>

                See 'workbook applinks match --help'.

                """)
        let unknown = try await SubjectFixtures.run([
            "applinks", "match", "-x", "AndroidManifest.xml", "shop://a",
        ])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("error: unknown option '-x'\n"))
        let group = try await SubjectFixtures.run(["applinks", "verify"])
        #expect(group.status == 64)
        #expect(group.stderr.hasPrefix("error: unknown command 'verify'\n"))
    }

    @Test func matchHelpSaysWhatAcceptingMeans() async throws {
        let output = try await SubjectFixtures.run(["help", "applinks", "match"])
        #expect(output.status == 0)
        #expect(
            output.stdout.hasPrefix("OVERVIEW: List the intent filters of a manifest that accept a URL.\n"))
        #expect(output.stdout.contains("categories do not change the list."))
        #expect(output.stdout.contains("pathAdvancedPattern and pathSuffix need API 31"))
        #expect(
            output.stdout.contains(
                "  --explain       Print the verdict of every intent filter instead of the list.\n"))
    }
}
