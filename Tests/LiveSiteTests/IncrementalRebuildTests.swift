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
            failures += try differences(keptFolder, freshFolder).map { "\(context): \($0)" }
            if !failures.isEmpty { break }
        }
        return failures
    }

    /// The files that are in one folder only, or differ.
    static func differences(_ left: URL, _ right: URL) throws -> [String] {
        let leftFiles = try files(in: left)
        let rightFiles = try files(in: right)
        var found: [String] = []
        for path in Set(leftFiles.keys).symmetricDifference(rightFiles.keys).sorted() {
            found.append("\(path) is in one site only")
        }
        for (path, bytes) in leftFiles.sorted(by: { $0.key < $1.key }) {
            if let other = rightFiles[path], other != bytes { found.append("\(path) differs") }
        }
        return found
    }

    static func files(in folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let base = folder.resolvingSymlinksInPath().path + "/"
        guard
            let walk = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        else { return files }
        for case let url as URL in walk
        where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            let path = url.resolvingSymlinksInPath().path
            files[path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path] = try Data(
                contentsOf: url)
        }
        return files
    }
}

/// The small site fixture with a summary, a bibliography and a Vietnamese PO file, edited at
/// random by a seeded generator.
private final class EditableBook {
    private let scratch: ScratchBook
    private var random: SplitMix64
    private var counter = 0
    var root: URL { scratch.root }

    init(seed: UInt64) throws {
        random = SplitMix64(seed: seed)
        scratch = try ScratchBook()
        try write(
            "chapters/SUMMARY.md",
            "# Summary\n\n# Part one\n\n- [Greeting](01-greeting.md)\n\n# Part two\n\n- [Farewell](02-farewell.md)\n"
        )
        try write(
            "chapters/sources.json",
            """
            {
              "sources": [
                {
                  "key": "rfc3986", "label": "RFC 3986", "title": "Uniform Resource Identifier",
                  "publisher": "IETF", "url": "https://www.rfc-editor.org/rfc/rfc3986", "read": "2026-12-05"
                }
              ],
              "decisions": []
            }

            """)
        try append("chapters/02-farewell.md", "\nLinks follow [RFC 3986](source:rfc3986).\n")
        try write(
            "po/vi.po",
            """
            msgid ""
            msgstr ""
            "Content-Type: text/plain; charset=UTF-8\\n"
            "Language: vi\\n"

            msgid "Greeting"
            msgstr "Lời chào"

            """)
    }

    func settings(folder: String, keeps: Bool) -> LiveSiteBuilder.Settings {
        var settings = scratch.settings(folder: folder)
        settings.keepsPreviousBuild = keeps
        return settings
    }

    /// One edit, named for the failure message.
    func randomEdit() throws -> String {
        counter += 1
        let chapters = try chapterNames()
        let chapter = "chapters/" + chapters[Int(random.next() % UInt64(chapters.count))]
        switch random.next() % 11 {
        case 0:
            try append(chapter, "\nA new paragraph, number \(counter).\n")
            return "add a paragraph to \(chapter)"
        case 1:
            try replaceFirst(in: chapter, "chapter", with: "chapter \(counter)")
            return "change a word of \(chapter)"
        case 2:
            try removeLast(in: chapter, where: { $0.hasPrefix("A new paragraph") })
            return "remove a paragraph of \(chapter)"
        case 3:
            try append(chapter, "\n## Heading \(counter)\n\nUnder it.\n")
            return "add a heading to \(chapter)"
        case 4:
            let other = chapters[Int(random.next() % UInt64(chapters.count))]
            try append(
                chapter,
                "\nSee [the other chapter](\(other)#\(counter % 2 == 0 ? "top" : "missing-\(counter)")).\n")
            return "add a link to \(chapter)"
        case 5:
            try append(chapter, "\n```swift {#chunk-\(counter)}\nlet value\(counter) = \(counter)\n```\n")
            return "add a code block to \(chapter)"
        case 6:
            let name = String(format: "%02d-added-%d.md", chapters.count + 1, counter)
            try write("chapters/\(name)", "# Added \(counter)\n\nA chapter added by an edit.\n")
            try append("chapters/SUMMARY.md", "- [Added \(counter)](\(name))\n")
            return "add the chapter \(name)"
        case 7:
            guard let added = chapters.last(where: { $0.contains("-added-") }) else {
                return "no chapter to remove"
            }
            try FileManager.default.removeItem(at: root.appendingPathComponent("chapters/\(added)"))
            try removeLast(in: "chapters/SUMMARY.md", where: { $0.contains(added) })
            return "remove the chapter \(added)"
        case 8:
            try replaceFirst(in: "chapters/SUMMARY.md", "# Part two", with: "# Part two, \(counter)")
            return "rename a part in the summary"
        case 9:
            try replaceFirst(
                in: "chapters/sources.json", "Uniform Resource Identifier", with: "URI \(counter)")
            return "change the bibliography"
        default:
            let translations = ["Lời chào", "Xin chào", ""]
            try replaceFirst(
                in: "po/vi.po", #"msgstr "\#(try currentGreeting())""#,
                with: #"msgstr "\#(translations[counter % translations.count])""#)
            return "change a PO message"
        }
    }

    private func currentGreeting() throws -> String {
        let text = try read("po/vi.po")
        guard let range = text.range(of: "msgid \"Greeting\"\nmsgstr \"") else { return "" }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }

    private func chapterNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("chapters").path)
            .filter { $0.hasSuffix(".md") && $0 != "SUMMARY.md" }.sorted()
    }

    private func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    private func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private func append(_ path: String, _ text: String) throws { try write(path, try read(path) + text) }

    private func replaceFirst(in path: String, _ old: String, with new: String) throws {
        let text = try read(path)
        guard let range = text.range(of: old) else { return }
        try write(path, text.replacingCharacters(in: range, with: new))
    }

    private func removeLast(in path: String, where matches: (Substring) -> Bool) throws {
        var lines = try read(path).split(separator: "\n", omittingEmptySubsequences: false)
        guard let index = lines.lastIndex(where: matches) else { return }
        lines.remove(at: index)
        try write(path, lines.joined(separator: "\n"))
    }
}

/// A small seeded generator (SplitMix64), so that a failing sequence of edits can be replayed.
private struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
