import Foundation
import Literate
import MockServer
import TestSupport
import Testing

@testable import LiveSite

/// A rebuild that starts from the previous build (its pages, search index, parsed chapters,
/// scanned citations, translated files) must write what a build from nothing writes. Seeded
/// random edits of a small book (paragraphs, headings, links, code blocks, whole chapters, the
/// summary, the bibliography, a PO message), and after each one the live site's incremental
/// rebuild is compared with a full rebuild of the same book, file by file, byte for byte, in
/// both languages.
@Suite("Incremental rebuilds equal full ones", .serialized)
struct IncrementalRebuildTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: [11, 2_026, 90_210] as [UInt64])
    func seededEditsGiveTheSameSiteAsAFullRebuild(seed: UInt64) async throws {
        let failures = try await offPool { try Self.run(seed: seed, steps: 10) }
        #expect(failures == [], "seed \(seed): rerun with this seed to see the same edits")
    }

    /// After the first build, English is published before the translations are rebuilt: two
    /// generations a save, the translations of the previous site served meanwhile.
    @Test func englishIsPublishedBeforeTheTranslations() async throws {
        let (generations, work, hasVietnamese) = try await offPool { () throws -> ([Int], [String], Bool) in
            let book = try EditableBook(seed: 1)
            let live = LiveSite()
            let builder = LiveSiteBuilder(settings: book.settings(folder: "live", keeps: true), live: live)
            try builder.prepare()
            builder.rebuild()
            let first = live.status.generation
            builder.rebuild()
            let folder = live.siteFolder?.appendingPathComponent("vi/index.html").path ?? ""
            return (
                [first, live.status.generation], builder.lastWork,
                FileManager.default.fileExists(atPath: folder)
            )
        }
        #expect(generations == [1, 3])
        #expect(work == work.filter { $0.hasPrefix("en: no page, in ") || $0.hasPrefix("vi: no page, in ") })
        #expect(work.count == 2)
        #expect(hasVietnamese)
    }

    /// A rebuild that renders no page writes none either: each page of the new folder, in each
    /// language, and each asset copied is a hard link to the previous build's file (the same
    /// inode), so a save costs no megabytes of writes.
    @Test func aPageRenderedTheSameIsLinkedFromThePreviousBuild() async throws {
        let (linked, pages) = try await offPool { () throws -> (Int, Int) in
            let book = try EditableBook(seed: 2)
            let live = LiveSite()
            let builder = LiveSiteBuilder(settings: book.settings(folder: "live", keeps: true), live: live)
            try builder.prepare()
            builder.rebuild()
            let first = try #require(live.siteFolder)
            func inode(_ url: URL) -> UInt64? {
                var info = stat()
                return stat(url.path, &info) == 0 ? UInt64(info.st_ino) : nil
            }
            // Both languages: the translation's pages move into each new site folder.
            let names =
                try FileManager.default.contentsOfDirectory(atPath: first.path).filter {
                    $0.hasSuffix(".html") && $0 != "print.html"
                }.flatMap { [$0, "vi/" + $0] }
                // The theme's assets, copied once and linked from then on.
                + FileManager.default.contentsOfDirectory(atPath: first.appendingPathComponent("assets").path)
                .filter { $0.contains(".") }.map { "assets/" + $0 }
            let before = names.map { inode(first.appendingPathComponent($0)) }
            builder.rebuild()
            let second = try #require(live.siteFolder)
            let after = names.map { inode(second.appendingPathComponent($0)) }
            let same = zip(before, after).filter { $0 != nil && $0 == $1 }
            return (same.count, names.count)
        }
        #expect(pages > 2)
        #expect(linked == pages)
    }

    /// Applies `steps` edits; after each, both builders rebuild. Returns what differed.
    static func run(seed: UInt64, steps: Int) throws -> [String] {
        let book = try EditableBook(seed: seed)
        let incremental = LiveSite()
        let full = LiveSite()
        let keeping = LiveSiteBuilder(
            settings: book.settings(folder: "incremental", keeps: true), live: incremental)
        let afresh = LiveSiteBuilder(settings: book.settings(folder: "full", keeps: false), live: full)
        try keeping.prepare()
        try afresh.prepare()
        var failures: [String] = []
        var edits: [String] = []
        for step in 0...steps {
            if step > 0 { edits.append(try book.randomEdit()) }
            let kept = keeping.rebuild().map(\.description)
            Memos.isEnabled = false
            let fresh = afresh.rebuild().map(\.description)
            Memos.isEnabled = true
            let context = "seed \(seed), after edits \(edits)"
            if kept != fresh {
                failures.append("\(context): diagnostics differ: \(kept) against \(fresh)")
            }
            guard let keptFolder = incremental.siteFolder, let freshFolder = full.siteFolder else {
                failures.append("\(context): a site is missing")
                continue
            }
            failures += try folderDifferences(keptFolder, freshFolder).map { "\(context): \($0)" }
            if !failures.isEmpty { break }
        }
        return failures
    }
}

/// The small site fixture with a summary, a bibliography and a Vietnamese PO file, edited at
/// random by a seeded generator (``BookEdits``).
private final class EditableBook {
    private let scratch: ScratchBook
    private let edits: BookEdits

    init(seed: UInt64) throws {
        scratch = try ScratchBook()
        edits = try BookEdits(root: scratch.root, seed: seed)
    }

    func settings(folder: String, keeps: Bool) -> LiveSiteBuilder.Settings {
        var settings = scratch.settings(folder: folder)
        settings.keepsPreviousBuild = keeps
        return settings
    }

    /// One edit, named for the failure message.
    func randomEdit() throws -> String { try edits.randomEdit() }
}
