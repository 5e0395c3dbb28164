import Foundation
import Testing

@testable import Literate

/// Tangles the fixture book in `Fixtures/golden-book` and compares every generated file, whole,
/// with the copy in its `expected/` folder. To accept a deliberate change of the output, tangle
/// the fixture into a scratch folder and copy the result over `expected/`.
struct GoldenBookTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/golden-book")

    @Test func theFixtureBookTanglesToTheExpectedFiles() throws {
        let chapters = try FileManager.default.contentsOfDirectory(
            atPath: Self.fixture.appendingPathComponent("chapters").path)
        var texts: [String: String] = [:]
        for name in chapters {
            texts[name] = try String(
                contentsOf: Self.fixture.appendingPathComponent("chapters/\(name)"), encoding: .utf8)
        }
        let book = try TestBook(texts)
        try book.tangleAndWrite()
        let expectedRoot = Self.fixture.appendingPathComponent("expected")
        let expected = TangleWriter.generatedFiles(under: expectedRoot)
        #expect(expected == ["Sources/Greeter/Greeter.swift", "scripts/greet.sh"])
        #expect(TangleWriter.generatedFiles(under: book.root) == expected, "no other file is generated")
        for path in expected {
            let wanted = try String(contentsOf: expectedRoot.appendingPathComponent(path), encoding: .utf8)
            expectSameText(try #require(book.read(path)), wanted)
        }
    }
}
