import Foundation

/// Checks that a text is JSON as RFC 8259 defines it, and says where it stops being JSON: the
/// line and column an editor can jump to, and a reason a newcomer can act on.
///
/// Foundation's parser only says "invalid value around character 212", and on Linux it also
/// accepts a trailing comma, which RFC 8259 does not allow and a strict parser rejects. The
/// checks therefore ask both: the text must pass this scanner and Foundation's parser.
///
/// ```swift
/// JSONSyntax.firstProblem(in: Data("{\"a\": 1,}".utf8))
/// // Problem(line: 1, column: 9, message: "a comma before '}': remove the trailing comma")
/// ```
public enum JSONSyntax {
    /// The first place where the text is not JSON. `column` counts characters from 1.
    public struct Problem: Equatable, Sendable {
        public var line: Int
        public var column: Int
        public var message: String
    }

    /// The first syntax problem in `data`, or `nil` when this scanner finds none.
    public static func firstProblem(in data: Data) -> Problem? {
        var scanner = JSONScanner(bytes: Array(data))
        do {
            try scanner.document()
            return nil
        } catch {
            return scanner.problem(error.message)
        }
    }

    /// A 1-based line and column in a JSON text; the column counts characters.
    public struct Position: Hashable, Sendable {
        public var line: Int
        public var column: Int

        public init(line: Int, column: Int) { (self.line, self.column) = (line, column) }
    }

    /// Where each value of the text starts, by its path, or nil when the text is not JSON: for a
    /// tool that finds a problem by path (a linter, a schema check) and reports it at a line and
    /// column an editor can jump to.
    ///
    /// Paths read as the linters print them: `$` for the whole document, member names after a
    /// dot (`applinks.details`), indices and other names in brackets (`details[0]`,
    /// `components[1]["/"]`). When an object repeats a name, the last one is recorded, as
    /// Foundation's parser keeps the last value.
    ///
    /// ```swift
    /// JSONSyntax.valuePositions(in: Data("{\n  \"a\": [1, 2]\n}".utf8))?["a[1]"]
    /// // Position(line: 2, column: 12)
    /// ```
    public static func valuePositions(in data: Data) -> [String: Position]? {
        var scanner = JSONScanner(bytes: Array(data))
        scanner.recorded = []
        do {
            try scanner.document()
        } catch {
            return nil
        }
        return scanner.recordedPositions()
    }

    /// The path of member `name` inside the value at `parent`, in ``valuePositions(in:)``'s
    /// notation: `applinks.details` or `components[1]["/"]`.
    public static func path(_ parent: String, member name: String) -> String {
        let isName =
            name.first.map { $0.isLetter || $0 == "_" } == true
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        // As the linters print it: the name as written, not escaped.
        let quoted = "[\"\(name)\"]"
        switch (parent == "$", isName) {
        case (true, true): return name
        case (true, false): return "$" + quoted
        case (false, true): return parent + "." + name
        case (false, false): return parent + quoted
        }
    }

    /// The path of element `index` of the array at `parent`: `details[0]`, `$[2]`.
    public static func path(_ parent: String, index: Int) -> String { parent + "[\(index)]" }

    /// Every sentence the scanner can say, in one place.
    public enum Message {
        public static let endOfFile = "the JSON text ends too early"
        public static let expectedValue =
            "expected a value (an object, array, string, number, true, false or null)"
        public static let expectedKey = "expected a key in double quotes"
        public static let expectedColon = "expected ':' after the key"
        public static let expectedObjectEnd = "expected ',' or '}' after a member"
        public static let expectedArrayEnd = "expected ',' or ']' after an element"
        public static let trailingText = "unexpected text after the end of the document"
        public static let unterminatedString = "the string is not closed with '\"'"
        public static let controlCharacter =
            "a control character (such as a tab or a line break) inside a string; escape it"
        public static let invalidEscape =
            "invalid escape; use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX"
        public static let invalidNumber = "invalid number"
        public static let tooDeep = "nested too deeply"
        public static func trailingComma(before closer: Character) -> String {
            "a comma before '\(closer)': remove the trailing comma"
        }
        public static let singleQuotes = "JSON strings and keys use double quotes, not single quotes"
    }
}

private struct SyntaxError: Error {
    var message: String
}

/// A recursive-descent pass over the bytes; `offset` is where the problem is when one is thrown.
private struct JSONScanner {
    let bytes: [UInt8]
    var offset = 0
    var depth = 0
    /// When not nil, each value's path and starting offset, in document order.
    var recorded: [(path: String, offset: Int)]?
    /// The path of the value being read, while recording.
    private var path = "$"

    init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is not part of the document.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
    }

    mutating func document() throws(SyntaxError) {
        skipWhitespace()
        try value()
        skipWhitespace()
        if offset < bytes.count { throw SyntaxError(message: JSONSyntax.Message.trailingText) }
    }

    /// Line and column of `offset`; continuation bytes of UTF-8 do not count as columns.
    func problem(_ message: String) -> JSONSyntax.Problem {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONSyntax.Problem(line: line, column: column, message: message)
    }

    /// The recorded offsets as lines and columns, in one pass over the text.
    func recordedPositions() -> [String: JSONSyntax.Position] {
        guard let recorded else { return [:] }
        var positions: [String: JSONSyntax.Position] = [:]
        var line = 1
        var column = 1
        var index = 0
        for (path, target) in recorded.sorted(by: { $0.offset < $1.offset }) {
            while index < target {
                if bytes[index] == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if bytes[index] & 0xC0 != 0x80 {
                    column += 1
                }
                index += 1
            }
            positions[path] = JSONSyntax.Position(line: line, column: column)
        }
        return positions
    }

    private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, [0x20, 0x09, 0x0A, 0x0D].contains(byte) { offset += 1 }
    }

    private mutating func value() throws(SyntaxError) {
        guard let byte = current else { throw SyntaxError(message: JSONSyntax.Message.endOfFile) }
        recorded?.append((path, offset))
        switch byte {
        case UInt8(ascii: "{"): try object()
        case UInt8(ascii: "["): try array()
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "'"): throw SyntaxError(message: JSONSyntax.Message.singleQuotes)
        default: throw SyntaxError(message: JSONSyntax.Message.expectedValue)
        }
    }

    /// Deep nesting is legal JSON but would exhaust the stack of a recursive scanner.
    private mutating func enter() throws(SyntaxError) {
        depth += 1
        guard depth <= 512 else { throw SyntaxError(message: JSONSyntax.Message.tooDeep) }
    }

    private mutating func object() throws(SyntaxError) {
        try container(closer: "}", endMessage: JSONSyntax.Message.expectedObjectEnd, isObject: true)
    }

    private mutating func array() throws(SyntaxError) {
        try container(closer: "]", endMessage: JSONSyntax.Message.expectedArrayEnd, isObject: false)
    }

    /// An object's members or an array's elements, from the opening bracket to `closer`.
    private mutating func container(closer: Character, endMessage: String, isObject: Bool) throws(SyntaxError)
    {
        try enter()
        defer { depth -= 1 }
        offset += 1
        skipWhitespace()
        if current == closer.asciiValue {
            offset += 1
            return
        }
        let parent = path
        defer { path = parent }
        var index = 0
        while true {
            if isObject {
                let name = try memberName()
                if recorded != nil { path = JSONSyntax.path(parent, member: name) }
            } else if recorded != nil {
                path = JSONSyntax.path(parent, index: index)
                index += 1
            }
            try value()
            skipWhitespace()
            switch current {
            case closer.asciiValue:
                offset += 1
                return
            case UInt8(ascii: ","):
                try afterComma(closer: closer)
            case nil: throw SyntaxError(message: JSONSyntax.Message.endOfFile)
            default: throw SyntaxError(message: endMessage)
            }
        }
    }

    /// A member's name and its colon, leaving the scanner at the member's value. The name is
    /// decoded only while recording positions.
    private mutating func memberName() throws(SyntaxError) -> String {
        var name = ""
        switch current {
        case UInt8(ascii: "\""):
            let start = offset
            try string()
            if recorded != nil { name = Self.decodedString(bytes[start..<offset]) }
        case UInt8(ascii: "'"): throw SyntaxError(message: JSONSyntax.Message.singleQuotes)
        case nil: throw SyntaxError(message: JSONSyntax.Message.endOfFile)
        default: throw SyntaxError(message: JSONSyntax.Message.expectedKey)
        }
        skipWhitespace()
        guard current == UInt8(ascii: ":") else {
            throw SyntaxError(
                message: current == nil ? JSONSyntax.Message.endOfFile : JSONSyntax.Message.expectedColon)
        }
        offset += 1
        skipWhitespace()
        return name
    }

    /// The text of a string literal already checked by `string()`, quotes included.
    private static func decodedString(_ literal: ArraySlice<UInt8>) -> String {
        let inner = literal.dropFirst().dropLast()
        guard inner.contains(UInt8(ascii: "\\")) else { return String(decoding: inner, as: UTF8.self) }
        // Escapes are rare in names: let Foundation decode them.
        return (try? JSONDecoder().decode(String.self, from: Data(literal)))
            ?? String(decoding: inner, as: UTF8.self)
    }

    /// Steps over a comma; a closer right after it is the most common hand-editing mistake,
    /// so it gets its own message, pointing at the comma.
    private mutating func afterComma(closer: Character) throws(SyntaxError) {
        let comma = offset
        offset += 1
        skipWhitespace()
        if current == closer.asciiValue {
            offset = comma
            throw SyntaxError(message: JSONSyntax.Message.trailingComma(before: closer))
        }
    }

    private mutating func string() throws(SyntaxError) {
        let start = offset
        offset += 1
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return
            case UInt8(ascii: "\\"):
                offset += 1
                try escape()
            case 0x00..<0x20:
                throw SyntaxError(message: JSONSyntax.Message.controlCharacter)
            default:
                offset += 1
            }
        }
        offset = start
        throw SyntaxError(message: JSONSyntax.Message.unterminatedString)
    }

    private mutating func escape() throws(SyntaxError) {
        guard let byte = current else { throw SyntaxError(message: JSONSyntax.Message.unterminatedString) }
        if Array("\"\\/bfnrt".utf8).contains(byte) {
            offset += 1
            return
        }
        guard byte == UInt8(ascii: "u") else {
            offset -= 1
            throw SyntaxError(message: JSONSyntax.Message.invalidEscape)
        }
        let digits = bytes[(offset + 1)..<min(offset + 5, bytes.count)]
        guard digits.count == 4, digits.allSatisfy(Self.isHexDigit) else {
            offset -= 1
            throw SyntaxError(message: JSONSyntax.Message.invalidEscape)
        }
        offset += 5
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private mutating func number() throws(SyntaxError) {
        let start = offset
        func fail() -> SyntaxError {
            offset = start
            return SyntaxError(message: JSONSyntax.Message.invalidNumber)
        }
        if current == UInt8(ascii: "-") { offset += 1 }
        if current == UInt8(ascii: "0") {
            offset += 1
        } else if digitCount() == 0 {
            throw fail()
        }
        if current == UInt8(ascii: ".") {
            offset += 1
            guard digitCount() > 0 else { throw fail() }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            offset += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
            guard digitCount() > 0 else { throw fail() }
        }
        // `01` or `1x`: a number must end where a delimiter starts.
        if let byte = current, Self.isDigit(byte) || Self.isLetter(byte) { throw fail() }
    }

    private mutating func digitCount() -> Int {
        let start = offset
        while let byte = current, Self.isDigit(byte) { offset += 1 }
        return offset - start
    }

    private mutating func literal(_ word: String) throws(SyntaxError) {
        let expected = Array(word.utf8)
        guard bytes[offset..<min(offset + expected.count, bytes.count)].elementsEqual(expected) else {
            throw SyntaxError(message: JSONSyntax.Message.expectedValue)
        }
        offset += expected.count
        if let byte = current, Self.isLetter(byte) || Self.isDigit(byte) {
            offset -= expected.count
            throw SyntaxError(message: JSONSyntax.Message.expectedValue)
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
}
