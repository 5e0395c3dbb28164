import Foundation
import Literate
import TestSupport
import Testing
import Weave

@testable import Translations

/// A site built in a second language: the same pages, anchors and code, the prose translated
/// where a translation exists and marked English where it does not.
@Suite struct TranslatedSiteTests {
    /// The repository's theme, from this file's place in `Tests/TranslationsTests/`.
    static let theme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("site")

    static let table: [String: String] = [
        "Opening links": "Mở link",
        "An app opens a link with `open(_:)`,\nand says \"yes\" or a back\\slash.":
            "Ứng dụng mở link bằng `open(_:)`,\nrồi trả lời \"có\" hoặc một dấu gạch ngược\\.",
        "Part I: The guide": "Phần I: Hướng dẫn",
        "Parse a link": "Phân tích một link",
    ]

    /// Builds both sites off the cooperative pool: a build blocks its thread for most of a
    /// second, and the loopback servers of other suites need the pool's threads meanwhile.
    func build() async throws -> (TemporaryFolder, english: URL, translated: URL) {
        let book = try fixtureBook()
        try book.write("chapters/doors.png", "not really a picture")
        let out = book.url.appendingPathComponent("out")
        var english = SiteOptions(
            bookRoot: book.url, outputFolder: out, themeFolder: Self.theme, checkers: [])
        english.runsSnippetChecks = false
        english.swiftc = nil
        english.otherLanguages = [SiteLanguage(code: "vi", name: "Tiếng Việt", root: "vi/")]
        var translated = english
        translated.outputFolder = out.appendingPathComponent("vi")
        translated.language = "vi"
        translated.otherLanguages = [SiteLanguage(code: "en", name: "English", root: "../")]
        let table = Self.table
        translated.translation = SiteTranslation(
            language: "vi", markdown: { _, source in MarkdownTranslator.translate(source) { table[$0] } },
            message: { table[$0] })
        let (englishSite, translatedSite) = (english, translated)
        let (englishReport, translatedReport) = try await offPool {
            (try SiteBuilder.build(englishSite), try SiteBuilder.build(translatedSite))
        }
        #expect(englishReport.diagnostics.filter { $0.severity == .error }.map(\.description) == [])
        #expect(translatedReport.diagnostics.filter { $0.severity == .error }.map(\.description) == [])
        #expect(englishReport.pages == translatedReport.pages)
        return (book, out, translated.outputFolder)
    }

    static func page(_ folder: URL, _ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every match of `pattern`'s first group, in order.
    static func matches(_ pattern: String, in text: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    @Test func codeBlocksAndAnchorsAreTheEnglishPagesOwn() async throws {
        let (book, english, translated) = try await build()
        _ = book
        for path in [
            "chapters/01-opening.html", "chapters/02-routing.html", "exercises/01-parse.html", "index.html",
        ] {
            let source = try Self.page(english, path)
            let target = try Self.page(translated, path)
            #expect(
                try Self.matches("(<pre.*?</pre>)", in: target)
                    == Self.matches("(<pre.*?</pre>)", in: source), "\(path)")
            #expect(
                try Self.matches("<h[1-6] id=\"([^\"]*)\"", in: target)
                    == Self.matches("<h[1-6] id=\"([^\"]*)\"", in: source), "\(path)")
        }
    }

    @Test func theTranslationIsUsedAndWhatHasNoneIsMarkedEnglish() async throws {
        let (book, _, translated) = try await build()
        _ = book
        let chapter = try Self.page(translated, "chapters/01-opening.html")
        #expect(chapter.contains("<html lang=\"vi\""))
        #expect(chapter.contains("<h1 id=\"opening-links\">Mở link"))
        // Two lines in the source, two in the translation: the words wrapped again to fill them.
        #expect(
            chapter.contains("<p>Ứng dụng mở link bằng <code>open(_:)</code>, rồi\ntrả lời &quot;có&quot;"))
        #expect(chapter.contains("<p lang=\"en\" class=\"untranslated\">See the router.</p>"))
        #expect(chapter.contains("Phần I: Hướng dẫn"))
        let exercise = try Self.page(translated, "exercises/01-parse.html")
        #expect(exercise.contains("<h1 id=\"parse-a-link\">Phân tích một link"))
    }

    @Test func eachPageNamesItsOtherLanguage() async throws {
        let (book, english, translated) = try await build()
        _ = book
        let source = try Self.page(english, "chapters/01-opening.html")
        let target = try Self.page(translated, "chapters/01-opening.html")
        #expect(
            source.contains(
                "<link rel=\"alternate\" hreflang=\"vi\" href=\"../vi/chapters/01-opening.html\">"))
        #expect(
            target.contains(
                "<link rel=\"alternate\" hreflang=\"en\" href=\"../../chapters/01-opening.html\">"))
    }
}
