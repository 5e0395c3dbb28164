import Testing

@testable import Literate

struct BlockAttributesTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var id: String
        var info: String
        var expected: BlockAttributes
        var testDescription: String { id }
    }

    static let accepted: [Case] = [
        Case(id: "language-only", info: "swift", expected: BlockAttributes(language: "swift")),
        Case(
            id: "entangled-file", info: "{.swift file=Sources/X/Y.swift}",
            expected: BlockAttributes(language: "swift", file: "Sources/X/Y.swift")),
        Case(
            id: "entangled-name", info: "{.swift #match-path}",
            expected: BlockAttributes(language: "swift", chunkName: "match-path")),
        Case(
            id: "shorthand-file", info: "swift {file=Sources/X/Y.swift}",
            expected: BlockAttributes(language: "swift", file: "Sources/X/Y.swift")),
        Case(
            id: "shorthand-name", info: "swift {#aasa-model}",
            expected: BlockAttributes(language: "swift", chunkName: "aasa-model")),
        Case(
            id: "checker", info: "json {check=aasa}",
            expected: BlockAttributes(language: "json", checker: "aasa")),
        Case(
            id: "can-import", info: "swift {#paste-button canImport=UIKit}",
            expected: BlockAttributes(language: "swift", chunkName: "paste-button", canImport: "UIKit")),
        Case(
            id: "quoted-value", info: "{.swift file=\"Sources/A B/C.swift\"}",
            expected: BlockAttributes(language: "swift", file: "Sources/A B/C.swift")),
        Case(
            id: "name-and-file", info: "{.swift #main file=Sources/M.swift}",
            expected: BlockAttributes(language: "swift", chunkName: "main", file: "Sources/M.swift")),
        Case(
            id: "free-text-after-language", info: "console title here",
            expected: BlockAttributes(language: "console")),
        Case(id: "empty", info: "", expected: BlockAttributes()),
        Case(
            id: "name-with-dots", info: "swift {#v1.2_final-x}",
            expected: BlockAttributes(language: "swift", chunkName: "v1.2_final-x")),
    ]

    @Test(arguments: accepted)
    func infoStringsParse(_ testCase: Case) {
        #expect(BlockAttributes.parse(testCase.info) == .success(testCase.expected))
    }

    struct Rejection: CustomTestStringConvertible, Sendable {
        var id: String
        var info: String
        var message: String
        var offset: Int
        var testDescription: String { id }
    }

    static let rejected: [Rejection] = [
        Rejection(
            id: "unknown-key", info: "swift {fiel=X.swift}",
            message: "unknown attribute 'fiel' (known: file, check, canImport, try)", offset: 7),
        Rejection(
            id: "invalid-name-digit", info: "swift {#1st}",
            message:
                "invalid chunk name '1st': a name starts with a letter and holds letters, digits, '-', '_' and '.'",
            offset: 7),
        Rejection(
            id: "invalid-name-space-char", info: "swift {#a/b}",
            message:
                "invalid chunk name 'a/b': a name starts with a letter and holds letters, digits, '-', '_' and '.'",
            offset: 7),
        Rejection(
            id: "duplicate-key", info: "swift {file=a.swift file=b.swift}",
            message: "attribute 'file' given twice", offset: 20),
        Rejection(
            id: "two-names", info: "swift {#a #b}", message: "attribute '#name' given twice", offset: 10),
        Rejection(
            id: "unclosed-brace", info: "swift {file=a.swift", message: "malformed attributes: missing '}'",
            offset: 6),
        Rejection(
            id: "text-after-brace", info: "swift {#a} more", message: "malformed attributes: text after '}'",
            offset: 11),
        Rejection(
            id: "bare-word", info: "swift {file}",
            message: "malformed attributes: expected '.language', '#name' or 'key=value', got 'file'",
            offset: 7),
        Rejection(
            id: "empty-value", info: "swift {check=}", message: "malformed attributes: 'check' needs a value",
            offset: 7),
    ]

    @Test(arguments: rejected)
    func badInfoStringsAreRejectedWithPosition(_ testCase: Rejection) {
        guard case .failure(let error) = BlockAttributes.parse(testCase.info) else {
            Issue.record("'\(testCase.info)' was accepted")
            return
        }
        #expect(error.message.text == testCase.message)
        #expect(error.offset == testCase.offset)
    }

    @Test func chunkReferencesAreWholeLines() {
        #expect(ChunkReference("<<a>>") == ChunkReference("<<a>>"))
        #expect(ChunkReference("    <<aasa-model>>  ")?.name == "aasa-model")
        #expect(ChunkReference("    <<aasa-model>>")?.indentation == "    ")
        #expect(ChunkReference("x = <<a>>") == nil)
        #expect(ChunkReference("<<a>> // comment") == nil)
        #expect(ChunkReference("<<>>") == nil)
        #expect(ChunkReference("a << b >> c") == nil)
    }
}
