import Foundation
import HTTPCore
import Lab
import MockServer
import MockServerTesting
import StrictJSON
import TestSupport
import Testing

/// The Link Lab and the CLI never disagree: every matching case of the CLI tests' fixtures is
/// asked of both, `workbook aasa match` and `applinks match` (with and without `--explain`) as
/// a user runs them, and `POST /api/v1/lab/…` as the site asks, and the answers compared.
/// Serialized: each case starts two CLI processes, and a burst of them would crowd out the
/// servers other suites run.
@Suite(.serialized) struct LabAgreementTests {
    static let aasaCases = [
        ("apple-app-site-association", "https://example.com/product/42?ref=journal"),
        ("apple-app-site-association", "https://example.com/help/faq"),
        ("apple-app-site-association", "https://example.com/product/1"),
        ("apple-app-site-association", "https://example.com/"),
        ("aasa-excluded-then-opened.json", "https://example.com/admin/users"),
        ("aasa-excluded-then-opened.json", "https://example.com/admin"),
        ("aasa-legacy.json", "https://example.com/help/faq"),
        ("aasa-legacy.json", "https://example.com/shop/1"),
        ("aasa-warnings.json", "https://example.com/"),
        ("aasa-errors.json", "https://example.com/"),
        ("aasa-wrong-shape.json", "https://example.com/"),
    ]

    @Test(arguments: aasaCases)
    func theAASAAnswerIsTheCLIs(file: String, url: String) async throws {
        let matched = try await SubjectFixtures.run(["aasa", "match", file, url])
        let explained = try await SubjectFixtures.run(["aasa", "match", "--explain", file, url])
        let app = try TestServer.makeApp(routeProviders: [LabRoutes()])
        let text = String(decoding: try SubjectFixtures.contents(file), as: UTF8.self)
        let body = try JSONEncoder().encode(["file": text, "url": url])
        let response = await app.respond(
            to: HTTPRequest(method: .post, target: "/api/v1/lab/aasa", body: body))
        #expect(response.status == .ok)
        let answer = try JSONValue(data: response.body)
        guard matched.status != 2 else {
            // A file iOS cannot read: bad input for the CLI, no verdict from the lab.
            #expect(answer["apps"] == .null && answer["explanation"] == .null)
            return
        }
        #expect(answer["apps"]?.items.compactMap(\.string) == Self.lines(matched.stdout))
        let entries = answer["explanation"]?.items ?? []
        let lines = entries.map { entry in
            let apps = entry["appIDs"]?.items.compactMap(\.string) ?? []
            let index = Int(entry["index"]?.number ?? -1)
            return "details[\(index)] \(apps.isEmpty ? "(no app ID)" : apps.joined(separator: ", ")): "
                + (entry["reason"]?.string ?? "")
        }
        #expect(
            lines == Self.lines(explained.stdout)
                || (entries.isEmpty && explained.stdout.contains("no applinks")))
    }

    static let manifestCases: [(String, String, Int?)] = [
        ("AndroidManifest.xml", "https://example.com/product/42", nil),
        ("AndroidManifest.xml", "https://example.com/about", nil),
        ("AndroidManifest.xml", "shop://cart", nil),
        ("AndroidManifest-per-host.xml", "https://example.com/orders/7", nil),
        ("AndroidManifest-per-host.xml", "https://shop.example.net/orders/7", nil),
        ("AndroidManifest-api-levels.xml", "https://example.com/about", nil),
        ("AndroidManifest-api-levels.xml", "https://example.com/about", 30),
        ("AndroidManifest-ssp.xml", "tel:+1%20555%200100", nil),
        ("AndroidManifest-ssp.xml", "tel:+44%2020%207946%200958", 18),
    ]

    @Test(arguments: manifestCases)
    func theAppLinksAnswerIsTheCLIs(file: String, url: String, apiLevel: Int?) async throws {
        let level = apiLevel.map { ["--api-level", String($0)] } ?? []
        let matched = try await SubjectFixtures.run(["applinks", "match"] + level + [file, url])
        let explained = try await SubjectFixtures.run(
            ["applinks", "match", "--explain"] + level + [file, url])
        let app = try TestServer.makeApp(routeProviders: [LabRoutes()])
        let text = String(decoding: try SubjectFixtures.contents(file), as: UTF8.self)
        var fields: [String: JSONValue] = ["manifest": .string(text), "url": .string(url)]
        if let apiLevel { fields["apiLevel"] = .number(Double(apiLevel)) }
        let body = try JSONEncoder().encode(JSONValue.object(fields))
        let response = await app.respond(
            to: HTTPRequest(method: .post, target: "/api/v1/lab/applinks", body: body))
        #expect(response.status == .ok)
        let answer = try JSONValue(data: response.body)
        let accepting = answer["accepting"]?.items.map {
            "\($0["activity"]?.string ?? "") \($0["kind"]?.string ?? "")"
        }
        #expect(accepting == Self.lines(matched.stdout))
        #expect(
            answer["explanation"]?.items.compactMap { $0["reason"]?.string } == Self.lines(explained.stdout))
        // The CLI's note on the app's target is the lab's finding.
        let notes = answer["findings"]?.items.compactMap { $0["message"]?.string } ?? []
        #expect(
            notes == matched.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("note: ") })
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init)
    }
}
