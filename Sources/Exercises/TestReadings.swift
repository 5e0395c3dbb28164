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
/// A failing check prints the links under each failure, and `exercises verify` reports a test
/// without one, or a link to a chapter or section that does not exist.
package struct TestReadings: Sendable {
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

    /// Reads every Swift file of an exercise's `Tests/` folder.
    package init(exercise: Exercise, bookRoot: URL) {
        var entries: [Entry] = []
        let rootPath = bookRoot.standardizedFileURL.path + "/"
        for file in GeneratedPackage.swiftFiles(in: exercise.tests) {
            guard let data = FileManager.default.contents(atPath: file.path) else { continue }
            var path = file.standardizedFileURL.path
            if path.hasPrefix(rootPath) { path.removeFirst(rootPath.count) }
            entries += Self.entries(in: String(decoding: data, as: UTF8.self), file: path)
        }
        self.entries = entries
    }

    init(entries: [Entry]) { self.entries = entries }

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

    /// The sections a failed test names: found by where its first issue was recorded (the test
    /// function around that line), else by its function name.
    func links(for result: TestResult) -> [String] {
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
        return problems
    }

    /// The anchors of a chapter, as the site makes them; nil when the file cannot be read.
    static func headingAnchors(of file: URL) -> Set<String>? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return PageAnchors.ids(ofMarkdown: String(decoding: data, as: UTF8.self))
    }
}
