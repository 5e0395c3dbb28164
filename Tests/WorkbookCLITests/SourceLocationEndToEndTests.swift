import Foundation
import TestSupport
import Testing

/// The promise of `#sourceLocation`: the compiler names the chapter line, not the generated one.
struct SourceLocationEndToEndTests {
    // The limit counts the wait in CommandRunner's queue, which may hold an exercise build.
    @Test(.timeLimit(.minutes(10)))
    func aTypeErrorInATangledChunkIsReportedAtItsChapterLine() async throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("broken-book")
        let tangle = try await CommandRunner.run("literate", ["tangle"], in: folder.url)
        #expect(tangle.status == 0, "\(tangle.stderr)")
        let build = try await CommandRunner.system("swift", ["build"], in: folder.url)
        #expect(build.status != 0, "the fixture must not compile")
        let output = build.stdout + build.stderr
        // The line is the chapter's; the column counts the four spaces the reference adds inside
        // `struct Inventory` (a directive can move lines, not columns).
        #expect(
            output.contains(
                "chapters/01-broken.md:20:26: error: cannot convert value of type 'String' to specified type 'Int'"
            ),
            "\(output)")
        #expect(!output.contains("Inventory.swift:"), "no message names the generated file: \(output)")
    }
}
