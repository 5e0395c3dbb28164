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

    /// Feeds one line of generated Swift.
    mutating func consume(_ line: String) {
        let characters = Array(line)
        var index = 0
        var code = ""
        while index < characters.count {
            let character = characters[index]
            if let end = multilineStringEnd {
                if matches(characters, at: index, end) {
                    multilineStringEnd = nil
                    index += end.count
                } else {
                    index += character == "\\" ? 2 : 1
                }
                continue
            }
            if inBlockComment > 0 {
                if matches(characters, at: index, "*/") {
                    inBlockComment -= 1
                    index += 2
                } else if matches(characters, at: index, "/*") {
                    inBlockComment += 1
                    index += 2
                } else {
                    index += 1
                }
                continue
            }
            if matches(characters, at: index, "//") { break }
            if matches(characters, at: index, "/*") {
                inBlockComment += 1
                index += 2
                continue
            }
            if character == "#" || character == "\"" {
                var hashes = 0
                while index + hashes < characters.count, characters[index + hashes] == "#" { hashes += 1 }
                let quoteIndex = index + hashes
                if quoteIndex < characters.count, characters[quoteIndex] == "\"" {
                    let pounds = String(repeating: "#", count: hashes)
                    if matches(characters, at: quoteIndex, "\"\"\"") {
                        multilineStringEnd = "\"\"\"" + pounds
                        index = quoteIndex + 3
                        code += "\"\"\""
                        continue
                    }
                    // A single-line string: skip to its closing quote (plus the same `#`s).
                    var position = quoteIndex + 1
                    while position < characters.count {
                        if hashes == 0, characters[position] == "\\" {
                            position += 2
                            continue
                        }
                        if characters[position] == "\"", matches(characters, at: position + 1, pounds) {
                            position += 1 + hashes
                            break
                        }
                        position += 1
                    }
                    index = position
                    code += "\"\""
                    continue
                }
            }
            switch character {
            case "{":
                let opensSwitch = code.range(of: "switch ") != nil || code.hasPrefix("switch")
                brackets.append(Bracket(character: "{", opensSwitch: opensSwitch))
            case "(", "[":
                brackets.append(Bracket(character: character))
            case "}", ")", "]":
                if !brackets.isEmpty { brackets.removeLast() }
            default:
                break
            }
            code.append(character)
            index += 1
        }
        let trimmed = code.trimmingLeadingSpaces().trimmingTrailingSpaces()
        if !trimmed.isEmpty {
            if let top = brackets.indices.last, brackets[top].opensSwitch,
                trimmed.hasPrefix("case ") || trimmed.hasPrefix("default:") || trimmed.hasPrefix("@unknown")
            {
                brackets[top].sawCase = true
            }
            previousCodeLine = trimmed
        }
    }

    private func matches(_ characters: [Character], at index: Int, _ text: String) -> Bool {
        var position = index
        for character in text {
            guard position < characters.count, characters[position] == character else { return false }
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
