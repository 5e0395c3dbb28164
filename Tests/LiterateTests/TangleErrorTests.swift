import Foundation
import TestSupport
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
                "chapters/01-a.md:14:1: error: chunk reference cycle: first → second → third → first"
            ])
    }

    @Test func aChunkIncludingItselfIsACycle() throws {
        let book = try TestBook([
            "01-a.md": "```swift {file=out.swift}\n<<me>>\n```\n\n```swift {#me}\n<<me>>\n```\n"
        ])
        #expect(
            lines(try book.tangle().diagnostics) == [
                "chapters/01-a.md:6:1: error: chunk reference cycle: me → me"
            ])
    }

    // MARK: Limits

    /// 20,000 levels: a recursive expander overflows its stack near 8,000 in a debug build.
    @Test func nestingDeeperThanTheLimitIsOneErrorAtTheReferenceThatGoesTooFar() throws {
        let book = try TestBook(["01-deep.md": HostileBooks.deepNesting(levels: 20_000)])
        let result = try book.tangle()
        #expect(
            lines(result.diagnostics) == [
                "chapters/01-deep.md:4004:1: error: chunk nesting deeper than 1,000: c0 → c1 → … → c1000"
            ])
        #expect(result.files.isEmpty)
    }

    @Test func nestingExactlyAtTheLimitTangles() throws {
        let book = try TestBook(["01-deep.md": HostileBooks.deepNesting(levels: 1_000)])
        let result = try book.tangle()
        #expect(result.diagnostics.isEmpty)
        #expect(result.files.map(\.path) == ["Sources/Deep/Deep.swift"])
        #expect(result.files.first?.content.contains("let deepest = 999\n") == true)
    }

    /// 41 levels, each including the next twice: 2^40 lines from a chapter of a few kilobytes.
    @Test func aFanOutStopsAtTheLineLimitAndNamesTheOutermostChunk() throws {
        let book = try TestBook(["01-fan.md": HostileBooks.fanOut(levels: 41)])
        let result = try book.tangle()
        #expect(
            lines(result.diagnostics) == [
                "chapters/01-fan.md:6:1: error: ⟨c0⟩ would expand to more than 50,000 lines "
                    + "(the limit for one generated file)"
            ])
        #expect(result.files.isEmpty)
    }

    struct LimitCase: CustomTestStringConvertible, Sendable {
        var id: String
        var chapter: String
        var limits: TangleLimits
        var expected: [String]
        /// A cycle is skipped and the rest written; a passed limit leaves no file.
        var writesTheFile = false
        var testDescription: String { id }
    }

    static let limitCases: [LimitCase] = [
        LimitCase(
            id: "bytes", chapter: HostileBooks.fanOut(levels: 6), limits: TangleLimits(bytes: 100),
            expected: [
                "chapters/01-a.md:6:1: error: ⟨c0⟩ would expand to more than 100 bytes "
                    + "(the limit for one generated file)"
            ]),
        LimitCase(
            id: "bytes-in-mebibytes", chapter: HostileBooks.fanOut(levels: 20),
            limits: TangleLimits(lines: 1_000_000, bytes: 1 << 20),
            expected: [
                "chapters/01-a.md:6:1: error: ⟨c0⟩ would expand to more than 1 MiB "
                    + "(the limit for one generated file)"
            ]),
        LimitCase(
            id: "a-file-s-own-lines",
            chapter: "```swift {file=out.swift}\nlet a = 1\nlet b = 2\nlet c = 3\n```\n",
            limits: TangleLimits(lines: 2),
            expected: [
                "chapters/01-a.md:1:1: error: 'out.swift' would expand to more than 2 lines "
                    + "(the limit for one generated file)"
            ]),
        LimitCase(
            id: "empty-chunks-still-count",
            chapter: HostileBooks.fanOut(levels: 12).replacingOccurrences(
                of: "let leaf = 11\n", with: ""),
            limits: TangleLimits(lines: 100),
            expected: [
                "chapters/01-a.md:6:1: error: ⟨c0⟩ would expand to more than 100 chunk inclusions "
                    + "(the limit for one generated file)"
            ]),
        LimitCase(
            id: "a-cycle-below-the-depth-limit-is-a-cycle",
            chapter:
                "```swift {file=out.swift}\n<<a>>\n```\n\n```swift {#a}\n<<b>>\n```\n\n```swift {#b}\n<<a>>\n```\n",
            limits: TangleLimits(depth: 2),
            expected: ["chapters/01-a.md:10:1: error: chunk reference cycle: a → b → a"], writesTheFile: true),
    ]

    @Test(arguments: limitCases)
    func eachLimitIsAnErrorAndNoFile(_ testCase: LimitCase) throws {
        let book = try TestBook(["01-a.md": testCase.chapter])
        let result = try book.tangle(limits: testCase.limits)
        #expect(lines(result.diagnostics) == testCase.expected)
        #expect(result.files.map(\.path) == (testCase.writesTheFile ? ["out.swift"] : []))
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
