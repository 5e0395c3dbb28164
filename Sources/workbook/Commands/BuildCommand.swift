import BookChecks
import CommandLineKit
import Foundation
import Literate
import LiterateCLI
import LiveSite
import Weave

/// `workbook build`: weaves the book into a static HTML site.
let buildCommand = Command(
    CommandSpec(
        name: "build",
        abstract: "Weave the book into a static HTML site.",
        discussion: """
            Renders every chapter (and every exercises/*/README.md) with the theme in site/, plus
            a home page, a glossary, a snippet index, the mock server's API reference, a page
            holding the whole book and a 404 page, and writes an offline search index. Each code
            block shows its chunk, its target file and a badge saying what proves it; 'tested' is
            measured from coverage data (swift test --enable-code-coverage), never declared.

            Every internal link and anchor is checked: a broken one is reported as
            chapters/NN-slug.md:LINE:COL: error: ... and the build exits 1 (the site is still
            written, to look at). External links are not fetched. The output folder is emptied
            first, but only if an earlier build wrote it.
            """,
        options: [
            bookOption,
            OptionSpec("out", value: "DIR", help: "Where to write the site (default: BOOK/build/site)."),
            OptionSpec("solutions", help: "Include each exercise's solution (for instructors)."),
            OptionSpec(
                "theme", value: "DIR",
                help: "The theme folder (default: BOOK/site, else the workbook's own theme)."),
            OptionSpec(
                "coverage", value: "FILE",
                help: "llvm-cov JSON export (default: the newest BOOK/.build/debug/codecov/*.json)."),
            OptionSpec(
                "no-checks",
                help: "Do not run the snippet checkers; badges only name them (as the live site does)."),
            OptionSpec("timings", help: "Print how long each stage of each language's build took."),
        ])
) { arguments, console in
    let root = try bookRoot(arguments)
    let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    func resolve(_ path: String) -> URL {
        URL(fileURLWithPath: path, relativeTo: workingDirectory).standardizedFileURL
    }
    let output = arguments.value("out").map(resolve) ?? root.appendingPathComponent("build/site")
    var options = SiteOptions(
        bookRoot: root, outputFolder: output,
        themeFolder: try SiteTheme.folder(arguments, root: root, resolve: resolve),
        checkers: SnippetCheckers.all(book: root))
    BookSite.configure(&options)
    options.includeSolutions = arguments.flag("solutions")
    if arguments.flag("no-checks") {
        options.runsSnippetChecks = false
        options.swiftc = nil
    }
    if let coverage = arguments.value("coverage") {
        let url = resolve(coverage)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CommandError.badInput("no coverage data at '\(coverage)'")
        }
        options.coverageFile = url
    }
    // English at the output folder, then each translation (po/LANG.po) in OUT/LANG/.
    var reports: [(site: SiteOptions, report: SiteReport)] = []
    do throws(Diagnostic) {
        for site in try BookLanguages.sites(options) {
            reports.append((site, try SiteBuilder.build(site)))
        }
    } catch {
        throw commandFailure(error, console: console)
    }
    let report = reports[0].report
    let diagnostics = reports.flatMap(\.report.diagnostics).removingRepeats()
    for diagnostic in diagnostics { console.error(diagnostic.description) }
    let errors = diagnostics.filter { $0.severity == .error }.count
    if let coverage = report.coverageFile {
        console.print("build: \(report.testedBlocks) blocks tested, measured from \(coverage)")
    } else {
        console.print(
            "build: no coverage data, so no block is claimed as tested "
                + "(run 'swift test --enable-code-coverage' to measure it)")
    }
    for (site, report) in reports.dropFirst() {
        console.print(
            "build: \(site.language): \(report.pages.count) pages in "
                + "\(displayPath(site.outputFolder, root: root))")
    }
    if arguments.flag("timings") {
        for (site, report) in reports {
            for line in SiteStage.lines(report.stages, language: site.language) { console.print(line) }
        }
    }
    console.print(
        "build: \(report.pages.count) pages, \(report.fileCount) files in \(displayPath(output, root: root)), "
            + "\(errors) error\(errors == 1 ? "" : "s")")
    return errors == 0 ? .success : .failure
}

/// The output folder relative to the book when inside it, for a short summary line.
private func displayPath(_ url: URL, root: URL) -> String {
    let path = url.standardizedFileURL.path
    let prefix = root.standardizedFileURL.path + "/"
    return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
}
