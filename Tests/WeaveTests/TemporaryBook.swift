import Foundation
import Literate
import Testing

@testable import Weave

/// A throwaway book folder: chapters and other files written from strings, a site built from
/// it into `site/` inside the folder, everything removed on deinit.
final class TemporaryBook {
    let root: URL

    /// The repository's theme (`site/`), found from this file's place in `Tests/WeaveTests/`.
    static let theme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("site").resolvingSymlinksInPath()

    /// The repository theme's words (`site/words.json`).
    static let words: SiteWords = {
        do {
            return try SiteWords.load(themeFolder: theme)
        } catch {
            fatalError("\(error)")
        }
    }()

    /// The fixture book beside the tests.
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/small-book")

    init(chapters: [String: String] = [:], files: [String: String] = [:], copying fixture: URL? = nil) throws
    {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("weave-test-\(UUID().uuidString)").resolvingSymlinksInPath()
        if let fixture {
            try FileManager.default.copyItem(at: fixture, to: root)
        } else {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("chapters"), withIntermediateDirectories: true)
        }
        for (name, text) in chapters { try write("chapters/\(name)", text) }
        for (path, text) in files { try write(path, text) }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    var output: URL { root.appendingPathComponent("out") }

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// The OpenAPI document of the fixture book, which the tests' builds make an API page of.
    static let openAPIPath = "Sources/MockServer/Resources/openapi.json"

    /// Builds the site into `out/` with the repository's theme (or the book's own `site/`),
    /// without highlight.js unless `highlight` names a folder, and without parse checks. The
    /// site is titled "Small Book" and has an API page from ``openAPIPath`` unless `configure`
    /// changes the options.
    func build(
        solutions: Bool = false, coverage: URL? = nil, highlight: URL? = nil,
        checkers: [any SnippetChecker] = [], configure: (inout SiteOptions) -> Void = { _ in }
    ) throws -> SiteReport {
        let ownTheme = root.appendingPathComponent("site")
        let hasOwnTheme = FileManager.default.fileExists(
            atPath: ownTheme.appendingPathComponent("templates").path)
        var options = SiteOptions(
            bookRoot: root, outputFolder: output, themeFolder: hasOwnTheme ? ownTheme : Self.theme,
            checkers: checkers)
        options.includeSolutions = solutions
        options.coverageFile = coverage
        options.highlightFolder = highlight ?? root.appendingPathComponent("no-highlight-here")
        options.swiftc = nil
        options.siteTitle = "Small Book"
        options.apiReference = OpenAPIPage(documentPath: Self.openAPIPath, title: "Small API")
        configure(&options)
        return try SiteBuilder.build(options)
    }

    /// A file of the built site, as text.
    func output(_ path: String) -> String? {
        FileManager.default.contents(atPath: output.appendingPathComponent(path).path).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// Every whole line of a page that starts with `prefix`, to compare whole.
    func lines(_ path: String, startingWith prefix: String) -> [String] {
        (output(path) ?? "").split(separator: "\n").filter { $0.hasPrefix(prefix) }.map(String.init)
    }

    /// The fragment of a page between two markers, both included.
    func fragment(_ path: String, from start: String, to end: String) -> String? {
        guard let page = output(path), let lower = page.range(of: start),
            let upper = page.range(of: end, range: lower.upperBound..<page.endIndex)
        else { return nil }
        return String(page[lower.lowerBound..<upper.upperBound])
    }
}
