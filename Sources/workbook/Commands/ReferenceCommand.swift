import CommandLineKit
import Foundation
import LiterateCLI
import MockServer
import SDKReference

/// `workbook reference [--book DIR] [--out DIR]`
let referenceCommand = Command(
    CommandSpec(
        name: "reference",
        abstract: "Build the API reference of the SDK (Li2SDK) and DeepLinkCore with DocC.",
        discussion: """
            Writes the reference an app developer reads: a page for every public type, method and
            property of the two modules, with its doc comment and declaration, the way Apple's and
            the Swift packages' documentation looks. It is made from the compiled modules by the
            tools of your Swift toolchain, so what it lists is what the package really exports:

              1. swift build --target Li2SDK, into BOOK/.build/reference-build (apart from the
                 other builds, so that it never makes them start again);
              2. swift-symbolgraph-extract, for each module: its symbol graph, the public
                 declarations with their doc comments and places (JSON);
              3. docc convert for each module, then docc merge into one static site meant to be
                 served at /reference/: Li2SDK's pages at documentation/li2sdk/, DeepLinkCore's at
                 documentation/deeplinkcore/, a landing page at documentation/.

            ./wb serve runs this command once in the background when it starts (not on every save)
            and serves the result at http://127.0.0.1:\(MockServerRuntime.defaultPort)\
            /reference/documentation/li2sdk/. The
            folder needs a web server: opened from files, its pages do not render.

            Every public declaration without a doc comment is a warning, at the chapter line it is
            tangled from (tangled files carry #sourceLocation, and so do the symbol graphs); one
            that implements a protocol's requirement, such as description, has the protocol's:
              chapters/19-inside-consent.md:208:10: warning: public case \
            'Li2PasteboardContent.text(_:)' has no doc comment
            DocC's own warnings (a ``link`` to a symbol that does not exist) follow in the same
            form. Warnings do not fail the command; the closing lines count them.

            Declarations behind #if canImport(UIKit), #if canImport(SwiftUI) or
            #if canImport(Combine) (the paste button, the SwiftUI modifier) are parsed but not
            compiled on Linux, so no symbol graph lists them. The command reads them from the
            tangled sources instead (declaration, doc comment, chapter line, @available) and gives
            DocC a symbol graph of its own for them, for the iOS platform: they get pages like the
            rest (documentation/li2sdk/li2pastebutton/) and count in the audit. A module's page
            opens with BOOK/reference/MODULE.md when the book has one (a DocC documentation
            extension: # ``Li2SDK``).

            The output folder is replaced only once the new reference is complete, and only if it
            is empty or an earlier run of this command wrote it.

            Exit status: 0 when the reference is written (with or without warnings), 1 when a tool
            is missing or a step fails (its last lines are shown), 2 when the book folder holds no
            Package.swift.

            Example:
              $ workbook reference --out /tmp/reference
              chapters/02-routing.md:43:10: warning: public case 'Route.product(id:)' has no doc \
            comment
              reference: 776 public declarations (14 of them Apple-only, read from the chapters), \
            1 without a doc comment (DeepLinkCore 1 of 487, Li2SDK 0 of 289); 0 docc warnings
              reference: 2134 files, 8.6 MB in /tmp/reference in 41.5 s; served at \
            /reference/documentation/li2sdk/ by ./wb serve
            """,
        options: [
            bookOption,
            OptionSpec(
                "out", value: "DIR", help: "Where to write the reference (default: BOOK/.build/reference)."),
        ])
) { arguments, console in
    let root = try bookRoot(arguments)
    let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let output =
        arguments.value("out").map {
            URL(fileURLWithPath: $0, relativeTo: workingDirectory).standardizedFileURL
        }
        ?? root.appendingPathComponent(".build/reference")
    var settings = ReferenceBuilder.Settings(bookRoot: root, outputFolder: output)
    if console.isInteractive {
        settings.progress = { step in console.error("reference: \(step)") }
    }
    let report: ReferenceBuilder.Report
    do throws(ReferenceBuilder.Failure) {
        report = try ReferenceBuilder.build(settings)
    } catch {
        if case .noPackage = error { throw CommandError.badInput(error.description) }
        console.error("error: \(error.description)")
        return .failure
    }
    for diagnostic in report.diagnostics { console.error(diagnostic.description) }
    let lines = ReferenceMessage.summary(
        counts: report.counts, doccWarnings: report.doccWarnings, files: report.files, bytes: report.bytes,
        folder: ReferenceBuilder.displayPath(output, root: root), seconds: report.seconds)
    for line in lines { console.print(line) }
    return .success
}
