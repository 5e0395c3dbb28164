import Foundation

/// A file or folder that a build of the site reads, with what it gives the site. The live site
/// watches every input inside the book that ``isWatched``, so that a save of any of them rebuilds;
/// for the others, ``reason`` says why not.
///
/// ```swift
/// for input in options.inputs { print(input.path, input.what) }   // chapters  the chapters, ...
/// ```
public struct BuildInput: Sendable, Equatable {
    /// Relative to the book when inside it (`chapters`, `Sources/MockServer/Resources/openapi.json`),
    /// else absolute.
    public var path: String
    /// What the site makes of it.
    public var what: String
    /// Why a save of it does not rebuild the live site; nil when it does.
    public var reason: String?

    public init(_ path: String, _ what: String, notWatchedBecause reason: String? = nil) {
        (self.path, self.what, self.reason) = (path, what, reason)
    }

    public var isWatched: Bool { reason == nil }
}

extension SiteOptions {
    /// Every input of a build with these options: the generator's own, then the book's
    /// (``otherInputs``). The files pages link to (images, say) are copied from wherever they are
    /// in the book; a save of one rebuilds when it lies in a watched folder.
    public var inputs: [BuildInput] {
        func inBook(_ url: URL) -> String {
            let root = bookRoot.standardizedFileURL.path + "/"
            let path = url.standardizedFileURL.path
            return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
        }
        var inputs = [
            BuildInput(
                "chapters",
                "the chapters, SUMMARY.md (the parts and their order) and sources.json (the bibliography)"),
            BuildInput(
                inBook(themeFolder),
                "the theme: the template, the assets, words.json, glossary.json, home.md, 404.md and "
                    + "the theme's own pages"),
            BuildInput("exercises", "each exercise's README.md, HINTS.md, starter and solution files"),
        ]
        if let apiReference {
            inputs.append(
                BuildInput(apiReference.documentPath, "the OpenAPI document the API page is written from"))
        }
        inputs.append(
            BuildInput(
                coverageFile.map(inBook) ?? ".build/debug/codecov",
                "coverage data, for the tested badges",
                notWatchedBecause:
                    "a test run writes it in the build folder, among the files of every compilation; "
                    + "the next save picks it up"))
        inputs.append(
            BuildInput(
                highlightFolder.path, "highlight.js, copied into the site",
                notWatchedBecause: "it changes only with the system's package"))
        return inputs + otherInputs
    }
}
