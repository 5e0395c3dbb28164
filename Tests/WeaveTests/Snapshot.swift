import Foundation
import Testing

/// Whole-file expectations, as mdBook's tests keep them: `Snapshots/NAME` holds what a test's
/// output must be, byte for byte, and a difference fails the test naming the first line that
/// differs, with both versions of it.
///
/// To accept a change on purpose, record the files again and review the diff before committing:
///
///     WEAVE_RECORD_SNAPSHOTS=1 swift test --filter WeaveTests
///
/// A recording run writes every snapshot it compares and fails each test that wrote one, so a
/// recording is never mistaken for a passing run; a normal run never writes a snapshot.
enum Snapshot {
    /// `Tests/WeaveTests/Snapshots`, beside this file.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots")

    /// The environment variable that turns recording on (`1`).
    static let recordVariable = "WEAVE_RECORD_SNAPSHOTS"

    static var isRecording: Bool { ProcessInfo.processInfo.environment[recordVariable] == "1" }

    /// Expects `actual` to be the snapshot `name` (a path under `Snapshots/`), or records it.
    static func expect(
        _ actual: String, matches name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let url = folder.appendingPathComponent(name)
        if isRecording {
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: url)
                Issue.record(
                    "recorded Snapshots/\(name); run again without \(recordVariable) to compare",
                    sourceLocation: sourceLocation)
            } catch {
                Issue.record("cannot record Snapshots/\(name): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record(
                "no snapshot Snapshots/\(name): run with \(recordVariable)=1 to record it",
                sourceLocation: sourceLocation)
            return
        }
        if let difference = difference(expected: String(decoding: data, as: UTF8.self), actual: actual) {
            let message =
                "output differs from Snapshots/\(name) \(difference)\n(if the change is intended, run with "
                + "\(recordVariable)=1 and review the diff)"
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
    }

    /// Where `actual` first departs from `expected`, or nil when they are equal:
    ///
    ///     at line 3:
    ///       expected: <p>Hello</p>
    ///       actual:   <p>Hi</p>
    static func difference(expected: String, actual: String) -> String? {
        guard expected != actual else { return nil }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var index = 0
        while index < expectedLines.count, index < actualLines.count,
            expectedLines[index] == actualLines[index]
        {
            index += 1
        }
        func line(_ lines: [Substring]) -> String {
            index < lines.count ? String(lines[index]) : "(the end: \(lines.count) lines)"
        }
        return "at line \(index + 1):\n  expected: \(line(expectedLines))\n  actual:   \(line(actualLines))"
    }
}

struct SnapshotTests {
    @Test func theFirstDifferingLineIsNamedWithBothVersions() {
        #expect(
            Snapshot.difference(expected: "<h1>A</h1>\n<p>Hello</p>\n", actual: "<h1>A</h1>\n<p>Hi</p>\n")
                == "at line 2:\n  expected: <p>Hello</p>\n  actual:   <p>Hi</p>")
    }

    @Test func aShorterOutputSaysWhereItEnds() {
        #expect(
            Snapshot.difference(expected: "a\nb", actual: "a")
                == "at line 2:\n  expected: b\n  actual:   (the end: 1 lines)")
    }

    @Test func equalTextsHaveNoDifference() {
        #expect(Snapshot.difference(expected: "a\n", actual: "a\n") == nil)
    }
}
