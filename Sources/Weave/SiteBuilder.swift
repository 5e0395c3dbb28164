import Foundation
import Literate

/// Weaves the book into a static site.
///
/// ```swift
/// var options = SiteOptions(bookRoot: root, outputFolder: root.appendingPathComponent("build/site"),
///                           themeFolder: root.appendingPathComponent("site"), checkers: [])
/// let report = try SiteBuilder.build(options)
/// for diagnostic in report.diagnostics { print(diagnostic) }   // chapters/02-routing.md:41:5: error: ...
/// ```
///
/// Bad input (no chapters, no theme, an output folder that holds something else) throws a
/// `Diagnostic`, as does a file that cannot be written (`path: cannot write the file (Permission
/// denied)`); findings in the book (broken links) come back in the report, and the site is still
/// written so that they can be looked at.
public enum SiteBuilder {
    /// The file that marks a folder as written by `build`, so that a rebuild may empty it.
    static let marker = ".workbook-site"

    /// Builds the site in stages, each in a file of its own, each handing the next what it made.
    /// The report says how long each stage took (`workbook build --timings` prints it).
    public static func build(_ options: SiteOptions) throws(Diagnostic) -> SiteReport {
        var clock = StageClock()
        let input = try clock.time("SiteInput.load") { () throws(Diagnostic) in try SiteInput.load(options) }
        let proofs = clock.time("BlockProofs.measure") { BlockProofs.measure(input) }
        let bookPages = clock.time("BookPages.collect") { BookPages.collect(input, proofs: proofs) }
        let pages = clock.time("ReferencePages.add") {
            ReferencePages.add(to: bookPages, input: input, proofs: proofs)
        }
        let links = clock.time("SiteLinks.resolve") {
            SiteLinks.resolve(pages.all + [pages.notFound], resolver: pages.resolver)
        }
        let written = try clock.time("PageWriting.write") { () throws(Diagnostic) in
            try PageWriting.write(pages, input: input, proofs: proofs, links: links)
        }
        let files = try clock.time("SiteFiles.write") { () throws(Diagnostic) in
            try SiteFiles.write(written, input: input, copies: links.copies)
        }
        return SiteReport(
            pages: (written.paths + files.pages).sorted(),
            fileCount: written.paths.count + files.count,
            diagnostics: (proofs.diagnostics + pages.diagnostics + links.diagnostics + written.diagnostics)
                .sorted(by: Diagnostic.bookOrder),
            coverageFile: proofs.coverageName, testedBlocks: proofs.testedCount,
            isHighlighted: written.highlight != nil, stages: clock.stages)
    }
}

/// How long one stage of a build took.
public struct SiteStage: Sendable, Equatable {
    /// The stage's function, as `SiteBuilder.build` calls it (`PageWriting.write`).
    public var name: String
    public var duration: Duration

    /// `timings (en):` then one line per stage, its time in milliseconds, then the total
    /// (`workbook build --timings`, `workbook serve --timings`).
    public static func lines(_ stages: [SiteStage], language: String) -> [String] {
        func milliseconds(_ duration: Duration) -> String {
            let (seconds, attoseconds) = duration.components
            let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
            return String(format: "%8.1f ms", value)
        }
        let width = stages.map(\.name.count).max() ?? 0
        func padded(_ name: String) -> String {
            name + String(repeating: " ", count: max(0, width - name.count))
        }
        let total = stages.reduce(Duration.zero) { $0 + $1.duration }
        return ["timings (\(language)):"]
            + stages.map { "  \(padded($0.name)) \(milliseconds($0.duration))" }
            + ["  \(padded("total")) \(milliseconds(total))"]
    }
}

/// Times the stages of one build, in the order they ran.
struct StageClock {
    private let clock = ContinuousClock()
    private(set) var stages: [SiteStage] = []

    mutating func time<Value, Failure: Error>(_ name: String, _ stage: () throws(Failure) -> Value)
        throws(Failure) -> Value
    {
        let start = clock.now
        let value = try stage()
        stages.append(SiteStage(name: name, duration: clock.now - start))
        return value
    }
}
