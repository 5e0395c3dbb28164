import Foundation
import Testing

@testable import Literate

struct BookCheckerTests {
    /// A checker for tests: every snippet containing "bad" gets an error on its second line.
    struct PickyChecker: SnippetChecker {
        var name: String { "picky" }
        func check(_ snippets: [Snippet]) -> [[SnippetFinding]] {
            snippets.map {
                $0.text.contains("bad") ? [SnippetFinding(.error, line: 2, column: 3, "picky says no")] : []
            }
        }
    }

    func run(_ chapter: String, checkers: [any SnippetChecker] = [PickyChecker()]) throws
        -> (statuses: [String], diagnostics: [String])
    {
        let book = try TestBook(["01-a.md": chapter])
        let result = try book.tangle()
        let (reports, diagnostics) = BookChecker(checkers: checkers).run(result)
        return (reports.map(\.status.description), lines(diagnostics))
    }

    @Test func everyBlockGetsOneStatus() throws {
        let (statuses, diagnostics) = try run(
            """
            ```swift {file=Sources/M/A.swift}
            <<used>>
            ```

            ```swift {#used}
            let a = 1
            ```

            ```swift {file=scripts/tool.swift}
            let b = 1
            ```

            ```json
            {"ok": true}
            ```

            ```text {check=picky}
            fine
            ```

            ```kotlin
            val x = 1
            ```

            ```swift {#lonely}
            let c = 1
            ```

            ```swift {#ui canImport=UIKit}
            let d = 1
            ```
            """)
        #expect(
            statuses == [
                "compiled", "compiled", "tangled", "checked (json)", "checked (picky)", "display-only",
                "unused",
                "parse-checked (UIKit)",
            ])
        #expect(diagnostics.isEmpty)
    }

    @Test func invalidJSONIsAnErrorAtTheBlock() throws {
        let (_, diagnostics) = try run("Text.\n\n```json\n{\"a\": }\n```\n")
        #expect(
            diagnostics == [
                "chapters/01-a.md:4:7: error: invalid JSON: expected a value (an object, array, string, number, true, false or null)"
            ])
    }

    @Test func aTrailingCommaIsInvalidJSONEvenWhereFoundationAcceptsIt() throws {
        let (_, diagnostics) = try run("```json\n{\"a\": 1,\n}\n```\n")
        #expect(
            diagnostics == [
                "chapters/01-a.md:2:8: error: invalid JSON: a comma before '}': remove the trailing comma"
            ])
    }

    @Test func findingsArePlacedAtTheirLineInsideTheSnippet() throws {
        let (_, diagnostics) = try run("# T\n\n```text {check=picky}\nfirst\nbad line\n```\n")
        #expect(diagnostics == ["chapters/01-a.md:5:3: error: picky says no"])
    }

    @Test func anUnknownCheckerIsAnError() throws {
        let (_, diagnostics) = try run("```json {check=aasaa}\n{}\n```\n")
        #expect(diagnostics == ["chapters/01-a.md:1:1: error: unknown checker 'aasaa' (known: json, picky)"])
    }

    @Test func appleOnlySwiftIsParseCheckedAtChapterLines() throws {
        let (statuses, diagnostics) = try run(
            """
            # UI

            ```swift {#paste-button canImport=UIKit}
            import UIKit
            final class Button: UIView {
                func tap( {
            }
            ```
            """)
        #expect(statuses == ["parse-checked (UIKit)"])
        #expect(diagnostics.first?.hasPrefix("chapters/01-a.md:6:") == true, "\(diagnostics)")
    }

    @Test func aChunkThatLandsOnlyInAppleOnlyFilesIsParseCheckedToo() throws {
        let (statuses, diagnostics) = try run(
            """
            ```swift {#modifier}
            extension View {
                func deepLink( {
            }
            ```

            ```swift {file=Sources/M/Modifier.swift canImport=SwiftUI}
            import SwiftUI
            <<modifier>>
            ```

            ```swift {#everywhere}
            let shared = 1
            ```

            ```swift {file=Sources/M/Mixed.swift canImport=SwiftUI}
            <<everywhere>>
            ```

            ```swift {file=Sources/M/Mixed.swift}
            let portable = 2
            ```
            """)
        #expect(
            statuses == [
                "parse-checked (SwiftUI)", "parse-checked (SwiftUI)", "compiled", "parse-checked (SwiftUI)",
                "compiled",
            ])
        #expect(diagnostics.first?.hasPrefix("chapters/01-a.md:3:20: error:") == true, "\(diagnostics)")
    }
}
