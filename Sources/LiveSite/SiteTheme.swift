import CommandLineKit
import Foundation

/// The site's theme: templates, styles and scripts.
package enum SiteTheme {
    /// `--theme DIR`, else the book's `site/`, else the theme beside these sources (so that any
    /// folder of Markdown chapters can be built, as the benchmark does). `workbook serve` shares it.
    package static func folder(_ arguments: ParsedArguments, root: URL, resolve: (String) -> URL) throws
        -> URL
    {
        if let theme = arguments.value("theme") {
            let url = resolve(theme)
            guard
                FileManager.default.fileExists(atPath: url.appendingPathComponent("templates/page.html").path)
            else {
                throw CommandError.badInput("no theme at '\(theme)' (a folder holding templates/page.html)")
            }
            return url
        }
        let own = root.appendingPathComponent("site")
        if FileManager.default.fileExists(atPath: own.appendingPathComponent("templates/page.html").path) {
            return own
        }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
        return repository.appendingPathComponent("site")
    }
}
