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
    public static func build(_ options: SiteOptions) throws(Diagnostic) -> SiteReport {
        let input = try SiteInput.load(options)
        let proofs = BlockProofs.measure(input)
        let bookPages = BookPages.collect(input, proofs: proofs)
        let pages = ReferencePages.add(to: bookPages, input: input, proofs: proofs)
        let links = SiteLinks.resolve(pages.all + [pages.notFound], resolver: pages.resolver)
        let written = try PageWriting.write(pages, input: input, proofs: proofs, links: links)
        let files = try SiteFiles.write(written, input: input, copies: links.copies)
        return SiteReport(
            pages: (written.paths + files.pages).sorted(),
            fileCount: written.paths.count + files.count,
            diagnostics: (proofs.diagnostics + pages.diagnostics + links.diagnostics + written.diagnostics)
                .sorted(by: Diagnostic.bookOrder),
            coverageFile: proofs.coverageName, testedBlocks: proofs.testedCount,
            isHighlighted: written.highlight != nil)
    }
}
