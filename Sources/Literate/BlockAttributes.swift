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

    public init(
        language: String? = nil, chunkName: String? = nil, file: String? = nil, checker: String? = nil,
        canImport: String? = nil
    ) {
        self.language = language
        self.chunkName = chunkName
        self.file = file
        self.checker = checker
        self.canImport = canImport
    }

    /// The `key=value` attributes the engine knows. Anything else is an error, so a typo such as
    /// `fiel=` cannot silently make a block display-only.
    public static let knownKeys = ["file", "check", "canImport"]

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
        var seen: Set<String> = []
        var position = open + 1
        while position < close {
            if isBlank(bytes[position]) {
                position += 1
                continue
            }
            let tokenStart = position
            var token: [UInt8] = []
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
            if let error = attributes.apply(String(decoding: token, as: UTF8.self), seen: &seen) {
                return .failure(ParseError(message: error, offset: tokenStart))
            }
        }
        return .success(attributes)
    }

    private mutating func apply(_ token: String, seen: inout Set<String>) -> LiterateMessage? {
        if token.hasPrefix(".") {
            let language = String(token.dropFirst())
            if language.isEmpty { return .malformedAttributes(detail: "empty class '.'") }
            if self.language != nil, seen.contains(".") || self.language != language {
                return .duplicateAttribute("language")
            }
            seen.insert(".")
            self.language = language
            return nil
        }
        if token.hasPrefix("#") {
            let name = String(token.dropFirst())
            guard ChunkName.isValid(name) else { return .invalidChunkName(name) }
            if chunkName != nil { return .duplicateAttribute("#name") }
            chunkName = name
            return nil
        }
        guard let equals = token.firstIndex(of: "=") else {
            return .malformedAttributes(
                detail: "expected '.language', '#name' or 'key=value', got '\(token)'")
        }
        let key = String(token[..<equals])
        let value = String(token[token.index(after: equals)...])
        guard Self.knownKeys.contains(key) else { return .unknownAttribute(key: key, known: Self.knownKeys) }
        guard seen.insert(key).inserted else { return .duplicateAttribute(key) }
        if value.isEmpty { return .malformedAttributes(detail: "'\(key)' needs a value") }
        switch key {
        case "file": file = value
        case "check": checker = value
        default: canImport = value
        }
        return nil
    }
}

/// Rules for chunk names: a letter first, then letters, digits, `-`, `_` and `.`.
public enum ChunkName {
    public static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" || $0 == "."
        }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }

}
