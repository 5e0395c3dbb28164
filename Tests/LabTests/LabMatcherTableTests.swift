import DeepLinkCore
import Foundation
import HTTPCore
import MockServerTesting
import StrictJSON
import Testing

@testable import Lab

/// Every row of DeepLinkCore's AASA matching table (the same files as DeepLinkCoreTests', linked
/// from `SharedCases/`) asked through the lab's API: the answer is the row's apps.
struct LabMatcherTableTests {
    /// One test over the whole table, on one app: a parameterized test would start a hundred
    /// cases at once and crowd out the servers other suites run on the two pool threads.
    @Test func theAPIAnswersEveryRowOfTheMatchingTable() async throws {
        let app = try TestServer.makeApp(routeProviders: [LabRoutes()])
        var wrong: [String] = []
        for testCase in AASAFixture.allMatchCases {
            let body = try JSONEncoder().encode([
                "file": testCase.file, "url": "https://example.com" + testCase.url,
            ])
            let response = await app.respond(
                to: HTTPRequest(method: .post, target: "/api/v1/lab/aasa", body: body))
            let apps = try JSONValue(data: response.body)["apps"]?.items.compactMap(\.string)
            if response.status != .ok || apps != testCase.expected {
                wrong.append("\(testCase.id): \(response.status.code) \(apps ?? [])")
            }
        }
        #expect(wrong == [])
        #expect(AASAFixture.allMatchCases.count >= 100)
    }
}

/// Every row of DeepLinkCore's intent-filter table (chapter 17) asked through the lab's API: the
/// row's filter written into a manifest, and the lab's verdict for it is the row's.
struct LabFilterTableTests {
    /// The filter as a source manifest declares it.
    static func manifest(_ filter: IntentFilter) -> String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: "\"", with: "&quot;")
        }
        var lines = [
            #"<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.shop">"#,
            "<application>", #"<activity android:name=".MainActivity">"#,
            filter.autoVerify ? #"<intent-filter android:autoVerify="true">"# : "<intent-filter>",
        ]
        lines += filter.actions.map { #"<action android:name="\#(escaped($0))"/>"# }
        lines += filter.categories.map { #"<category android:name="\#(escaped($0))"/>"# }
        lines += filter.data.map { element in
            "<data "
                + element.attributes.sorted { $0.key < $1.key }.map {
                    #"android:\#($0.key)="\#(escaped($0.value))""#
                }
                .joined(separator: " ") + "/>"
        }
        lines += ["</intent-filter>", "</activity>", "</application>", "</manifest>"]
        return lines.joined(separator: "\n")
    }

    /// One test over the whole table, on one app (see ``LabMatcherTableTests``).
    @Test func theAPIAnswersEveryRowOfTheFilterTable() async throws {
        let app = try TestServer.makeApp(routeProviders: [LabRoutes()])
        var wrong: [String] = []
        for row in filterCases {
            #expect(row.filter.groups.isEmpty, "a row with relative filter groups needs them written too")
            let body = try JSONEncoder().encode(["manifest": Self.manifest(row.filter), "url": row.url])
            let response = await app.respond(
                to: HTTPRequest(method: .post, target: "/api/v1/lab/applinks", body: body))
            let answer = try JSONValue(data: response.body)
            let verdicts = answer["explanation"]?.items.compactMap { $0["verdict"]?.string } ?? []
            let kinds = answer["accepting"]?.items.compactMap { $0["kind"]?.string } ?? []
            let expected: ([String], [String])
            switch row.verdict {
            case .accepted(let kind): expected = (["accepted"], [kind == .appLink ? "app-link" : "deep-link"])
            case .rejected: expected = (["rejected"], kinds)
            }
            if response.status != .ok || verdicts != expected.0 || kinds != expected.1 {
                wrong.append("\(row.id): \(response.status.code) \(verdicts) \(kinds)")
            }
        }
        #expect(wrong == [])
        #expect(filterCases.count >= 30)
    }
}
