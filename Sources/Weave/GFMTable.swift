import Foundation
import Literate

/// A page's source as lines of UTF-8 bytes, indexed once.
public struct SourceText: Sendable, Equatable {
    public let bytes: [UInt8]
    private var starts: [Int] = [0]

    public init(_ source: String) {
        bytes = Array(source.utf8)
        var starts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count,
                let newline = memchr(base + offset, Int32(UInt8(ascii: "\n")), buffer.count - offset)
            {
                offset = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
                starts.append(offset)
            }
        }
        self.starts = starts
    }

    /// Equal texts have equal bytes; the line starts follow from them. A rebuild compares every
    /// page with its previous value, and an unchanged page's text is the same storage
    /// (``MemoBytes/equal(_:_:)``).
    public static func == (lhs: SourceText, rhs: SourceText) -> Bool {
        lhs.bytes.withUnsafeBytes { a in rhs.bytes.withUnsafeBytes { b in MemoBytes.equal(a, b) } }
    }

    public var lineCount: Int { starts.count }

    /// Line `number` (1-based) without its line ending; empty past the end.
    public func line(_ number: Int) -> ArraySlice<UInt8> {
        guard number >= 1, number <= starts.count else { return [] }
        var end = number < starts.count ? starts[number] - 1 : bytes.count
        if end > starts[number - 1], bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return bytes[starts[number - 1]..<end]
    }
}

/// A pipe table, the one extension to CommonMark the book uses (GitHub Flavored Markdown's
/// tables). cmark parses a table as a paragraph; this reads that paragraph's source lines again
/// and recognises the table the way GFM specifies it: a header row, a delimiter row with as many
/// cells (`---`, `:--`, `:-:`, `--:`), then body rows until the paragraph ends.
public struct GFMTable: Equatable, Sendable {
    public enum Alignment: Equatable, Sendable {
        case none, left, center, right
    }

    /// A cell's text (with `\|` already turned into `|`), still to be parsed as inline Markdown.
    public struct Cell: Equatable, Sendable {
        public var text: String
    }

    /// The chapter line of the header row: paragraph lines before it stay a paragraph.
    public var startLine: Int
    public var alignments: [Alignment]
    public var header: [Cell]
    public var rows: [[Cell]]

    /// The table in the paragraph spanning `line...endLine` and starting at `column`, if any.
    public static func recognize(line: Int, column: Int, endLine: Int, in source: SourceText) -> GFMTable? {
        guard endLine > line, (line + 1...endLine).contains(where: { mayBeDelimiterRow(source.line($0)) })
        else {
            return nil
        }
        var lines: [ArraySlice<UInt8>] = []
        for number in line...endLine {
            lines.append(stripContainerPrefix(source.line(number), isFirst: number == line, column: column))
        }
        guard lines.contains(where: { $0.contains(UInt8(ascii: "|")) }) else { return nil }
        for index in 0..<(lines.count - 1) {
            let header = splitRow(lines[index])
            guard header.hasPipe, let alignments = delimiterRow(lines[index + 1]),
                alignments.count == header.cells.count
            else { continue }
            let rows = lines[(index + 2)...].map { row -> [Cell] in
                let cells = splitRow(row).cells
                // GFM: missing cells are empty, excess cells are ignored.
                return (0..<alignments.count).map { $0 < cells.count ? cells[$0] : Cell(text: "") }
            }
            return GFMTable(startLine: line + index, alignments: alignments, header: header.cells, rows: rows)
        }
        return nil
    }

    /// A quick test that runs on every line of every paragraph of more than one line: could
    /// this be a delimiter row (only `|`, `:`, `-`, spaces and container markers, and a `-`)?
    private static func mayBeDelimiterRow(_ line: ArraySlice<UInt8>) -> Bool {
        var sawDash = false
        for byte in line {
            switch byte {
            case UInt8(ascii: "-"): sawDash = true
            case UInt8(ascii: "|"), UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\t"),
                UInt8(ascii: ">"):
                continue
            default: return false
            }
        }
        return sawDash
    }

    /// Drops what belongs to enclosing containers: the paragraph's first line starts at
    /// `column`; continuation lines lose up to that many spaces or `>` markers.
    private static func stripContainerPrefix(_ line: ArraySlice<UInt8>, isFirst: Bool, column: Int)
        -> ArraySlice<UInt8>
    {
        if isFirst { return line.dropFirst(max(0, column - 1)) }
        var result = line
        var dropped = 0
        while dropped < column - 1, let first = result.first,
            first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") || first == UInt8(ascii: ">")
        {
            result = result.dropFirst()
            dropped += 1
        }
        return result
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    private static func trim(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var result = bytes
        while let first = result.first, isBlank(first) { result = result.dropFirst() }
        while let last = result.last, isBlank(last) { result = result.dropLast() }
        return result
    }

    /// Splits a row at unescaped pipes, dropping one leading and one trailing pipe.
    private static func splitRow(_ line: ArraySlice<UInt8>) -> (cells: [Cell], hasPipe: Bool) {
        var row = trim(line)
        var hasPipe = false
        if row.first == UInt8(ascii: "|") {
            row = row.dropFirst()
            hasPipe = true
        }
        if row.last == UInt8(ascii: "|"), !(row.count >= 2 && row[row.endIndex - 2] == UInt8(ascii: "\\")) {
            row = row.dropLast()
            hasPipe = true
        }
        var cells: [Cell] = []
        var current: [UInt8] = []
        var index = row.startIndex
        while index < row.endIndex {
            let byte = row[index]
            if byte == UInt8(ascii: "\\"), index + 1 < row.endIndex, row[index + 1] == UInt8(ascii: "|") {
                current.append(UInt8(ascii: "|"))
                index += 2
                continue
            }
            if byte == UInt8(ascii: "|") {
                cells.append(Cell(text: String(decoding: trim(current[...]), as: UTF8.self)))
                current.removeAll(keepingCapacity: true)
                hasPipe = true
            } else {
                current.append(byte)
            }
            index += 1
        }
        cells.append(Cell(text: String(decoding: trim(current[...]), as: UTF8.self)))
        return (cells, hasPipe)
    }

    /// The alignments of a delimiter row such as `| --- | :-: | --: |`, or nil.
    private static func delimiterRow(_ line: ArraySlice<UInt8>) -> [Alignment]? {
        let (cells, hasPipe) = splitRow(line)
        guard hasPipe || cells.count > 1 else { return nil }
        var alignments: [Alignment] = []
        for cell in cells {
            var body = Substring(cell.text)
            let left = body.first == ":"
            if left { body = body.dropFirst() }
            let right = body.last == ":"
            if right { body = body.dropLast() }
            guard !body.isEmpty, body.allSatisfy({ $0 == "-" }) else { return nil }
            switch (left, right) {
            case (true, true): alignments.append(.center)
            case (true, false): alignments.append(.left)
            case (false, true): alignments.append(.right)
            case (false, false): alignments.append(.none)
            }
        }
        return alignments
    }
}
