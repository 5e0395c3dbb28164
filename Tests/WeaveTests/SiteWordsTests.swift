import Foundation
import Literate
import TestSupport
import Testing

@testable import Weave

/// The site's own words (`site/words.json`): the file's shape, every word used where it is
/// declared and none left unused, and what happens when a word is missing.
@Suite("The site's words")
struct SiteWordsTests {
    static let repository = TemporaryBook.theme.deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every match of `pattern`'s first group in `text`.
    static func matches(_ pattern: String, in text: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// Every file under `folder` of the repository whose name ends in `suffix`.
    static func files(under folder: String, endingIn suffix: String) -> [String] {
        let root = repository.appendingPathComponent(folder)
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(suffix) { found.append(folder + "/" + path) }
        }
        return found.sorted()
    }

    @Test func theWordsFileIsOnePairPerLineWithLowercaseDottedKeysAndNoDuplicates() throws {
        let text = try Self.read("site/words.json")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "{" && lines.last == "}")
        var keys: [String] = []
        for (index, line) in lines.dropFirst().dropLast().enumerated() {
            let key = try Self.matches(#"^  "([a-z0-9-]+(?:\.[a-z0-9-]+)+)": ".*",?$"#, in: line).first
            #expect(key != nil, "line \(index + 2) is not one \"key\": \"value\" pair: \(line)")
            if let key { keys.append(key) }
        }
        #expect(Set(keys).count == keys.count, "a key is written twice")
        let words = try SiteWords(json: text)
        #expect(words.entries.count == keys.count)
    }

    /// The keys the template (`{{t KEY}}`), the scripts (`t("KEY"`) and the Swift sources use:
    /// the raw values of every `enum …Word` and of ``ServerWords``' keys, and any key written as
    /// `words["KEY"]` or `format("KEY"`.
    static func usedKeys() throws -> (keys: [String: [String]], deadCases: [String]) {
        var used: [String: [String]] = [:]
        func use(_ key: String, _ place: String) { used[key, default: []].append(place) }
        for key in try matches(#"\{\{t ([^}]+?) *\}\}"#, in: try read("site/templates/page.html")) {
            use(key, "site/templates/page.html")
        }
        for script in files(under: "site/assets", endingIn: ".js") {
            for key in try matches(#"(?<![\w$])t\("([^"]+)""#, in: try read(script)) { use(key, script) }
        }
        let sources = files(under: "Sources", endingIn: ".swift")
        var allSwift = ""
        var declared: [(name: String, file: String)] = []
        for file in sources {
            // Comments may show a key as an example: only code counts.
            let text = try read(file).split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.drop { $0 == " " }.hasPrefix("//") }.joined(separator: "\n")
            allSwift += text
            // Enums of words: `enum WeaveWord: String, CaseIterable { case navNext = "nav.next" ... }`.
            for body in try matches(#"enum \w+Word: String[^{]*\{((?:[^{}]|\{[^{}]*\})*)\}"#, in: text) {
                for line in body.split(separator: "\n") {
                    let found = try matches(#"^\s*case (\w+ = "[^"]+")"#, in: String(line))
                    guard let pair = found.first else { continue }
                    let parts = pair.components(separatedBy: " = \"")
                    use(String(parts[1].dropLast()), file)
                    declared.append((parts[0], file))
                }
            }
            // The server's pages: `static let buildingTitle = "live.building.title"` in ServerWords.
            if text.contains("public struct ServerWords") {
                for pair in try matches(#"static let (\w+ = "[^"]+")"#, in: text) {
                    let parts = pair.components(separatedBy: " = \"")
                    use(String(parts[1].dropLast()), file)
                    declared.append((parts[0], file))
                }
            }
            for key in try matches(#"words\[\s*"([^"]+)"\s*\]"#, in: text) { use(key, file) }
            for key in try matches(#"words\.format\(\s*"([^"]+)""#, in: text) { use(key, file) }
        }
        // A declared word that no code says is dead: its name appears only where it is declared.
        let dead = try declared.filter { declaration in
            try matches(#"[.](\#(declaration.name))\b"#, in: allSwift).isEmpty
        }.map { "\($0.name) (\($0.file))" }
        return (used, dead)
    }

    /// Reading every source file takes seconds in a debug build: off the cooperative pool, whose
    /// threads the loopback servers of other suites need meanwhile.
    @Test func everyWordUsedIsInTheFileAndEveryWordInTheFileIsUsed() async throws {
        let words = try SiteWords(json: try Self.read("site/words.json"))
        let (used, dead) = try await offPool { try Self.usedKeys() }
        let missing = used.filter { words.entries[$0.key] == nil }.map { "\($0.key) (\($0.value[0]))" }
            .sorted()
        #expect(missing.isEmpty, "used but not in site/words.json: \(missing)")
        let unused = Set(words.entries.keys).subtracting(used.keys).sorted()
        #expect(unused.isEmpty, "in site/words.json but used nowhere: \(unused)")
        #expect(dead.isEmpty, "declared as words but never said: \(dead)")
        // The scan sees what the build checks: the generator's words and the template's.
        #expect(Set(WeaveWord.allCases.map(\.rawValue)).isSubset(of: Set(used.keys)))
    }

    @Test func theThemeKnowsEachScriptsWords() throws {
        let theme = try Theme.load(TemporaryBook.theme)
        let siteScript = try Self.read("site/assets/site.js")
        #expect(theme.scriptKeys["site.js"] == SiteWords.scriptKeys(in: siteScript).map(\.key))
        #expect(theme.scriptWordKeys(kind: nil) == theme.scriptKeys["site.js"])
        // A theme page of kind `lab` also carries lab.js's words; a chapter only site.js's.
        #expect(theme.scriptWordKeys(kind: "lab").contains("lab.cleared"))
        #expect(!theme.scriptWordKeys(kind: nil).contains("lab.cleared"))
    }

    /// Each `t("key"` call once, at the line of its first use; not the end of another name, not
    /// a string that is not a key, not a literal left open at the end of its line.
    @Test func aScriptsKeysAreItsTCallsInOrder() {
        let script = """
            const a = t("lab.cleared"), b = t("site.search-label");
            text.split("lab.ignored"); $t("lab.dollar"); my_t("lab.under"); ét("lab.accent");
            t("not a key") + t("lab.cleared") + t("lab.open
            t("lab.next-line", { count: 2 }) + t("sim.x.y")
            """
        let found = SiteWords.scriptKeys(in: script)
        #expect(found.map(\.key) == ["lab.cleared", "site.search-label", "lab.next-line", "sim.x.y"])
        #expect(found.map(\.line) == [1, 1, 4, 4])
    }

    @Test func aWordIsFilledAndAMissingWordShowsItsKey() throws {
        let words = try SiteWords(json: #"{"nav.minutes": "{minutes} min", "a.b": "x {y} {z}"}"#)
        #expect(words.format("nav.minutes", ["minutes": "12"]) == "12 min")
        #expect(words.format("a.b", ["y": "1"]) == "x 1 {z}")
        #expect(words["nav.next"] == "nav.next")
        #expect(words.missing(["nav.next", "a.b", "nav.next"]) == ["nav.next"])
        #expect(
            SiteWords.fill("*{a}* and {b}", ["a": "*x*", "b": "y"], literal: MarkdownText.escape)
                == "\\**x*\\* and y")
    }

    struct BadFile: Sendable, CustomTestStringConvertible {
        var id: String
        var json: String
        var expected: WeaveMessage
        var testDescription: String { id }
    }

    static let badFiles: [BadFile] = [
        .init(
            id: "not-a-string", json: "{\n  \"nav.next\": \"Next\",\n  \"nav.count\": 3\n}",
            expected: .invalidWords(line: 3, detail: "the word 'nav.count' is not a string")),
        .init(
            id: "twice", json: "{\n  \"nav.next\": \"Next\",\n  \"nav.next\": \"Onwards\"\n}",
            expected: .invalidWords(line: 3, detail: "the key 'nav.next' is written twice (first on line 2)")),
        .init(
            id: "not-a-key", json: "{\n  \"Next\": \"Next\"\n}",
            expected: .invalidWords(
                line: 2,
                detail: "'Next' is not a key: write lowercase words joined by dots, such as 'nav.next'")),
        .init(
            id: "syntax", json: "{\n  \"nav.next\": \"Next\",\n}",
            expected: .invalidWords(line: 2, detail: "a comma before '}': remove the trailing comma")),
    ]

    @Test(arguments: badFiles)
    func aBadWordsFileIsAnErrorAtItsLine(_ file: BadFile) {
        #expect(throws: file.expected) { try SiteWords(json: file.json) }
    }

    @Test func theTemplateInlinesWordsEscapedAndFailsOnAnUnknownOne() throws {
        let words = SiteWords(["site.name": "Tom & Jerry", "footer.html": "<b>{source-path}</b> ok"])
        let template = try PageTemplate(
            text: "<title>{{t site.name}}</title>\n<p>{{t footer.html}}</p>", icons: [:], words: words)
        #expect(
            template.render(strings: ["source-path": "a.md"])
                == "<title>Tom &amp; Jerry</title>\n<p><b>a.md</b> ok</p>")
        #expect(throws: WeaveMessage.unknownWord(key: "nav.next", line: 2)) {
            try PageTemplate(text: "<title>{{t site.name}}</title>\n{{t nav.next}}", icons: [:], words: words)
        }
    }

    @Test func theScriptsWordsCannotCloseTheirElement() {
        let words = SiteWords(["a.b": "</script><b>\"x\"</b>", "a.c": "line\nnext"])
        #expect(
            words.scriptJSON(["a.c", "a.b"])
                == #"{"a.b":"\u003c/script>\u003cb>\"x\"\u003c/b>","a.c":"line\nnext"}"#)
    }

    @Test func aWordTheGeneratorUsesMissingFromTheBuildsWordsStopsTheBuild() throws {
        let book = try TemporaryBook(chapters: ["01-a.md": "# A\n\nText.\n"])
        var words = TemporaryBook.words
        words.entries["pager.next"] = nil
        #expect {
            try book.build { $0.words = words }
        } throws: { error in
            let text = "\(error)"
            return text.contains("site/words.json:1") && text.contains("'pager.next'")
        }
    }

    @Test func aTranslatedBuildSaysItsOwnWords() throws {
        let book = try TemporaryBook(chapters: ["01-a.md": "# A\n\n## Part\n\nText.\n", "02-b.md": "# B\n"])
        var words = TemporaryBook.words
        words.entries["pager.next"] = "Tiếp"
        words.entries["toc.title"] = "Trên trang này"
        words.entries["search.placeholder"] = "Tìm"
        words.entries["code.copy"] = "Chép"
        _ = try book.build { $0.words = words }
        let page = try #require(book.output("chapters/01-a.html"))
        #expect(page.contains(#"<span class="pager-label">Tiếp</span>"#))
        #expect(page.contains(#"<h2 class="toc-title" id="toc-title">Trên trang này</h2>"#))
        #expect(page.contains(#"<aside class="toc" aria-label="Trên trang này">"#))
        #expect(page.contains(#"placeholder="Tìm""#))
        #expect(page.contains(#""code.copy":"Chép""#))
    }
}
