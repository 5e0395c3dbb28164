import Foundation
import Testing

@testable import Lab

/// The lab's answers as whole values: the CLI's verdicts, each finding at its line and column,
/// each linked to its section (source: "this book: chapter 03, Linting the file").
struct LabAnswerTests {
    static let aasa = """
        {
          "applinks": {
            "details": [
              {
                "appIDs": ["ABCDE12345.com.example.app", "abcde12345.com.example.app"],
                "components": [
                  {"/": "/help/*", "exclude": true},
                  {"/": "/buy/*"}
                ]
              }
            ]
          }
        }
        """

    @Test func anAASAFileAnswersTheAppsTheEntriesAndTheFindingsAtTheirPlaces() throws {
        let answer = try Lab.aasa(file: Self.aasa, url: "https://example.com/buy/42")
        #expect(
            answer
                == Lab.AASAAnswer(
                    apps: ["ABCDE12345.com.example.app", "abcde12345.com.example.app"],
                    explanation: [
                        .init(
                            index: 0, line: 4,
                            appIDs: ["ABCDE12345.com.example.app", "abcde12345.com.example.app"],
                            decision: "opens", rule: #"components[1] {"/":"/buy/*"}"#,
                            reason: #"opens the URL: components[1] {"/":"/buy/*"} matches"#,
                            read: LabSections.aasaMatching)
                    ],
                    findings: [
                        LabFinding(
                            code: "aasa.appid-format", severity: "error",
                            message:
                                #""abcde12345.com.example.app" is not TEAMID.bundle.id (a 10-character Team ID of upper-case letters and digits, a dot, then the bundle identifier)"#,
                            path: "applinks.details[0].appIDs[1]", line: 5, column: 50,
                            read: LabSections.aasaLinting)
                    ]))
    }

    @Test func excludedAndLintOnly() throws {
        let excluded = try Lab.aasa(file: Self.aasa, url: "https://example.com/help/faq")
        #expect(excluded.apps == [])
        #expect(excluded.explanation?.map(\.decision) == ["excluded"])
        let lintOnly = try Lab.aasa(file: Self.aasa, url: nil)
        #expect(lintOnly.apps == nil && lintOnly.explanation == nil && lintOnly.findings.count == 1)
    }

    @Test func aBrokenFileIsAFindingAtTheSyntaxErrorNotARequestError() throws {
        let answer = try Lab.aasa(file: "{\n  \"applinks\": {,}\n}", url: "https://example.com/")
        #expect(answer.apps == nil && answer.explanation == nil)
        #expect(answer.findings.map(\.code) == ["aasa.invalid-json"])
        #expect(answer.findings.first?.line == 2)
        #expect(answer.findings.first?.read == LabSections.aasaLinting)
        // Nesting deeper than the scanner follows is a finding too, never a stalled server.
        let deep = String(repeating: "[", count: 100_000)
        #expect(try Lab.aasa(file: deep, url: nil).findings.map(\.code) == ["aasa.invalid-json"])
    }

    @Test func aURLThatIsNotOneIsARequestErrorNamingTheField() {
        #expect(
            throws: LabRequestError(
                field: "url",
                message:
                    "'ftp://example.com/' is not a web URL; Universal Links are http or https URLs on an associated domain"
            )
        ) {
            try Lab.aasa(file: Self.aasa, url: "ftp://example.com/")
        }
    }

    static let manifest = """
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.shop">
          <uses-sdk android:targetSdkVersion="35"/>
          <application>
            <activity android:name=".MainActivity">
              <intent-filter android:autoVerify="true">
                <action android:name="android.intent.action.VIEW"/>
                <category android:name="android.intent.category.DEFAULT"/>
                <category android:name="android.intent.category.BROWSABLE"/>
                <data android:scheme="https" android:host="example.com" android:pathSuffix=".html"/>
              </intent-filter>
            </activity>
          </application>
        </manifest>
        """

    @Test func aManifestAnswersTheAcceptingFiltersAndEveryVerdictAtAnAPILevel() throws {
        let latest = try Lab.applinks(
            manifest: Self.manifest, url: "https://example.com/a.html", apiLevel: nil, targetSDK: nil)
        #expect(latest.accepting == [.init(activity: "com.example.shop.MainActivity", kind: "app-link")])
        #expect(latest.explanation?.map(\.verdict) == ["accepted"])
        #expect(latest.explanation?.first?.line == 5)
        #expect(latest.explanation?.first?.ignoredAtAPILevel == [])
        #expect(latest.findings == [])
        // Below API 31, pathSuffix is unknown: the filter takes every path of its host.
        let old = try Lab.applinks(
            manifest: Self.manifest, url: "https://example.com/a", apiLevel: 30, targetSDK: nil)
        #expect(old.accepting == [.init(activity: "com.example.shop.MainActivity", kind: "app-link")])
        #expect(old.explanation?.first?.ignoredAtAPILevel == [#"pathSuffix=".html""#])
        #expect(old.explanation?.first?.read == LabSections.apiLevels)
        #expect(
            throws: LabRequestError(field: "apiLevel", message: "must be a whole number from 1 to 35, got 99")
        ) {
            try Lab.applinks(
                manifest: Self.manifest, url: "https://example.com/", apiLevel: 99, targetSDK: nil)
        }
    }

    @Test func hostileOrBrokenXMLIsAFinding() throws {
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
            <manifest>&lol2;</manifest>
            """
        #expect(
            try Lab.applinks(manifest: bomb, url: "https://example.com/", apiLevel: nil, targetSDK: nil)
                == Lab.AppLinksAnswer(
                    accepting: nil, explanation: nil,
                    findings: [
                        LabFinding(
                            code: "manifest.doctype", severity: "error",
                            message: "the manifest declares a document type or an entity (<!DOCTYPE); an "
                                + "AndroidManifest.xml has none, and the lab expands no entity",
                            path: "manifest", line: 2, column: 1, read: LabSections.intentFilters)
                    ]))
        let broken = try Lab.applinks(
            manifest: "<manifest>\n<application>", url: "https://example.com/", apiLevel: nil, targetSDK: nil)
        #expect(broken.accepting == nil && broken.findings.map(\.code) == ["manifest.unreadable"])
    }

    static let fingerprint =
        "A4:D4:51:EC:23:46:37:26:F7:2C:43:D6:4C:71:09:68:F6:B6:02:CD:65:3B:4D:E8:AD:EE:1B:55:62:40:A8:29"

    @Test func assetLinksSayWhetherTheAppIsAuthorisedAndWhy() throws {
        let file = """
            [{"relation": ["delegate_permission/common.handle_all_urls"],
              "target": {"namespace": "android_app", "package_name": "com.example.shop",
                         "sha256_cert_fingerprints": ["\(Self.fingerprint.lowercased())"]}}]
            """
        let answer = try Lab.assetlinks(
            file: file, package: "com.example.shop", fingerprint: Self.fingerprint)
        #expect(answer.authorised == false)
        #expect(answer.findings.map(\.code) == ["assetlinks.fingerprint-lowercase"])
        #expect(answer.findings.first?.line == 3)
        #expect(answer.findings.first?.read == LabSections.assetLinksLinting)
        #expect(throws: LabRequestError.self) {
            try Lab.assetlinks(file: file, package: "com.example.shop", fingerprint: "AB:CD")
        }
    }

    @Test func entitlementsListTheEntriesThatCoverTheHost() throws {
        let file = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
              <key>com.apple.developer.associated-domains</key>
              <array>
                <string>applinks:*.example.com</string>
                <string>applinks:example.com?mode=developer</string>
                <string>applinks:example.com:8443</string>
              </array>
            </dict>
            </plist>
            """
        let answer = try Lab.entitlements(file: file, url: "https://example.com/buy")
        #expect(answer.covering == ["applinks:example.com?mode=developer"])
        #expect(answer.findings.map(\.code) == ["entitlements.port"])
        #expect(answer.findings.first.map { [$0.line, $0.column] } == [8, 5])
        #expect(
            try Lab.entitlements(file: file, url: "https://shop.example.com/").covering == [
                "applinks:*.example.com"
            ])
        #expect(try Lab.entitlements(file: "not a plist", url: "https://example.com/").covering == nil)
    }
}
