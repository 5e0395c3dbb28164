import Foundation
import HTTPCore
import MockServer
import TestSupport
import Testing
import Weave

@testable import SDKReference

/// `workbook reference` as a user runs it: on the real package (the end-to-end test: the
/// toolchain's swift build, swift-symbolgraph-extract and docc), and on the ways it can fail.
@Suite("workbook reference", .serialized)
struct ReferenceCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Chapter 9 links `/reference/documentation/li2sdk/`, and `./wb serve` serves the folder there
    /// (source: "this book: chapter 09, The surface at a glance")
    /// (source: "this book: the live site serves the API reference under /reference"). DocC's
    /// `--transform-for-static-hosting` makes every page path servable as a plain file (an
    /// `index.html` in each), and `--hosting-base-path` names the prefix the pages load from
    /// (source: "Swift-DocC Plugin: Generating Documentation for Hosting Online").
    @Test func theRealPackageGivesAReferenceToServeUnderReferenceWithWarningsAtChapterLines() async throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("reference")
        let output = try await CommandRunner.run(
            "workbook", ["reference", "--book", Self.repository.path, "--out", out.path])
        #expect(output.status == 0, "\(output.stderr.suffix(3000))")

        // The pages the book links to, and what they load.
        for page in [
            "documentation/index.html", "documentation/li2sdk/index.html",
            "documentation/deeplinkcore/index.html",
            "documentation/li2sdk/li2deeplinkresolver/index.html", "data/documentation/li2sdk.json",
            "data/documentation/deeplinkcore.json", "index/index.json", ReferenceBuilder.marker,
        ] {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(page).path), "\(page)")
        }
        let index = try Data(contentsOf: out.appendingPathComponent("documentation/li2sdk/index.html"))
        #expect(String(decoding: index, as: UTF8.self).contains(#"var baseUrl = "/reference/""#))

        // On Linux the Apple-only declarations, behind `#if canImport`, are not compiled
        // (source: "Apple: The Swift Programming Language, Statements"); they are read from the
        // chapters and get pages all the same, under the module and under Extended Modules.
        let module = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: out.appendingPathComponent("data/documentation/li2sdk.json")))
                as? [String: Any])
        let references = try #require(module["references"] as? [String: [String: Any]])
        let urls = Set(references.values.compactMap { $0["url"] as? String })
        for page in ["li2deeplinkresolver", "li2pastebutton", "pastereceiverview", "swiftui"] {
            #expect(urls.contains("/documentation/li2sdk/\(page)"), "\(page)")
        }
        for page in ["li2pastebutton", "pastereceiverview", "swiftui/view/li2deeplink(using:)"] {
            #expect(
                FileManager.default.fileExists(
                    atPath: out.appendingPathComponent("documentation/li2sdk/\(page)/index.html").path),
                "\(page)")
        }
        // The module page opens with what the reference covers and where installing is taught.
        let overview = String(describing: module["primaryContentSections"] ?? "")
        #expect(overview.contains("Apple-only API"))
        #expect(urls.contains("/chapters/09-the-sdk-api.html#installing-the-sdk"))
        // Its links into the book land on headings that exist.
        for url in urls where url.hasPrefix("/chapters/") {
            let parts = url.dropFirst().split(separator: "#", maxSplits: 1).map(String.init)
            let chapter = Self.repository.appendingPathComponent(
                parts[0].replacingOccurrences(of: ".html", with: ".md"))
            let anchors = PageAnchors.ids(ofMarkdown: try String(contentsOf: chapter, encoding: .utf8))
            #expect(parts.count == 2 && anchors.contains(parts[1]), "\(url)")
        }

        // Every public declaration has a doc comment, and every warning is at a chapter line.
        let lines = output.stderr.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasSuffix("has no doc comment") } == [])
        #expect(lines.filter { Self.place($0)?.path.hasPrefix("chapters/") != true } == [])

        // Two closing lines on standard output; the count of missing comments is the warnings'.
        let summary = output.stdout.split(separator: "\n")
        #expect(summary.count == 2)
        #expect(
            summary.first?.contains(" of them Apple-only, read from the chapters), 0 without a doc comment (")
                == true)
        #expect(summary.last?.hasPrefix("reference: ") == true)
        #expect(summary.last?.contains(" in \(out.path) in ") == true)

        // What ./wb serve answers at the URL the chapter links to: the page's index.html.
        let live = LiveReference()
        live.buildSucceeded(folder: out)
        let response = live.response(
            for: HTTPRequest(method: .get, target: "/reference/documentation/li2sdk/"))
        #expect(response.status == .ok)
        #expect(response.body == index)
    }

    @Test func aFolderWithoutPackageSwiftIsBadInput() async throws {
        let folder = try TemporaryFolder()
        try folder.write("chapters/01-a.md", "# A\n")
        let output = try await CommandRunner.run(
            "workbook",
            ["reference", "--book", folder.url.path, "--out", folder.url.appendingPathComponent("out").path])
        #expect(output.status == 2)
        #expect(output.stderr == "error: \(ReferenceMessage.noPackage(folder.url.path))\n")
    }

    @Test func aFolderSomeoneElseWroteIsNeverReplaced() async throws {
        let folder = try TemporaryFolder()
        try folder.write("notes/keep.txt", "mine\n")
        let output = try await CommandRunner.run(
            "workbook",
            [
                "reference", "--book", Self.repository.path, "--out",
                folder.url.appendingPathComponent("notes").path,
            ])
        #expect(output.status == 1)
        #expect(
            output.stderr
                == "error: \(ReferenceMessage.outputNotOurs(folder.url.appendingPathComponent("notes").path))\n"
        )
        #expect(folder.read("notes/keep.txt") == "mine\n")
    }

    @Test func aToolchainWithoutDoccIsAClearErrorBeforeAnyBuild() async throws {
        let folder = try TemporaryFolder()
        let swift = try #require(Self.which("swift"))
        // A `swift` that is a script, not a link into the toolchain: nothing beside it.
        try folder.write("bin/swift", "#!/bin/sh\nexec \(swift) \"$@\"\n")
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o755], ofItemAtPath: folder.url.appendingPathComponent("bin/swift").path)
        let output = try await CommandRunner.run(
            "workbook",
            [
                "reference", "--book", Self.repository.path, "--out",
                folder.url.appendingPathComponent("out").path,
            ],
            environment: ["PATH": folder.url.appendingPathComponent("bin").path + ":/usr/bin:/bin"])
        #expect(output.status == 1)
        #expect(output.stderr == "error: \(ReferenceMessage.toolMissing("docc"))\n")
        #expect(output.stdout.isEmpty)
    }

    /// A build failure is the compiler's message at its place, and exit 1
    /// (source: "this book: workbook reference reports at chapter lines and stops at a failing tool").
    @Test func aPackageThatDoesNotCompileFailsWithTheCompilersMessage() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(name: "Broken", targets: [.target(name: "DeepLinkCore"), .target(name: "Li2SDK")])

            """)
        try folder.write("Sources/DeepLinkCore/Core.swift", "public struct Core {}\n")
        try folder.write("Sources/Li2SDK/SDK.swift", "public let answer: Int = \"forty-two\"\n")
        let output = try await CommandRunner.run(
            "workbook",
            ["reference", "--book", folder.url.path, "--out", folder.url.appendingPathComponent("out").path])
        #expect(output.status == 1)
        #expect(output.stderr.hasPrefix("error: swift build failed (exit status 1):\n"), "\(output.stderr)")
        #expect(output.stderr.contains("SDK.swift:1:"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("out").path))
    }

    @Test func helpSaysWhatTheReferenceIsAndWhereItIsServed() async throws {
        let output = try await CommandRunner.run("workbook", ["reference", "--help"])
        #expect(output.status == 0)
        #expect(
            output.stdout.hasPrefix(
                "OVERVIEW: Build the API reference of the SDK (Li2SDK) and DeepLinkCore with DocC."))
        #expect(output.stdout.contains("http://127.0.0.1:8080/reference/documentation/li2sdk/"))
        #expect(output.stdout.contains("USAGE:\n  workbook reference [--book DIR] [--out DIR]\n"))
    }

    // MARK: Helpers

    /// `path:line:col` at the start of a diagnostic line.
    static func place(_ line: String) -> (path: String, line: Int, column: Int)? {
        let parts = line.split(separator: ":", maxSplits: 3)
        guard parts.count == 4, let number = Int(parts[1]), let column = Int(parts[2]) else { return nil }
        return (String(parts[0]), number, column)
    }

    static func which(_ tool: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(folder)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
