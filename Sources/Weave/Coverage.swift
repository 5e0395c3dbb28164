import Foundation
import Literate

/// Line coverage read from `llvm-cov export` JSON, the file `swift test
/// --enable-code-coverage` leaves in `.build/debug/codecov/`.
///
/// Coverage is recorded against the physical lines of the generated files (the compiler's
/// coverage mapping ignores `#sourceLocation`), so `testedBlocks` maps each covered line back to
/// its chapter line through the tangler's line map. A block counts as tested when at least one
/// of its lines ran.
///
/// ```swift
/// let coverage = try LineCoverage(json: data)
/// coverage.coveredLines["/repo/Sources/DeepLinkCore/QueryItems.swift"]  // [12, 13, 14, ...]
/// ```
public struct LineCoverage: Sendable, Equatable {
    /// Executed lines (1-based) per file name, as the export names the files (absolute paths).
    public var coveredLines: [String: Set<Int>]

    public init(coveredLines: [String: Set<Int>]) { self.coveredLines = coveredLines }

    /// Reads an export. Throws a description of what is wrong with the data.
    public init(json data: Data) throws(WeaveMessage) {
        let export: Export
        do {
            export = try JSONDecoder().decode(Export.self, from: data)
        } catch {
            throw .invalidCoverage(path: "", detail: "not an llvm-cov JSON export (\(error))")
        }
        guard export.type == "llvm.coverage.json.export" else {
            throw .invalidCoverage(path: "", detail: "type is '\(export.type ?? "missing")'")
        }
        var covered: [String: Set<Int>] = [:]
        for unit in export.data {
            for file in unit.files {
                covered[file.filename, default: []].formUnion(Self.executedLines(file.segments))
            }
        }
        coveredLines = covered
    }

    /// The lines with a non-zero execution count, following `llvm-cov`'s own line statistics:
    /// a line counts the region in effect when it starts (the "wrapped" segment) and every
    /// region that starts on it, except gap regions and skipped code.
    static func executedLines(_ segments: [Segment]) -> Set<Int> {
        var lines: Set<Int> = []
        guard let lastLine = segments.map(\.line).max() else { return lines }
        var index = 0
        var wrapped: Segment?
        for line in 1...lastLine {
            var starting: [Segment] = []
            while index < segments.count, segments[index].line == line {
                starting.append(segments[index])
                index += 1
            }
            let isRegionStart = { (segment: Segment) in
                !segment.isGap && segment.hasCount && segment.isRegionEntry
            }
            let startsSkipped = starting.first.map { !$0.hasCount && $0.isRegionEntry } ?? false
            let regionStarts = starting.filter(isRegionStart)
            let mapped =
                (!startsSkipped && ((wrapped?.hasCount ?? false) || !regionStarts.isEmpty))
                || starting.contains { $0.isRegionEntry && $0.hasCount }
            if mapped {
                var count = wrapped?.count ?? 0
                for segment in regionStarts { count = max(count, segment.count) }
                if count > 0 { lines.insert(line) }
            }
            if let last = starting.last { wrapped = last }
        }
        return lines
    }

    /// The chapter lines whose generated lines ran, for the tangled `files`: an export entry
    /// belongs to a tangled file when its absolute path ends with the file's book-relative path.
    public func chapterLines(of files: [TangledFile]) -> Set<SourceLocation> {
        var result: Set<SourceLocation> = []
        for (filename, lines) in coveredLines {
            guard let file = files.first(where: { filename == $0.path || filename.hasSuffix("/" + $0.path) })
            else { continue }
            for line in lines {
                if let location = file.chapterLocation(ofLine: line) {
                    result.insert(SourceLocation(path: location.path, line: location.line))
                }
            }
        }
        return result
    }

    /// One segment of `llvm-cov export`: `[line, column, count, hasCount, isRegionEntry,
    /// isGapRegion]`.
    struct Segment: Decodable, Equatable {
        var line: Int
        var column: Int
        var count: Int
        var hasCount: Bool
        var isRegionEntry: Bool
        var isGap: Bool

        init(line: Int, column: Int, count: Int, hasCount: Bool, isRegionEntry: Bool, isGap: Bool) {
            (self.line, self.column, self.count, self.hasCount, self.isRegionEntry, self.isGap) = (
                line, column, count, hasCount, isRegionEntry, isGap
            )
        }

        init(from decoder: any Decoder) throws {
            var values = try decoder.unkeyedContainer()
            line = try values.decode(Int.self)
            column = try values.decode(Int.self)
            count = try values.decode(Int.self)
            hasCount = try values.decode(Bool.self)
            isRegionEntry = try values.decode(Bool.self)
            isGap = values.isAtEnd ? false : try values.decode(Bool.self)
        }
    }

    private struct Export: Decodable {
        var type: String?
        var data: [Unit]
    }

    private struct Unit: Decodable {
        var files: [File]
    }

    private struct File: Decodable {
        var filename: String
        var segments: [Segment]
    }
}
