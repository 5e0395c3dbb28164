/// Tracks just enough of Swift's lexical structure, line by line, to know where a
/// `#sourceLocation` directive may stand: between declarations or statements, never inside an
/// expression, a string, a comment, or a `switch` before its first `case`.
struct SwiftLayout {
    private struct Bracket {
        /// `{`, `(` or `[`.
        var byte: UInt8
        var opensSwitch = false
        var sawCase = false
    }

    private var brackets: [Bracket] = []
    private var inBlockComment = 0
    /// In a multi-line string: how many `#`s follow the `"""` that closes it.
    private var multilineStringHashes: Int?
    /// Where the code of the last line holding code (comments and surrounding blanks excluded)
    /// stands in the output: lines are never copied, only their position is kept.
    private var previousCode = 0..<0

    /// Are we inside a `switch`, past its first case label?
    var isAfterACase: Bool {
        guard let top = brackets.last else { return false }
        return top.opensSwitch && top.sawCase
    }

    /// May a directive stand before `nextLine`? `output` holds the lines consumed so far. Runs at
    /// every block start, so it compares bytes.
    func allowsDirective(before nextLine: UnsafeBufferPointer<UInt8>, output: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        guard multilineStringHashes == nil, inBlockComment == 0 else { return false }
        if let top = brackets.last {
            guard top.byte == UInt8(ascii: "{") else { return false }
            if top.opensSwitch, !top.sawCase { return false }
        }
        let next = nextLine.trimmingLeadingBlanks
        if Self.continuationPrefixes.contains(where: { next.starts(with: $0) }) { return false }
        let previous = UnsafeBufferPointer(rebasing: output[previousCode])
        if !previous.hasSuffix(Self.lineComment),
            Self.continuationEndings.contains(where: { previous.hasSuffix($0) })
        {
            return false
        }
        if previous.first == UInt8(ascii: "@") {
            let hasSpace = previous.contains(UInt8(ascii: " "))
            if !hasSpace, previous.last != UInt8(ascii: "}") {
                return false  // an attribute on its own line belongs to the next declaration
            }
            if previous.last == UInt8(ascii: ")") {
                let text = String(decoding: previous, as: UTF8.self)
                if !text.contains(" func "), !text.contains(" var "), !text.contains(" let ") {
                    return false  // `@Test("…")` alone on its line
                }
            }
        }
        return true
    }

    private static let lineComment = Array("//".utf8)

    /// A line starting with one of these continues the expression above it.
    private static let continuationPrefixes = [
        ".", "?", "&&", "||", "+ ", "- ", "->", "where ", "else", "catch",
    ].map { Array($0.utf8) }
    /// A line ending with one of these continues on the next line.
    private static let continuationEndings = [
        ",", "=", "(", "[", ".", "&&", "||", "+", "-", "*", "/", "?", "->", "\\",
    ].map { Array($0.utf8) }

    /// Feeds one line of generated Swift, written at `offset` in the output. Works on UTF-8
    /// bytes: every delimiter it looks for is ASCII, and this runs for every generated line.
    mutating func consume(_ line: UnsafeBufferPointer<UInt8>, at offset: Int) {
        if let code = consume(bytes: line) {
            previousCode = (offset + code.lowerBound)..<(offset + code.upperBound)
        }
    }

    /// Returns the byte range of the line's code, or nil when the line holds none.
    private mutating func consume(bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let quote = UInt8(ascii: "\"")
        let pound = UInt8(ascii: "#")
        let slash = UInt8(ascii: "/")
        let star = UInt8(ascii: "*")
        let backslash = UInt8(ascii: "\\")
        var index = 0
        var codeStart = -1
        var codeEnd = -1
        var sawSwitch = false
        while index < bytes.count {
            let byte = bytes[index]
            if let hashes = multilineStringHashes {
                if closesMultilineString(bytes, at: index, hashes: hashes) {
                    multilineStringHashes = nil
                    index += 3 + hashes
                } else {
                    index += byte == backslash ? 2 : 1
                }
                continue
            }
            if inBlockComment > 0 {
                if byte == star, index + 1 < bytes.count, bytes[index + 1] == slash {
                    inBlockComment -= 1
                    index += 2
                } else if byte == slash, index + 1 < bytes.count, bytes[index + 1] == star {
                    inBlockComment += 1
                    index += 2
                } else {
                    index += 1
                }
                continue
            }
            // Most bytes of a line are identifiers, operators and blanks: take runs of them at
            // once. An `s` inside an identifier cannot start the keyword `switch`.
            if Self.isPlain(byte) {
                if codeStart < 0 { codeStart = index }
                index += 1
                while index < bytes.count {
                    let next = bytes[index]
                    guard
                        Self.isPlain(next)
                            || (next == UInt8(ascii: "s") && isIdentifierByte(bytes, index - 1))
                    else { break }
                    index += 1
                }
                codeEnd = index - 1
                continue
            }
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                index += 1
                while index < bytes.count,
                    bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")
                {
                    index += 1
                }
                continue
            }
            if byte == slash, index + 1 < bytes.count {
                if bytes[index + 1] == slash { break }
                if bytes[index + 1] == star {
                    inBlockComment += 1
                    index += 2
                    continue
                }
            }
            if byte == pound || byte == quote {
                var hashes = 0
                while index + hashes < bytes.count, bytes[index + hashes] == pound { hashes += 1 }
                let quoteIndex = index + hashes
                if quoteIndex < bytes.count, bytes[quoteIndex] == quote {
                    if codeStart < 0 { codeStart = index }
                    if matches(bytes, at: quoteIndex, "\"\"\"") {
                        multilineStringHashes = hashes
                        codeEnd = quoteIndex + 2
                        index = quoteIndex + 3
                        continue
                    }
                    // A single-line string: skip to its closing quote (plus the same `#`s).
                    var position = quoteIndex + 1
                    while position < bytes.count {
                        if hashes == 0, bytes[position] == backslash {
                            position += 2
                            continue
                        }
                        if bytes[position] == quote, hasHashes(bytes, at: position + 1, count: hashes) {
                            position += 1 + hashes
                            break
                        }
                        position += 1
                    }
                    index = position
                    codeEnd = min(position, bytes.count) - 1
                    continue
                }
            }
            switch byte {
            case UInt8(ascii: "{"):
                brackets.append(Bracket(byte: byte, opensSwitch: sawSwitch))
            case UInt8(ascii: "("), UInt8(ascii: "["):
                brackets.append(Bracket(byte: byte))
            case UInt8(ascii: "}"), UInt8(ascii: ")"), UInt8(ascii: "]"):
                if !brackets.isEmpty { brackets.removeLast() }
            case UInt8(ascii: "s"):
                // The keyword `switch`, not part of a longer identifier.
                if matches(bytes, at: index, "switch"), !isIdentifierByte(bytes, index - 1),
                    !isIdentifierByte(bytes, index + 6)
                {
                    sawSwitch = true
                }
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                index += 1
                continue
            default:
                break
            }
            if codeStart < 0 { codeStart = index }
            codeEnd = index
            index += 1
        }
        guard codeStart >= 0 else { return nil }
        if let top = brackets.indices.last, brackets[top].opensSwitch {
            let code = UnsafeBufferPointer(rebasing: bytes[codeStart...codeEnd])
            if code.starts(with: "case ".utf8) || code.starts(with: "default:".utf8)
                || code.starts(with: "@unknown".utf8)
            {
                brackets[top].sawCase = true
            }
        }
        return codeStart..<(codeEnd + 1)
    }

    /// A byte that only extends the line's code: not a blank, and not one that may start a
    /// comment, a string, a bracket or the keyword `switch`.
    @inline(__always)
    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\""), UInt8(ascii: "#"), UInt8(ascii: "/"),
            UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
            UInt8(ascii: "}"), UInt8(ascii: "s"):
            return false
        default:
            return true
        }
    }

    /// Does `"""` followed by `hashes` `#`s stand at `index`?
    private func closesMultilineString(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, hashes: Int)
        -> Bool
    {
        matches(bytes, at: index, "\"\"\"") && hasHashes(bytes, at: index + 3, count: hashes)
    }

    private func hasHashes(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, count: Int) -> Bool {
        guard index + count <= bytes.count else { return false }
        for position in index..<(index + count) where bytes[position] != UInt8(ascii: "#") { return false }
        return true
    }

    private func isIdentifierByte(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
        guard index >= 0, index < bytes.count else { return false }
        let byte = bytes[index]
        return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a)
            || (byte >= 0x61 && byte <= 0x7a)
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    private func matches(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ text: StaticString) -> Bool {
        var position = index
        let expected = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        for byte in expected {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
        }
        return true
    }
}

extension StringProtocol {
    func trimmingLeadingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" })
    }

    func trimmingTrailingSpaces() -> String {
        var result = String(self)
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}

extension UnsafeBufferPointer<UInt8> {
    func hasSuffix(_ suffix: [UInt8]) -> Bool {
        guard count >= suffix.count else { return false }
        var index = count - suffix.count
        for byte in suffix {
            if self[index] != byte { return false }
            index += 1
        }
        return true
    }
}
