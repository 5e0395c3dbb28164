import Foundation

/// Seeded random edits of a small book, the kind an author makes: paragraphs, headings, links,
/// code blocks, whole chapters, the summary, the bibliography, a PO message. The tests that
/// compare an incremental rebuild with a full one apply them, to the live site's builder and to
/// a running `workbook serve`; a failure names the seed, so the same edits can be replayed.
package final class BookEdits {
    /// One edit: what it does, for a failure message, and the files it writes in order. After
    /// each write the book is whole (a chapter is written before the summary lists it, and
    /// unlisted before it is removed), so a server may rebuild between two writes.
    package struct Edit {
        package var name: String
        package var writes: [() throws -> Bool]
    }

    package let root: URL
    private var random: SplitMix64
    private var counter = 0

    /// Adds to the book at `root` what the edits work on: a summary of two parts, a bibliography
    /// the second chapter cites, and a Vietnamese PO file translating one title.
    package init(root: URL, seed: UInt64) throws {
        self.root = root
        random = SplitMix64(seed: seed)
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

    /// Applies the next edit at once; its name.
    package func randomEdit() throws -> String {
        let edit = try nextEdit()
        for write in edit.writes { _ = try write() }
        return edit.name
    }

    /// The next edit, not yet applied: each of its writes says whether it changed a file.
    package func nextEdit() throws -> Edit {
        counter += 1
        let counter = counter
        let chapters = try chapterNames()
        let chapter = "chapters/" + chapters[Int(random.next() % UInt64(chapters.count))]
        switch random.next() % 11 {
        case 0:
            return Edit(
                name: "add a paragraph to \(chapter)",
                writes: [{ try self.append(chapter, "\nA new paragraph, number \(counter).\n") }])
        case 1:
            return Edit(
                name: "change a word of \(chapter)",
                writes: [{ try self.replaceFirst(in: chapter, "chapter", with: "chapter \(counter)") }])
        case 2:
            return Edit(
                name: "remove a paragraph of \(chapter)",
                writes: [{ try self.removeLast(in: chapter, where: { $0.hasPrefix("A new paragraph") }) }])
        case 3:
            return Edit(
                name: "add a heading to \(chapter)",
                writes: [{ try self.append(chapter, "\n## Heading \(counter)\n\nUnder it.\n") }])
        case 4:
            let other = chapters[Int(random.next() % UInt64(chapters.count))]
            let anchor = counter % 2 == 0 ? "top" : "missing-\(counter)"
            return Edit(
                name: "add a link to \(chapter)",
                writes: [{ try self.append(chapter, "\nSee [the other chapter](\(other)#\(anchor)).\n") }])
        case 5:
            return Edit(
                name: "add a code block to \(chapter)",
                writes: [
                    {
                        try self.append(
                            chapter, "\n```swift {#chunk-\(counter)}\nlet value\(counter) = \(counter)\n```\n"
                        )
                    }
                ])
        case 6:
            let name = String(format: "%02d-added-%d.md", chapters.count + 1, counter)
            return Edit(
                name: "add the chapter \(name)",
                writes: [
                    {
                        try self.write(
                            "chapters/\(name)", "# Added \(counter)\n\nA chapter added by an edit.\n")
                    },
                    { try self.append("chapters/SUMMARY.md", "- [Added \(counter)](\(name))\n") },
                ])
        case 7:
            guard let added = chapters.last(where: { $0.contains("-added-") }) else {
                return Edit(name: "no chapter to remove", writes: [])
            }
            return Edit(
                name: "remove the chapter \(added)",
                writes: [
                    { try self.removeLast(in: "chapters/SUMMARY.md", where: { $0.contains(added) }) },
                    {
                        try FileManager.default.removeItem(
                            at: self.root.appendingPathComponent("chapters/\(added)"))
                        return true
                    },
                ])
        case 8:
            return Edit(
                name: "rename a part in the summary",
                writes: [
                    {
                        try self.replaceFirst(
                            in: "chapters/SUMMARY.md", "# Part two", with: "# Part two, \(counter)")
                    }
                ])
        case 9:
            return Edit(
                name: "change the bibliography",
                writes: [
                    {
                        try self.replaceFirst(
                            in: "chapters/sources.json", "Uniform Resource Identifier", with: "URI \(counter)"
                        )
                    }
                ])
        default:
            let translations = ["Lời chào", "Xin chào", ""]
            return Edit(
                name: "change a PO message",
                writes: [
                    {
                        try self.replaceFirst(
                            in: "po/vi.po", #"msgstr "\#(try self.currentGreeting())""#,
                            with: #"msgstr "\#(translations[counter % translations.count])""#)
                    }
                ])
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

    /// Writes `text` to `path` unless the file holds it already; whether it wrote.
    @discardableResult
    private func write(_ path: String, _ text: String) throws -> Bool {
        let url = root.appendingPathComponent(path)
        if let old = FileManager.default.contents(atPath: url.path), old == Data(text.utf8) { return false }
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return true
    }

    @discardableResult
    private func append(_ path: String, _ text: String) throws -> Bool {
        try write(path, try read(path) + text)
    }

    private func replaceFirst(in path: String, _ old: String, with new: String) throws -> Bool {
        let text = try read(path)
        guard let range = text.range(of: old) else { return false }
        return try write(path, text.replacingCharacters(in: range, with: new))
    }

    private func removeLast(in path: String, where matches: (Substring) -> Bool) throws -> Bool {
        var lines = try read(path).split(separator: "\n", omittingEmptySubsequences: false)
        guard let index = lines.lastIndex(where: matches) else { return false }
        lines.remove(at: index)
        return try write(path, lines.joined(separator: "\n"))
    }
}

/// The files that are in one folder only, or differ between the two, by their paths inside.
package func folderDifferences(_ left: URL, _ right: URL) throws -> [String] {
    let leftFiles = try filesByPath(in: left)
    let rightFiles = try filesByPath(in: right)
    var found: [String] = []
    for path in Set(leftFiles.keys).symmetricDifference(rightFiles.keys).sorted() {
        found.append("\(path) is in one site only")
    }
    for (path, bytes) in leftFiles.sorted(by: { $0.key < $1.key }) {
        if let other = rightFiles[path], other != bytes { found.append("\(path) differs") }
    }
    return found
}

/// Every regular file below `folder`, by its path inside it.
package func filesByPath(in folder: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let base = folder.resolvingSymlinksInPath().path + "/"
    guard
        let walk = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey])
    else { return files }
    for case let url as URL in walk
    where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
        let path = url.resolvingSymlinksInPath().path
        files[path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path] = try Data(contentsOf: url)
    }
    return files
}

/// A small seeded generator (SplitMix64), so that a failing sequence of edits can be replayed.
package struct SplitMix64 {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
