import Foundation
import Literate

/// The fifth stage: every link on every page resolved and checked before anything is written,
/// so that a broken one is reported at its place in the Markdown and rendering only looks up.
struct SiteLinks: Sendable {
    /// Each page's resolved links, by the page's Markdown source and then the link as written.
    var targets: [String: [String: LinkTarget]]
    /// The book's files that pages link to, to be copied into the site.
    var copies: Set<String>
    /// A broken link each.
    var diagnostics: [Diagnostic]

    static func resolve(_ pages: [SitePage], resolver: LinkResolver) -> SiteLinks {
        let resolved = ConcurrentMap.map(pages) { page in resolveLinks(page, resolver: resolver) }
        var links = SiteLinks(targets: [:], copies: [], diagnostics: [])
        for page in resolved {
            links.diagnostics += page.diagnostics
            links.targets[page.source] = page.targets
            for case .file(let path, _) in page.targets.values { links.copies.insert(path) }
        }
        return links
    }

    /// A resolver that knows `pages`, the print page and the book's files.
    static func resolver(for pages: [SitePage], bookRoot: URL) -> LinkResolver {
        var resolver = LinkResolver(pages: [:], fileExists: fileChecker(bookRoot))
        for page in pages { resolver.pages[page.source] = .init(output: page.output, anchors: page.anchors) }
        resolver.pages["print.md"] = .init(output: "print.html", anchors: ["top"])
        return resolver
    }

    private struct ResolvedLinks: Sendable {
        var source: String
        var targets: [String: LinkTarget]
        var diagnostics: [Diagnostic]
    }

    private static func resolveLinks(_ page: SitePage, resolver: LinkResolver) -> ResolvedLinks {
        var targets: [String: LinkTarget] = [:]
        var diagnostics: [Diagnostic] = []
        for link in page.links {
            switch resolver.resolve(link.destination, from: page.source) {
            case .success(let target): targets[link.destination] = target
            case .failure(let message):
                diagnostics.append(
                    Diagnostic(
                        .error, text: message.text,
                        at: page.location(line: link.line, column: link.column)))
            }
        }
        return ResolvedLinks(source: page.source, targets: targets, diagnostics: diagnostics)
    }

    private static func fileChecker(_ root: URL) -> @Sendable (String) -> Bool {
        { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(
                atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }
    }
}
