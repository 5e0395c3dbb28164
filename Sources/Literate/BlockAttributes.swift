/// The attributes of a fenced block's info string, in Entangled's syntax or our shorthand.
///
/// Accepted forms:
///
///     ``` {.swift file=Sources/X/Y.swift}      Entangled: the class names the language
///     ``` {.swift #match-path}
///     ```swift {file=Sources/X/Y.swift}        shorthand: the language first
///     ```swift {#match-path check=aasa}
///     ```json                                  a language only: display-only
///
/// Inside the braces: `.lang`, `#chunk-name` and `key=value` (the value may be quoted with `"`).
public struct BlockAttributes: Sendable, Equatable {
    public var language: String?
    public var chunkName: String?
    public var file: String?
    public var checker: String?
    public var canImport: String?
    /// `try=live` on a display-only `http` block: the site adds a panel that sends the request
    /// to the running `workbook serve`. The engine itself ignores it.
    public var tryIt: String?

    public init(
        language: String? = nil, chunkName: String? = nil, file: String? = nil, checker: String? = nil,
        canImport: String? = nil, tryIt: String? = nil
    ) {
        (self.language, self.chunkName, self.file, self.checker, self.canImport, self.tryIt) = (
            language, chunkName, file, checker, canImport, tryIt
        )
    }

    /// The `key=value` attributes the engine knows. Anything else is an error, so a typo such as
    /// `fiel=` cannot silently make a block display-only.
    public static let knownKeys = ["file", "check", "canImport", "try"]

    /// Does the tangler read this block?
    public var isTangled: Bool { chunkName != nil || file != nil }

    /// A problem in an info string, with the 0-based offset into the info string where it lies.
    public struct ParseError: Error, Equatable {
        public var message: LiterateMessage
        public var offset: Int
    }

    /// Parses an info string (as cmark reports it: trimmed).
    public static func parse(_ info: String) -> Result<BlockAttributes, ParseError> {
        var attributes = BlockAttributes()
        // Offsets count UTF-8 bytes, as cmark's columns do.
        let bytes = Array(info.utf8)
        let space = UInt8(ascii: " ")
        let tab = UInt8(ascii: "\t")
        let openBrace = UInt8(ascii: "{")
        let isBlank = { (byte: UInt8) in byte == space || byte == tab }
        var index = 0
        while index < bytes.count, !isBlank(bytes[index]), bytes[index] != openBrace { index += 1 }
        if index > 0 { attributes.language = String(decoding: bytes[0..<index], as: UTF8.self) }
        while index < bytes.count, isBlank(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == openBrace else {
            // No braces: CommonMark says the first word is the language; the rest is free text.
            return .success(attributes)
        }
        let open = index
        guard let close = bytes.lastIndex(of: UInt8(ascii: "}")), close > open else {
            return .failure(ParseError(message: .malformedAttributes(detail: "missing '}'"), offset: open))
        }
        if let extra = bytes[(close + 1)...].firstIndex(where: { !isBlank($0) }) {
            return .failure(
                ParseError(message: .malformedAttributes(detail: "text after '}'"), offset: extra))
        }
        // A handful of tokens at most: a list is cheaper than a set.
        var seen: [String] = []
        var token: [UInt8] = []
        token.reserveCapacity(close - open)
        var position = open + 1
        while position < close {
            if isBlank(bytes[position]) {
                position += 1
                continue
            }
            let tokenStart = position
            token.removeAll(keepingCapacity: true)
            var inQuotes = false
            while position < close, inQuotes || !isBlank(bytes[position]) {
                if bytes[position] == UInt8(ascii: "\"") {
                    inQuotes.toggle()
                } else {
                    token.append(bytes[position])
                }
                position += 1
            }
            if inQuotes {
                return .failure(
                    ParseError(message: .malformedAttributes(detail: "unclosed quote"), offset: tokenStart))
            }
            if let error = attributes.apply(token, seen: &seen) {
                return .failure(ParseError(message: error, offset: tokenStart))
            }
        }
        return .success(attributes)
    }

    private mutating func apply(_ token: [UInt8], seen: inout [String]) -> LiterateMessage? {
        if Self.token(token, startsWith: UInt8(ascii: ".")) {
            let language = String(decoding: token.dropFirst(), as: UTF8.self)
            if language.isEmpty { return .malformedAttributes(detail: "empty class '.'") }
            if self.language != nil, seen.contains(".") || self.language != language {
                return .duplicateAttribute("language")
            }
            if !seen.contains(".") { seen.append(".") }
            self.language = language
            return nil
        }
        if Self.token(token, startsWith: UInt8(ascii: "#")) {
            let name = String(decoding: token.dropFirst(), as: UTF8.self)
            guard ChunkName.isValid(name) else { return .invalidChunkName(name) }
            if chunkName != nil { return .duplicateAttribute("#name") }
            chunkName = name
            return nil
        }
        let token = String(decoding: token, as: UTF8.self)
        guard let equals = token.firstIndex(of: "=") else {
            return .malformedAttributes(
                detail: "expected '.language', '#name' or 'key=value', got '\(token)'")
        }
        let key = String(token[..<equals])
        let value = String(token[token.index(after: equals)...])
        guard Self.knownKeys.contains(key) else { return .unknownAttribute(key: key, known: Self.knownKeys) }
        guard !seen.contains(key) else { return .duplicateAttribute(key) }
        seen.append(key)
        if value.isEmpty { return .malformedAttributes(detail: "'\(key)' needs a value") }
        switch key {
        case "file": file = value
        case "check": checker = value
        case "try":
            guard value == "live" else { return .malformedAttributes(detail: "'try' takes 'live'") }
            tryIt = value
        default: canImport = value
        }
        return nil
    }
}

extension BlockAttributes {
    /// Does `token` start with the ASCII `byte` as a character of its own, as `hasPrefix` on the
    /// token's text sees it? Only a non-ASCII scalar after it (a combining mark) could join it.
    fileprivate static func token(_ token: [UInt8], startsWith byte: UInt8) -> Bool {
        guard token.first == byte else { return false }
        if token.count == 1 || token[1] < 0x80 { return true }
        return String(decoding: token, as: UTF8.self).hasPrefix(String(UnicodeScalar(byte)))
    }
}

/// Rules for chunk names: a letter first, then letters, digits, `-`, `_` and `.`.
public enum ChunkName {
    /// Checks the UTF-8 bytes: every allowed character is ASCII, so any other byte fails.
    public static func isValid(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            guard let first = bytes.first, isLetter(first) else { return false }
            for byte in bytes.dropFirst() {
                guard
                    isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                else { return false }
            }
            return true
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
