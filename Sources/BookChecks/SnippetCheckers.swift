import ConsoleCheck
import DeepLinkCore
import Foundation
import Literate
import StrictJSON

/// The snippet checkers `workbook check` registers beyond the engine's own `json`: each one runs
/// the code the book builds over the snippets that name it with `check=NAME`.
package enum SnippetCheckers {
    /// The book's client SDK module: what `swift-sample` blocks are compiled against, and what the
    /// API listing test (Tests/Li2SDKAPITests) compares with Li2SDK 0.2.0. Renaming the SDK target
    /// is this line and the target's name in Package.swift.
    package static let sdkModule = "Li2SDK"

    /// The checkers for the book in `book` (transcripts run against that book's configuration).
    package static func all(book: URL) -> [any SnippetChecker] {
        [
            LintingChecker(name: "aasa", expectsJSON: true) { AASALinter.lint($0) },
            LintingChecker(name: "assetlinks", expectsJSON: true) { AssetLinksLinter.lint($0) },
            LintingChecker(name: "entitlements", expectsJSON: false) {
                AssociatedDomainsEntitlements.check($0)
            },
            InfoPlistChecker(),
            AndroidManifestChecker(),
            ConsoleChecker(bookFolder: book),
            SwiftSampleChecker(bookFolder: book, module: sdkModule),
        ]
    }

    /// The checks of the whole book `workbook check` runs after the snippet checks.
    package static func bookChecks(book: URL) -> [any BookCheck] {
        [CitationCheck()]
    }
}

/// Adapts a DeepLinkCore linter (JSON or plist in, findings with a JSON-style path out).
/// The path stands in for the column, as in `workbook aasa lint`.
package struct LintingChecker: SnippetChecker {
    package let name: String
    /// JSON snippets get the strict syntax check first, with a line and column.
    let expectsJSON: Bool
    let lint: @Sendable (Data) -> [LintFinding]

    package func check(_ snippets: [Snippet]) -> [[SnippetFinding]] {
        snippets.map { snippet in
            let data = Data(snippet.text.utf8)
            if expectsJSON, let problem = JSONSyntax.firstProblem(in: data) {
                return [
                    SnippetFinding(
                        .error, line: problem.line, column: problem.column, "invalid JSON: \(problem.message)"
                    )
                ]
            }
            return lint(data).map { SnippetFinding($0) }
        }
    }
}

extension SnippetFinding {
    /// A linter's finding as a snippet finding: `code path: message`, the path standing in for
    /// the column.
    init(_ finding: LintFinding, path: String? = nil) {
        self.init(
            finding.severity == .error ? .error : .warning,
            "\(finding.code) \(path ?? finding.path): \(finding.message)")
    }
}

/// `info-plist`: the URL types of an Info.plist (or a fragment of one), read and linted.
package struct InfoPlistChecker: SnippetChecker {
    package var name: String { "info-plist" }

    package func check(_ snippets: [Snippet]) -> [[SnippetFinding]] {
        snippets.map { snippet in
            InfoPlistURLTypes.check(Data(snippet.text.utf8)).map { finding in
                // A finding about the whole property list is at `$`, but this checker has always
                // printed it with an empty path (`plist.invalid : ...`), and still does.
                SnippetFinding(finding, path: finding.path == "$" ? "" : finding.path)
            }
        }
    }
}

/// `android-manifest`: the manifest must read (errors at their line and column), and every filter
/// that asks for verification with `autoVerify` must be eligible for it.
package struct AndroidManifestChecker: SnippetChecker {
    package var name: String { "android-manifest" }

    package func check(_ snippets: [Snippet]) -> [[SnippetFinding]] {
        snippets.map { snippet in
            let manifest: AndroidManifest
            do {
                manifest = try AndroidManifestReader.read(Data(snippet.text.utf8))
            } catch let error as AndroidManifestReader.ReadError {
                return [SnippetFinding(.error, line: error.line, column: error.column, error.message)]
            } catch {
                return [SnippetFinding(.error, "\(error)")]
            }
            var findings: [SnippetFinding] = []
            for activity in manifest.activities {
                for filter in activity.intentFilters where filter.autoVerify {
                    for blocker in IntentFilterMatcher.appLinkBlockers(filter) {
                        findings.append(
                            SnippetFinding(
                                .warning, line: filter.line,
                                "\(activity.name): autoVerify is set but the filter cannot be verified: "
                                    + AppLinkMessages.blocker(blocker)))
                    }
                }
            }
            return findings
        }
    }
}
