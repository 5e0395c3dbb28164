import Foundation
import Testing

@testable import Literate

/// A throwaway book folder for a test: chapters written from strings, removed on deinit.
final class TestBook {
    let root: URL

    init(_ chapters: [String: String], files: [String: String] = [:]) throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("literate-test-\(UUID().uuidString)").resolvingSymlinksInPath()
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("chapters"), withIntermediateDirectories: true)
        for (name, text) in chapters {
            try Data(text.utf8).write(to: root.appendingPathComponent("chapters/\(name)"))
        }
        for (path, text) in files { try write(path, text) }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// Writes raw bytes, for text that is not UTF-8.
    func write(_ path: String, bytes: [UInt8]) throws {
        try Data(bytes).write(to: root.appendingPathComponent(path))
    }

    func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: root.appendingPathComponent(path).path)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    func tangle(limits: TangleLimits = .standard) throws -> TangleResult {
        Tangler.tangle(try Book.load(root: root), limits: limits)
    }

    /// Tangles and writes, as `workbook tangle` does; returns the plan's problems.
    @discardableResult
    func tangleAndWrite(force: Bool = false) throws -> [Diagnostic] {
        let result = try tangle()
        #expect(!result.hasErrors, "\(result.diagnostics)")
        let plan = TangleWriter.plan(result, root: root, force: force)
        if plan.problems.isEmpty { try TangleWriter.apply(plan, root: root) }
        return plan.problems
    }

    /// The body of a generated file: everything after its header.
    func body(_ path: String) -> String? {
        guard let text = read(path), let range = text.range(of: "// Body hash: ") else { return nil }
        guard let newline = text[range.upperBound...].firstIndex(of: "\n") else { return "" }
        return String(text[text.index(after: newline)...])
    }
}

/// Fails with a unified diff when two texts differ.
func expectSameText(
    _ actual: String, _ expected: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let diff = UnifiedDiff.diff(old: expected, new: actual, oldName: "expected", newName: "actual")
    #expect(diff.isEmpty, "texts differ:\n\(diff)", sourceLocation: sourceLocation)
}

/// Every diagnostic as its printed line, in order.
func lines(_ diagnostics: [Diagnostic]) -> [String] { diagnostics.map(\.description) }
