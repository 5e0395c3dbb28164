/// Tracks just enough of Swift's lexical structure, line by line, to know where a
/// `#sourceLocation` directive may stand: between declarations or statements, never inside an
/// expression, a string, a comment, or a `switch` before its first `case`.
struct SwiftLayout {
    private struct Bracket {
        var character: Character
        var opensSwitch = false
        var sawCase = false
    }

    private var brackets: [Bracket] = []
    private var inBlockComment = 0
    /// The closing delimiter of the multi-line string we are in (`"""` plus any `#`s).
    private var multilineStringEnd: String?
    private var previousCodeLine = ""

    /// May a directive stand before `nextLine`?
    func allowsDirective(before nextLine: String) -> Bool {
        guard multilineStringEnd == nil, inBlockComment == 0 else { return false }
        if let top = brackets.last {
            guard top.character == "{" else { return false }
            if top.opensSwitch, !top.sawCase { return false }
        }
        let next = nextLine.trimmingLeadingSpaces()
        if next.hasPrefix(".") || next.hasPrefix("?") || next.hasPrefix("&&") || next.hasPrefix("||")
            || next.hasPrefix("+ ") || next.hasPrefix("- ") || next.hasPrefix("->")
            || next.hasPrefix("where ")
            || next.hasPrefix("else") || next.hasPrefix("catch")
        {
            return false
        }
        let previous = previousCodeLine
        for ending in [",", "=", "(", "[", ".", "&&", "||", "+", "-", "*", "/", "?", "->", "\\"]
        where previous.hasSuffix(ending) && !previous.hasSuffix("//") {
            return false
        }
        if previous.hasPrefix("@"), !previous.contains(" "), !previous.hasSuffix("}") {
            return false  // an attribute on its own line belongs to the next declaration
        }
        if previous.hasPrefix("@"), previous.hasSuffix(")"), !previous.contains(" func "),
            !previous.contains(" var "), !previous.contains(" let ")
        {
            return false  // `@Test("…")` alone on its line
        }
        return true
    }

    /// Feeds one line of generated Swift. Works on UTF-8 bytes: every delimiter it looks for is
    /// ASCII, and this runs for every generated line.
    mutating func consume(_ line: String) {
        var line = line
        line.withUTF8 { consume(bytes: $0) }
    }

    private mutating func consume(bytes: UnsafeBufferPointer<UInt8>) {
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
                brackets.append(Bracket(character: "{", opensSwitch: sawSwitch))
            case UInt8(ascii: "("), UInt8(ascii: "["):
                brackets.append(Bracket(character: byte == UInt8(ascii: "(") ? "(" : "["))
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
        guard codeStart >= 0 else { return }
        let trimmed = String(
            decoding: UnsafeBufferPointer(rebasing: bytes[codeStart...codeEnd]), as: UTF8.self)
        if let top = brackets.indices.last, brackets[top].opensSwitch,
            trimmed.hasPrefix("case ") || trimmed.hasPrefix("default:") || trimmed.hasPrefix("@unknown")
        {
            brackets[top].sawCase = true
        }
        previousCodeLine = trimmed
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
