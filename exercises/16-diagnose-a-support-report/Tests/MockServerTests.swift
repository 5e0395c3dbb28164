import Foundation
import Testing

@testable import DiagnoseASupportReport

/// The same diagnosis on what a real server hands out: the book's mock server, started for each
/// test with a configuration the test breaks on purpose.
struct MockServerTests {
    /// The demo shop's build, configured for `server`.
    static func demoBuild(_ server: MockServer) -> AppBuild {
        AppBuild(
            teamID: "ABCDE12345", bundleID: "com.example.shop", associatedDomains: ["applinks:go.example"],
            publishableKey: server.publishableKey, deepLinkDomains: ["go.example"],
            apiBaseURL: server.address + "/api/v1")
    }

    /// What support collects from `server` for the link `https://go.example/summer`.
    static func report(_ server: MockServer, build: AppBuild) async throws -> SupportReport {
        SupportReport(
            link: URL(string: "https://go.example/summer")!, build: build,
            associationFile: try await server.fetch("/.well-known/apple-app-site-association"), cdnCopy: nil)
    }

    /// Read: chapters/11-troubleshooting.md#the-universal-link-does-not-open-the-app
    @Test(.timeLimit(.minutes(1)))
    func theDemoSetUpHasNoFindingAndReallyWorks() async throws {
        let server = try await MockServer.start()
        defer { server.stop() }
        let build = Self.demoBuild(server)
        let report = try await Self.report(server, build: build)
        #expect(
            diagnose(report) == [],
            "the demo server's file names ABCDE12345.com.example.shop as application/json with status 200: nothing is wrong"
        )
        let answer = try await server.trackOpen(apiBaseURL: build.apiBaseURL, key: build.publishableKey)
        #expect(answer.status == 200, "and the build's key and API root really work: \(answer.body)")
    }

    /// Read: chapters/11-troubleshooting.md#a-wrong-team-id-or-bundle-id
    @Test(.timeLimit(.minutes(1)))
    func aServerSetUpForAnotherTeamOrABuildWithAnotherBundleIsNamed() async throws {
        let server = try await MockServer.start { configuration in
            var ios = configuration["ios"] as? [String: Any] ?? [:]
            ios["teamID"] = "FGHIJ67890"
            configuration["ios"] = ios
        }
        defer { server.stop() }
        let build = Self.demoBuild(server)
        let report = try await Self.report(server, build: build)
        #expect(
            diagnose(report) == [
                .appIDNotListed(appID: "ABCDE12345.com.example.shop", listed: ["FGHIJ67890.com.example.shop"])
            ],
            "a server configured with another Team ID serves a file for another app")
        var debug = build
        debug.teamID = "FGHIJ67890"
        debug.bundleID = "com.example.shop.debug"
        let debugReport = try await Self.report(server, build: debug)
        #expect(
            diagnose(debugReport) == [
                .appIDNotListed(
                    appID: "FGHIJ67890.com.example.shop.debug", listed: ["FGHIJ67890.com.example.shop"])
            ],
            "the right team, but a .debug bundle ID: another app again")
    }

    /// Read: chapters/03-universal-links.md#hosting-the-file
    @Test(.timeLimit(.minutes(1)))
    func aServerWithoutAnIOSAppServesNoFile() async throws {
        let server = try await MockServer.start { configuration in configuration["ios"] = nil }
        defer { server.stop() }
        let report = try await Self.report(server, build: Self.demoBuild(server))
        #expect(
            diagnose(report) == [.fileNotServed(status: report.associationFile.status)],
            "without an iOS app the server answers \(report.associationFile.status): the file is not served")
        #expect(
            report.associationFile.status == 404, "the mock server answers 404 for a file it does not have")
    }

    /// Read: chapters/11-troubleshooting.md#every-call-fails-with-404
    @Test(.timeLimit(.minutes(1)))
    func anAPIRootWithoutTheVersionIsNamedAndTheServerAnswers404() async throws {
        let server = try await MockServer.start()
        defer { server.stop() }
        var build = Self.demoBuild(server)
        build.apiBaseURL = server.address
        let answer = try await server.trackOpen(apiBaseURL: build.apiBaseURL, key: build.publishableKey)
        #expect(answer.status == 404, "the server has no /track/open: \(answer.body)")
        let report = try await Self.report(server, build: build)
        #expect(
            diagnose(report) == [.apiRootWithoutVersion],
            "a root without /api/v1 is the cause of every 404, and it shows in the configuration alone")
    }

    /// Read: chapters/11-troubleshooting.md#every-call-fails-with-401
    @Test(.timeLimit(.minutes(1)))
    func aSecretKeyInTheAppIsNamedAndTheServerAnswers401() async throws {
        let server = try await MockServer.start()
        defer { server.stop() }
        var build = Self.demoBuild(server)
        build.publishableKey = server.secretKey
        let answer = try await server.trackOpen(apiBaseURL: build.apiBaseURL, key: build.publishableKey)
        #expect(answer.status == 401, "the server refuses a secret key on track/open: \(answer.body)")
        let report = try await Self.report(server, build: build)
        #expect(
            diagnose(report) == [.secretKeyInApp],
            "the secret key (li2_sk_) was shipped in the app: the server refuses it, and it leaked")
    }
}
