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
    @Test(arguments: AASAFixture.allMatchCases)
    func theAPIAnswersEveryRowOfTheMatchingTable(_ testCase: AASAMatchCase) async throws {
        let app = try TestServer.makeApp(routeProviders: [LabRoutes()])
        let body = try JSONEncoder().encode([
            "file": testCase.file, "url": "https://example.com" + testCase.url,
        ])
        let response = await app.respond(
            to: HTTPRequest(method: .post, target: "/api/v1/lab/aasa", body: body))
        #expect(response.status == .ok)
        let answer = try JSONValue(data: response.body)
        #expect(answer["apps"]?.items.compactMap(\.string) == testCase.expected)
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

    @Test(arguments: filterCases)
    func theAPIAnswersEveryRowOfTheFilterTable(_ row: FilterCase) async throws {
        #expect(row.filter.groups.isEmpty, "a row with relative filter groups needs them written too")
        let app = try TestServer.makeApp(routeProviders: [LabRoutes()])
        let body = try JSONEncoder().encode(["manifest": Self.manifest(row.filter), "url": row.url])
        let response = await app.respond(
            to: HTTPRequest(method: .post, target: "/api/v1/lab/applinks", body: body))
        #expect(response.status == .ok)
        let answer = try JSONValue(data: response.body)
        let verdicts = answer["explanation"]?.items.compactMap { $0["verdict"]?.string }
        let kinds = answer["accepting"]?.items.compactMap { $0["kind"]?.string } ?? []
        switch row.verdict {
        case .accepted(let kind):
            #expect(verdicts == ["accepted"])
            #expect(kinds == [kind == .appLink ? "app-link" : "deep-link"])
        case .rejected:
            #expect(verdicts == ["rejected"])
        }
    }
}
