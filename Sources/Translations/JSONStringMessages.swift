import Foundation

/// The translatable strings of a JSON file written one `"key": "value"` pair per line (as the
/// theme's `glossary.json` and `words.json` are), each at its line.
enum JSONStringMessages {
    /// The values of `keys` (every string value when nil), in file order. A value that is not a
    /// valid JSON string is an error at its line; a file that is not JSON is one at line 1.
    static func extract(_ text: String, keys: Set<String>?, path: String) throws(TranslationError)
        -> [SourceMessage]
    {
        guard (try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil else {
            throw TranslationError("\(path):1: error: the file is not valid JSON")
        }
        var found: [SourceMessage] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let pair = keyValue(line) else { continue }
            guard keys?.contains(pair.key) ?? true else { continue }
            guard let value = decode(pair.literal) else {
                throw TranslationError(
                    "\(path):\(index + 1): error: the value of \"\(pair.key)\" is not a JSON string")
            }
            if MarkdownMessages.hasWords(value) { found.append(SourceMessage(text: value, line: index + 1)) }
        }
        return found
    }

    /// `"key": "literal"` with an optional trailing comma, the literal still quoted.
    private static func keyValue(_ line: Substring) -> (key: String, literal: String)? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("\""), let colon = trimmed.range(of: "\": \"") else { return nil }
        let key = String(trimmed[trimmed.index(after: trimmed.startIndex)..<colon.lowerBound])
        var literal = trimmed[trimmed.index(before: colon.upperBound)...]
        if literal.hasSuffix(",") { literal = literal.dropLast() }
        guard literal.count >= 2, literal.hasSuffix("\"") else { return nil }
        return (key, String(literal))
    }

    private static func decode(_ literal: String) -> String? {
        (try? JSONSerialization.jsonObject(with: Data("[\(literal)]".utf8)) as? [String])?.first
    }
}
