import Foundation
import Literate
import MockServer
import TestSupport
import Testing

@testable import LiveSite

/// A throwaway book: the repository's small site fixture copied to a temporary folder.
final class ScratchBook {
    let root: URL

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("live-book-\(UUID().uuidString)")
            .resolvingSymlinksInPath()
        try FileManager.default.copyItem(
            at: Self.repository.appendingPathComponent("Tests/WeaveTests/Fixtures/small-book"), to: root)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func settings(executable: URL? = nil, folder: String = "test") -> LiveSiteBuilder.Settings {
        var settings = LiveSiteBuilder.Settings(
            bookRoot: root, themeFolder: Self.repository.appendingPathComponent("site"),
            outputFolder: root.appendingPathComponent(".build/serve-site/\(folder)"),
            coverageFile: nil, checkers: { [] })
        settings.swiftc = nil
        settings.executable = executable
        return settings
    }
}

@Suite("Building the live site", .serialized)
struct LiveSiteBuilderTests {
    @Test func eachRebuildIsANewGenerationInAFolderOfItsOwn() throws {
        let book = try ScratchBook()
        let live = LiveSite()
        let builder = LiveSiteBuilder(settings: book.settings(), live: live)
        try builder.prepare()
        #expect(builder.rebuild().filter { $0.severity == .error }.isEmpty)
        let first = try #require(live.siteFolder)
        #expect(first.lastPathComponent == "site-1")
        #expect(FileManager.default.fileExists(atPath: first.appendingPathComponent("index.html").path))
        #expect(live.status.generation == 1)
        #expect(live.status.state == .ready)
        builder.rebuild()
        builder.rebuild()
        #expect(live.siteFolder?.lastPathComponent == "site-3")
        #expect(live.status.generation == 3)
        // The folder just replaced stays (a page may still be loading from it); older ones go.
        let names = try FileManager.default.contentsOfDirectory(atPath: book.settings().outputFolder.path)
        #expect(names.sorted() == ["site-2", "site-3"])
    }

    @Test func aBrokenLinkIsADiagnosticAndTheSiteIsStillServed() throws {
        let book = try ScratchBook()
        try book.write("chapters/03-broken.md", "# Broken\n\nSee [nowhere](04-missing.md).\n")
        let live = LiveSite()
        let builder = LiveSiteBuilder(settings: book.settings(), live: live)
        try builder.prepare()
        builder.rebuild()
        #expect(live.status.state == .ready)
        let errors = live.status.diagnostics.filter { $0.severity == "error" }
        #expect(errors.map(\.file) == ["chapters/03-broken.md"])
        #expect(errors.map(\.line) == [3])
    }

    @Test func aBuildThatCannotFinishKeepsThePreviousSite() throws {
        let book = try ScratchBook()
        let live = LiveSite()
        let builder = LiveSiteBuilder(settings: book.settings(), live: live)
        try builder.prepare()
        builder.rebuild()
        let served = live.siteFolder
        try FileManager.default.removeItem(at: book.root.appendingPathComponent("chapters"))
        builder.rebuild()
        #expect(live.status.state == .failed)
        #expect(live.status.generation == 1)
        #expect(live.siteFolder == served)
        #expect(live.status.diagnostics.count == 1)
    }

    @Test func chaptersThatTangleToNewSwiftAskForATangleAndARestart() throws {
        let book = try ScratchBook()
        // In step first: the fixture's own chapters tangled to disk.
        let tangle = Tangler.tangle(try Book.load(root: book.root))
        try TangleWriter.apply(TangleWriter.plan(tangle, root: book.root, force: false), root: book.root)
        #expect(LiveSiteBuilder(settings: book.settings(), live: LiveSite()).runChecks().restartReason == nil)
        try book.write(
            "chapters/03-code.md", "# Code\n\n```swift {file=Sources/Demo/Demo.swift}\nlet answer = 42\n```\n"
        )
        let builder = LiveSiteBuilder(settings: book.settings(), live: LiveSite())
        let (_, reason) = builder.runChecks()
        #expect(
            reason
                == "The chapters now tangle to different Swift than Sources/Demo/Demo.swift. "
                + "Run ./wb tangle, then stop and restart ./wb serve to run the new code.")
    }

    @Test func proseThatOnlyMovesTheCodeAsksForNoRestart() throws {
        let book = try ScratchBook()
        let tangle = Tangler.tangle(try Book.load(root: book.root))
        try TangleWriter.apply(TangleWriter.plan(tangle, root: book.root, force: false), root: book.root)
        let chapter = book.root.appendingPathComponent("chapters/01-greeting.md")
        let text = try String(contentsOf: chapter, encoding: .utf8)
        let firstBreak = try #require(text.firstIndex(of: "\n"))
        try book.write(
            "chapters/01-greeting.md",
            String(text[...firstBreak]) + "\nA new paragraph.\n\nAnd another.\n" + String(text[firstBreak...])
        )
        let builder = LiveSiteBuilder(settings: book.settings(), live: LiveSite())
        #expect(builder.runChecks().restartReason == nil)
    }

    @Test func tangledFilesNewerThanTheServerAskForARestart() throws {
        let book = try ScratchBook()
        try book.write(
            "chapters/03-code.md", "# Code\n\n```swift {file=Sources/Demo/Demo.swift}\nlet answer = 42\n```\n"
        )
        let tangle = Tangler.tangle(try Book.load(root: book.root))
        try TangleWriter.apply(TangleWriter.plan(tangle, root: book.root, force: false), root: book.root)
        try book.write(".build/debug/workbook", "an executable")
        let executable = book.root.appendingPathComponent(".build/debug/workbook")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: executable.path)
        let builder = LiveSiteBuilder(settings: book.settings(executable: executable), live: LiveSite())
        #expect(
            builder.runChecks().restartReason
                == "Sources/Greeter/Greeter.swift and 1 more tangled files are newer than the running server. "
                + "Stop and restart ./wb serve to run the new code.")
        // An executable built elsewhere was not built from this book: nothing to say.
        let elsewhere = LiveSiteBuilder(
            settings: book.settings(executable: URL(fileURLWithPath: "/usr/bin/env")), live: LiveSite())
        #expect(elsewhere.runChecks().restartReason == nil)
    }

    @Test func checksReportToTheLiveSite() async throws {
        let book = try ScratchBook()
        try book.write("chapters/03-json.md", "# JSON\n\n```json\n{\"a\": }\n```\n")
        let live = LiveSite()
        let builder = LiveSiteBuilder(settings: book.settings(), live: live)
        builder.requestChecks()
        #expect(await eventually { !live.status.diagnostics.isEmpty })
        #expect(live.status.diagnostics.first?.file == "chapters/03-json.md")
        builder.close()
    }

    @Test func coverageComesFromWhatTheTestRunLeft() throws {
        let book = try ScratchBook()
        #expect(LiveSiteBuilder.coverageFile(in: book.root) == nil)
        try book.write(".build/debug/codecov/old.json", "{}")
        try book.write(".build/test/debug/codecov/DeepLinkWorkbook.json", "{}")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -60)],
            ofItemAtPath: book.root.appendingPathComponent(".build/debug/codecov/old.json").path)
        #expect(
            LiveSiteBuilder.coverageFile(in: book.root)?.path
                == book.root.appendingPathComponent(".build/test/debug/codecov/DeepLinkWorkbook.json").path)
    }
}
