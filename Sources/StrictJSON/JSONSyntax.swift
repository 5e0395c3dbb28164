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

    private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, [0x20, 0x09, 0x0A, 0x0D].contains(byte) { offset += 1 }
    }

    private mutating func value() throws(SyntaxError) {
        guard let byte = current else { throw SyntaxError(message: JSONSyntax.Message.endOfFile) }
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
        while true {
            if isObject { try memberName() }
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

    /// A member's name and its colon, leaving the scanner at the member's value.
    private mutating func memberName() throws(SyntaxError) {
        switch current {
        case UInt8(ascii: "\""): try string()
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
