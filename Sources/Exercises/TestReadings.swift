import Foundation
import Weave

/// Where the book explains the rule each exercise test checks: the `/// Read:` lines in a test's
/// doc comment, each naming a chapter section.
///
/// ```swift
/// /// The first rule that matches decides.
/// /// Read: chapters/03-universal-links.md#which-app-opens-this-url
/// @Test(arguments: decisions)
/// func theFirstMatchingRuleDecides(_ testCase: DecisionCase) { … }
/// ```
///
/// A case of a table-driven test names its own rule's section in its `source:`
/// (`source: "this book: chapter 02, Patterns"`): when such a case fails, that section is the
/// link, since the function's `Read:` lines cover every case at once. A case whose source is an
/// RFC or a platform page falls back to its function's lines.
///
/// A failing check prints the links under each failure, and `exercises verify` reports a test
/// without one, a link to a chapter or section that does not exist, and a case whose
/// cross-reference names no section.
package struct TestReadings: Sendable {
    /// One case of a test table: its id, what its `source:` says, and where it is written.
    struct CaseSource: Equatable, Sendable {
        var id: String
        var source: String
        var file: String
        var line: Int
    }

    /// One `@Test` function and the sections it names.
    package struct Entry: Equatable, Sendable {
        /// The test file, relative to the book (`exercises/06-…/Tests/ComponentTests.swift`).
        var file: String
        var function: String
        /// The line of the function's `func`.
        var line: Int
        var links: [String]
    }

    var entries: [Entry]
    var cases: [CaseSource]
    let sections: BookSections

    /// Reads every Swift file of an exercise's `Tests/` folder.
    package init(exercise: Exercise, bookRoot: URL, sections: BookSections? = nil) {
        var entries: [Entry] = []
        var cases: [CaseSource] = []
        let rootPath = bookRoot.standardizedFileURL.path + "/"
        for file in GeneratedPackage.swiftFiles(in: exercise.tests) {
            guard let data = FileManager.default.contents(atPath: file.path) else { continue }
            var path = file.standardizedFileURL.path
            if path.hasPrefix(rootPath) { path.removeFirst(rootPath.count) }
            let text = String(decoding: data, as: UTF8.self)
            entries += Self.entries(in: text, file: path)
            cases += Self.caseSources(in: text, file: path)
        }
        self.entries = entries
        self.cases = cases
        self.sections = sections ?? BookSections(root: bookRoot)
    }

    init(entries: [Entry], cases: [CaseSource] = [], sections: BookSections) {
        (self.entries, self.cases, self.sections) = (entries, cases, sections)
    }

    /// Each `id:` argument of a file, with the `source:` argument that follows it before the next `id:`.
    static func caseSources(in text: String, file: String) -> [CaseSource] {
        var found: [CaseSource] = []
        var pending: (id: String, line: Int)?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rest = Substring(line)
            while let (label, range) = firstLabel(in: rest),
                let end = rest[range.upperBound...].firstIndex(of: "\"")
            {
                let value = String(rest[range.upperBound..<end])
                if label == "id" {
                    pending = (value, index + 1)
                } else if let current = pending {
                    found.append(CaseSource(id: current.id, source: value, file: file, line: current.line))
                    pending = nil
                }
                rest = rest[rest.index(after: end)...]
            }
        }
        return found
    }

    /// The first `id: "` or `source: "` argument label on a line (not the end of a longer name).
    private static func firstLabel(in text: Substring) -> (String, Range<Substring.Index>)? {
        var best: (String, Range<Substring.Index>)?
        for label in ["id", "source"] {
            var searchFrom = text.startIndex
            while let range = text[searchFrom...].range(of: label + #": ""#) {
                let isWhole =
                    range.lowerBound == text.startIndex
                    || !text[text.index(before: range.lowerBound)].isLetter
                if isWhole {
                    if best.map({ range.lowerBound < $0.1.lowerBound }) ?? true { best = (label, range) }
                    break
                }
                searchFrom = range.upperBound
            }
        }
        return best
    }

    /// The case a failed result is, by the id its description starts with.
    func caseSource(for testCase: String) -> CaseSource? {
        cases.filter {
            testCase == $0.id || testCase.hasPrefix($0.id + ":") || testCase.hasPrefix($0.id + " ")
        }
        .max { $0.id.count < $1.id.count }
    }

    /// The `@Test` functions of one file, with the `Read:` links of their doc comments.
    static func entries(in text: String, file: String) -> [Entry] {
        var entries: [Entry] = []
        var links: [String] = []
        var isTest = false
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("///") {
                let comment = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
                if comment.hasPrefix("Read:") {
                    links.append(comment.dropFirst("Read:".count).trimmingCharacters(in: .whitespaces))
                }
                continue
            }
            if line.hasPrefix("@") {
                if line.hasPrefix("@Test") { isTest = true }
                // `@Test func name() {}` on one line.
                guard isTest, let declaration = line.range(of: " func ") else { continue }
                let name = line[declaration.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                if !name.isEmpty {
                    entries.append(Entry(file: file, function: String(name), line: index + 1, links: links))
                }
                links = []
                isTest = false
                continue
            }
            if isTest, let name = functionName(line) {
                entries.append(Entry(file: file, function: name, line: index + 1, links: links))
            }
            links = []
            isTest = false
        }
        return entries
    }

    /// `aPatternMatches` from `func aPatternMatches(_ testCase: PatternCase) {` (with modifiers).
    private static func functionName(_ line: String) -> String? {
        guard let range = line.range(of: "func ") else { return nil }
        let before = line[..<range.lowerBound].split(separator: " ")
        let modifiers: Set<Substring> = [
            "static", "private", "fileprivate", "internal", "public", "mutating",
        ]
        guard before.allSatisfy({ modifiers.contains($0) }) else { return nil }
        let name = line[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return name.isEmpty ? nil : String(name)
    }

    /// The sections a failed test names: its case's own section when its `source:` is a
    /// cross-reference of the book; else its function's `Read:` lines, the function found by
    /// where its first issue was recorded (the test function around that line), else by name.
    func links(for result: TestResult) -> [SectionLink] {
        if let testCase = result.testCase, let source = caseSource(for: testCase),
            case .resolved(let link) = sections.crossReference(source.source)
        {
            return [link]
        }
        return functionLinks(for: result).map { reference in
            if let link = sections.link(reference) { return link }
            // A section that is not there (verify reports it): the page as written, without a line.
            let parts = reference.split(separator: "#", maxSplits: 1).map(String.init)
            return SectionLink(
                file: parts[0], anchor: parts.count > 1 ? parts[1] : nil, line: nil,
                sitePrefix: sections.sitePrefix)
        }
    }

    private func functionLinks(for result: TestResult) -> [String] {
        if let location = result.issues.lazy.compactMap(\.location).first,
            let colon = location.lastIndex(of: ":"), let line = Int(location[location.index(after: colon)...])
        {
            let file = String(location[..<colon])
            let enclosing = entries.filter { $0.file == file && $0.line <= line }.max { $0.line < $1.line }
            if let enclosing { return enclosing.links }
        }
        return entries.first { $0.function == result.name }?.links ?? []
    }

    /// One sentence per test without a `Read:` line, or with one that leads nowhere.
    package func problems(bookRoot: URL) -> [String] {
        var problems: [String] = []
        var anchors: [String: Set<String>?] = [:]
        for entry in entries {
            let place = "\(entry.file):\(entry.line)"
            if entry.links.isEmpty {
                problems.append(
                    "\(place): test '\(entry.function)' has no '/// Read: chapters/…md#section' line "
                        + "naming where the chapter explains its rule")
            }
            for link in entry.links {
                let parts = link.split(separator: "#", maxSplits: 1).map(String.init)
                guard parts.count == 2, parts[0].hasPrefix("chapters/"), parts[0].hasSuffix(".md") else {
                    problems.append("\(place): '\(link)' is not of the form chapters/NN-slug.md#section")
                    continue
                }
                if anchors[parts[0]] == nil {
                    anchors[parts[0]] = Self.headingAnchors(of: bookRoot.appendingPathComponent(parts[0]))
                }
                guard let known = anchors[parts[0]] ?? nil else {
                    problems.append("\(place): '\(link)' names a chapter that does not exist")
                    continue
                }
                if !known.contains(parts[1]) {
                    problems.append("\(place): '\(link)' names no section of \(parts[0])")
                }
            }
        }
        for testCase in cases where sections.crossReference(testCase.source) == .unresolved {
            problems.append(
                "\(testCase.file):\(testCase.line): case '\(testCase.id)' cites '\(testCase.source)', "
                    + "which names no section of the book")
        }
        return problems
    }

    /// The anchors of a chapter, as the site makes them; nil when the file cannot be read.
    static func headingAnchors(of file: URL) -> Set<String>? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return PageAnchors.ids(ofMarkdown: String(decoding: data, as: UTF8.self))
    }
}
