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
    /// The closing delimiter of the multi-line string we are in (`"""` plus any `#`s).
    private var multilineStringEnd: String?
    /// The last line holding code, and the byte range of its code (comments and surrounding
    /// blanks excluded). Kept as the line itself: the text is only built when a directive is
    /// considered, not for every line.
    private var previousLine = ""
    private var previousCode = 0..<0

    /// Are we inside a `switch`, past its first case label?
    var isAfterACase: Bool {
        guard let top = brackets.last else { return false }
        return top.opensSwitch && top.sawCase
    }

    /// May a directive stand before `nextLine`? Runs at every block start, so it compares bytes.
    func allowsDirective(before nextLine: String) -> Bool {
        guard multilineStringEnd == nil, inBlockComment == 0 else { return false }
        if let top = brackets.last {
            guard top.byte == UInt8(ascii: "{") else { return false }
            if top.opensSwitch, !top.sawCase { return false }
        }
        let nextBytes = Array(nextLine.utf8)
        let next = nextBytes.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        if Self.continuationPrefixes.contains(where: { next.hasBytePrefix($0) }) { return false }
        let previous = Array(previousLine.utf8)[previousCode]
        if !previous.hasByteSuffix(Array("//".utf8)),
            Self.continuationEndings.contains(where: { previous.hasByteSuffix($0) })
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

    /// A line starting with one of these continues the expression above it.
    private static let continuationPrefixes = [
        ".", "?", "&&", "||", "+ ", "- ", "->", "where ", "else", "catch",
    ].map { Array($0.utf8) }
    /// A line ending with one of these continues on the next line.
    private static let continuationEndings = [
        ",", "=", "(", "[", ".", "&&", "||", "+", "-", "*", "/", "?", "->", "\\",
    ].map { Array($0.utf8) }

    /// Feeds one line of generated Swift. Works on UTF-8 bytes: every delimiter it looks for is
    /// ASCII, and this runs for every generated line.
    mutating func consume(_ line: String) {
        var line = line
        if let code = line.withUTF8({ consume(bytes: $0) }) {
            previousLine = line
            previousCode = code
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
            if let end = multilineStringEnd {
                if matches(bytes, at: index, end) {
                    multilineStringEnd = nil
                    index += end.utf8.count
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
                    let pounds = String(repeating: "#", count: hashes)
                    if matches(bytes, at: quoteIndex, "\"\"\"") {
                        multilineStringEnd = "\"\"\"" + pounds
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
                        if bytes[position] == quote, matches(bytes, at: position + 1, pounds) {
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

    private func isIdentifierByte(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
        guard index >= 0, index < bytes.count else { return false }
        let byte = bytes[index]
        return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a)
            || (byte >= 0x61 && byte <= 0x7a)
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    private func matches(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ text: String) -> Bool {
        var position = index
        for byte in text.utf8 {
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

extension ArraySlice<UInt8> {
    func hasBytePrefix(_ prefix: [UInt8]) -> Bool {
        guard count >= prefix.count else { return false }
        var index = startIndex
        for byte in prefix {
            if self[index] != byte { return false }
            index += 1
        }
        return true
    }

    func hasByteSuffix(_ suffix: [UInt8]) -> Bool {
        guard count >= suffix.count else { return false }
        var index = endIndex - suffix.count
        for byte in suffix {
            if self[index] != byte { return false }
            index += 1
        }
        return true
    }
}
