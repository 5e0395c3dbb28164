import Foundation
import Testing

@testable import Literate

/// Every error the tangler reports, with its exact text and position.
struct TangleErrorTests {
    @Test func anUndefinedChunkIsReportedAtTheReferenceWithASuggestion() throws {
        let book = try TestBook([
            "02-routing.md": """
            # Routing

            ```swift {file=out.swift}
            struct Router {
                <<route-tabel>>
            }
            ```

            ```swift {#route-table}
            var routes: [String] = []
            ```
            """
        ])
        #expect(
            lines(try book.tangle().diagnostics) == [
                "chapters/02-routing.md:5:5: error: no chunk named 'route-tabel'; did you mean 'route-table'?",
                "chapters/02-routing.md:9:1: warning: chunk 'route-table' is never included in a file",
            ])
    }

    @Test func anUndefinedChunkWithNoCloseNameHasNoSuggestion() throws {
        let book = try TestBook(["01-a.md": "```swift {file=out.swift}\n<<zebra>>\n```\n"])
        #expect(
            lines(try book.tangle().diagnostics) == ["chapters/01-a.md:2:1: error: no chunk named 'zebra'"])
    }

    @Test func aReferenceCycleNamesEveryChunkAroundItInOrder() throws {
        let book = try TestBook([
            "01-a.md": """
            ```swift {file=out.swift}
            <<first>>
            ```

            ```swift {#first}
            <<second>>
            ```

            ```swift {#second}
              <<third>>
            ```

            ```swift {#third}
            <<first>>
            ```
            """
        ])
        #expect(
            lines(try book.tangle().diagnostics) == [
                "chapters/01-a.md:14:1: error: chunk reference cycle: first -> second -> third -> first"
            ])
    }

    @Test func aChunkIncludingItselfIsACycle() throws {
        let book = try TestBook([
            "01-a.md": "```swift {file=out.swift}\n<<me>>\n```\n\n```swift {#me}\n<<me>>\n```\n"
        ])
        #expect(
            lines(try book.tangle().diagnostics) == [
                "chapters/01-a.md:6:1: error: chunk reference cycle: me -> me"
            ])
    }

    struct OutsideCase: CustomTestStringConvertible, Sendable {
        var id: String
        var target: String
        var reason: String
        var testDescription: String { id }
    }

    static let outside: [OutsideCase] = [
        OutsideCase(id: "dot-dot", target: "../escape.swift", reason: "'..' leaves the book folder"),
        OutsideCase(
            id: "nested-dot-dot", target: "Sources/../../escape.swift", reason: "'..' leaves the book folder"),
        OutsideCase(id: "absolute", target: "/tmp/escape.swift", reason: "absolute path"),
        OutsideCase(id: "home", target: "~/escape.swift", reason: "home-relative path"),
    ]

    @Test(arguments: outside)
    func aFileTargetOutsideTheBookIsAnError(_ testCase: OutsideCase) throws {
        let book = try TestBook(["01-a.md": "Text.\n\n```swift {file=\(testCase.target)}\nlet x = 1\n```\n"])
        #expect(
            lines(try book.tangle().diagnostics) == [
                "chapters/01-a.md:3:1: error: file target '\(testCase.target)' is outside the book folder (\(testCase.reason))"
            ])
    }

    @Test func aSymlinkThatEscapesTheBookIsAnError() throws {
        let book = try TestBook(["01-a.md": "```swift {file=linked/escape.swift}\nlet x = 1\n```\n"])
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent(
            "outside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createSymbolicLink(
            at: book.root.appendingPathComponent("linked"), withDestinationURL: outside)
        #expect(
            lines(try book.tangle().diagnostics) == [
                "chapters/01-a.md:1:1: error: file target 'linked/escape.swift' is outside the book folder (a symbolic link leads outside it)"
            ])
        #expect(try book.tangleAndWriteRefused())
        #expect(!FileManager.default.fileExists(atPath: outside.appendingPathComponent("escape.swift").path))
    }

    @Test func anInvalidChunkNameIsReportedWhereItStands() throws {
        let book = try TestBook(["01-a.md": "Intro\n\n```swift {#9lives}\nlet x = 1\n```\n"])
        #expect(
            lines(try book.tangle().diagnostics) == [
                "chapters/01-a.md:3:11: error: invalid chunk name '9lives': a name starts with a letter and holds letters, digits, '-', '_' and '.'"
            ])
    }

    @Test func anInvalidNameInAReferenceIsAnError() throws {
        let book = try TestBook(["01-a.md": "```swift {file=out.swift}\n    <<not a name>>\n```\n"])
        #expect(
            lines(try book.tangle().diagnostics) == [
                "chapters/01-a.md:2:5: error: invalid chunk name 'not a name': a name starts with a letter and holds letters, digits, '-', '_' and '.'"
            ])
    }

    @Test func anUnknownAttributeIsReportedAtItsColumn() throws {
        let book = try TestBook(["01-a.md": "# T\n\n```swift {file=out.swift chek=aasa}\nlet x = 1\n```\n"])
        #expect(
            lines(try book.tangle().diagnostics) == [
                "chapters/01-a.md:3:26: error: unknown attribute 'chek' (known: file, check, canImport, try)"
            ])
    }

    @Test func anUnknownAttributeInsideAListIsReportedAtItsSourceColumn() throws {
        let book = try TestBook(["01-a.md": "- item\n\n  ```swift {bogus=1}\n  let x = 1\n  ```\n"])
        #expect(
            lines(try book.tangle().diagnostics) == [
                "chapters/01-a.md:3:13: error: unknown attribute 'bogus' (known: file, check, canImport, try)"
            ])
    }

    @Test func anUnclosedFenceIsAWarningAtTheFence() throws {
        let book = try TestBook(["01-a.md": "# T\n\nText.\n\n```swift\nlet x = 1\n\n## Never a heading\n"])
        #expect(
            lines(try book.tangle().diagnostics) == [
                "chapters/01-a.md:5:1: warning: code fence is never closed; it swallows the rest of the chapter"
            ])
    }

    @Test func aClosedFenceAtTheEndOfTheFileIsNoWarning() throws {
        let book = try TestBook(["01-a.md": "```swift\nlet x = 1\n```"])
        #expect(try book.tangle().diagnostics.isEmpty)
    }

    @Test func aTargetWithNoCommentSyntaxIsAnError() throws {
        let book = try TestBook(["01-a.md": "```json {file=config/demo.json}\n{}\n```\n"])
        #expect(
            lines(try book.tangle().diagnostics) == [
                "chapters/01-a.md:1:1: error: cannot tangle to 'config/demo.json': no comment syntax known for its extension, so the generated-file header cannot be written"
            ])
    }

    @Test func errorsMeanNothingIsWritten() throws {
        let book = try TestBook([
            "01-a.md":
                "```swift {file=good.swift}\nlet a = 1\n```\n\n```swift {file=bad.swift}\n<<missing>>\n```\n"
        ])
        #expect(try book.tangleAndWriteRefused())
        #expect(book.read("good.swift") == nil)
    }
}

extension TestBook {
    /// Runs tangle as the command does and reports whether it refused to write.
    func tangleAndWriteRefused() throws -> Bool {
        let result = try tangle()
        if result.hasErrors { return true }
        let plan = TangleWriter.plan(result, root: root, force: false)
        if !plan.problems.isEmpty { return true }
        try TangleWriter.apply(plan, root: root)
        return false
    }
}
