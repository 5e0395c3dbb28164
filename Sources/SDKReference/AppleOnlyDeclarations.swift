import Foundation
import Literate

/// The public declarations a Linux build never compiles: those behind `#if canImport(UIKit)`,
/// `#if canImport(SwiftUI)`, `#if canImport(Combine)` or `#if os(iOS)` (the paste button, the
/// SwiftUI modifier). The compiler parses such code without type-checking it, so no symbol graph
/// made on Linux lists it; this reader takes the declarations from the tangled sources instead,
/// with their doc comments and chapter places, for ``AppleSymbolGraph`` to hand to DocC.
///
/// It reads the declaration forms the book writes (types, extensions, members, one declaration
/// to a line or spread over lines until its parentheses close), not all of Swift: code it does
/// not understand inside an Apple-only block is reported, never skipped in silence.
///
/// ```swift
/// let found = AppleOnlyDeclarations.scan(source, file: "Sources/Li2SDK/UI/Li2PasteButton.swift")
/// found.declarations.map(\.path)   // [["Li2PasteButton"], ["Li2PasteButton", "init(backgroundColor:foregroundColor:onPaste:)"], …]
/// ```
package enum AppleOnlyDeclarations {
    /// One public declaration of an Apple-only block.
    package struct Declaration: Equatable, Sendable {
        /// `struct`, `class`, `enum`, `protocol`, `func`, `init`, `var`, `let`, `case`, …
        package var keyword: String
        package var isStatic: Bool
        /// Its place in the module: the enclosing types' names, then its own title.
        package var path: [String]
        /// The declaration as a reader sees it, on one line, without `public` and without a body.
        package var declaration: String
        /// The declared name as written (`li2DeepLink`, `init`, `Li2PasteButton`).
        package var name: String
        package var documentation: [DocumentationLine]
        /// Where the name is, in the chapter the file is tangled from.
        package var place: SourceLocation
        /// `@available(iOS 16.0, *)` on it or on an enclosing Apple-only type.
        package var availability: [Availability]
        /// Set when the declaration is a member of an extension of another module's type.
        package var extended: ExtendedType?
        /// The names after `:` of a type declaration (what it inherits from or conforms to).
        package var inheritance: [String]
    }

    package struct DocumentationLine: Equatable, Sendable {
        package var text: String
        package var place: SourceLocation
    }

    package struct Availability: Equatable, Sendable {
        package var domain: String
        package var major: Int
        package var minor: Int
    }

    /// The type an extension adds to, and the Apple module it comes from.
    package struct ExtendedType: Equatable, Sendable {
        package var name: String
        package var module: String
        package var kind: String
        /// Where the `extension` keyword is.
        package var place: SourceLocation
    }

    /// A conformance added in an Apple-only block to a type the Linux build has
    /// (`extension Li2DeepLinkResolver: ObservableObject {}`).
    package struct Conformance: Equatable, Sendable {
        package var typePath: [String]
        package var protocols: [String]
    }

    package struct Found: Equatable, Sendable {
        package var declarations: [Declaration] = []
        package var conformances: [Conformance] = []
    }

    /// Modules only Apple platforms have: `#if canImport(M)` with one of these guards code that
    /// Linux parses but never compiles.
    static let appleModules: Set<String> = [
        "UIKit", "SwiftUI", "AppKit", "Combine", "WatchKit", "UniformTypeIdentifiers", "Darwin",
    ]
    static let appleSystems: Set<String> = ["iOS", "macOS", "tvOS", "watchOS", "visionOS"]

    /// Types of Apple's frameworks that Apple-only code extends, inherits from or conforms to:
    /// their module and kind, for the reference's "Extended Modules" and relationships.
    static let appleTypes: [String: (module: String, kind: String)] = [
        "View": ("SwiftUI", "swift.protocol"),
        "ViewModifier": ("SwiftUI", "swift.protocol"),
        "UIViewRepresentable": ("SwiftUI", "swift.protocol"),
        "UIViewControllerRepresentable": ("SwiftUI", "swift.protocol"),
        "ObservableObject": ("Combine", "swift.protocol"),
        "UIView": ("UIKit", "swift.class"),
        "UIViewController": ("UIKit", "swift.class"),
        "UIApplicationDelegate": ("UIKit", "swift.protocol"),
        "UIWindowSceneDelegate": ("UIKit", "swift.protocol"),
    ]

    /// Reads one tangled file. `file` is its path relative to the book, for places outside any
    /// `#sourceLocation`.
    ///
    /// A tangled line may be indented more than its chapter line (a chunk inside `#if` is);
    /// `chapterLine` gives the chapter's text of a place, so that columns are the chapter's.
    package static func scan(
        _ text: String, file: String, chapterLine: (SourceLocation) -> String? = { _ in nil }
    ) -> Found {
        var reader = Reader(lines: CodeLines(text), file: file)
        reader.run()
        var found = reader.found
        for index in found.declarations.indices {
            var declaration = found.declarations[index]
            declaration.place = column(of: declaration.name, at: declaration.place, chapterLine: chapterLine)
            declaration.documentation = declaration.documentation.map { line in
                var line = line
                line.place = column(of: "///", at: line.place, chapterLine: chapterLine, after: true)
                return line
            }
            found.declarations[index] = declaration
        }
        return found
    }

    /// `place` with the column where `text` starts (or ends, with the space after it, when
    /// `after`) in the chapter's line; unchanged when the line is not known or lacks it.
    private static func column(
        of text: String, at place: SourceLocation, chapterLine: (SourceLocation) -> String?,
        after: Bool = false
    ) -> SourceLocation {
        guard let line = chapterLine(place), let range = line.range(of: text) else { return place }
        var place = place
        var end = range.upperBound
        if after, end < line.endIndex, line[end] == " " { end = line.index(after: end) }
        place.column = line.distance(from: line.startIndex, to: after ? end : range.lowerBound) + 1
        return place
    }

    /// Whether a file has an Apple-only block at all (most do not, and are not read further).
    package static func mayHaveAppleOnlyCode(_ text: String) -> Bool {
        appleModules.contains { text.contains("canImport(\($0))") }
            || appleSystems.contains { text.contains("os(\($0))") }
    }

    /// Whether an `#if` or `#elseif` condition holds only on Apple platforms.
    static func isAppleOnly(condition: String) -> Bool {
        let condition = condition.replacingOccurrences(of: " ", with: "")
        guard !condition.contains("!"), !condition.contains("||") else { return false }
        return appleModules.contains { condition.contains("canImport(\($0))") }
            || appleSystems.contains { condition.contains("os(\($0))") }
    }
}

// MARK: - Lines of code

/// A file's lines with comments and string contents blanked out (columns kept), and the text of
/// each `///` line, so that braces and parentheses can be counted without being fooled.
struct CodeLines {
    var code: [String] = []
    /// The text after `///` (one space dropped), for doc-comment lines.
    var documentation: [String?] = []
    /// The column of the doc comment's text, counted from 1.
    var documentationColumn: [Int] = []
    var original: [String] = []

    init(_ text: String) {
        var inBlockComment = false
        var inMultilineString = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let characters = Array(line)
            original.append(String(line))
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if !inBlockComment, !inMultilineString, trimmed.hasPrefix("///") {
                var rest = trimmed.dropFirst(3)
                if rest.first == " " { rest = rest.dropFirst() }
                documentation.append(String(rest))
                documentationColumn.append(characters.count - rest.count + 1)
                code.append("")
                continue
            }
            documentation.append(nil)
            documentationColumn.append(1)
            var kept = ""
            var index = 0
            var inString = false
            while index < characters.count {
                let character = characters[index]
                let next = index + 1 < characters.count ? characters[index + 1] : " "
                if inBlockComment {
                    if character == "*" && next == "/" {
                        inBlockComment = false
                        kept += "  "
                        index += 2
                    } else {
                        kept += " "
                        index += 1
                    }
                } else if inMultilineString {
                    if line[line.index(line.startIndex, offsetBy: index)...].hasPrefix("\"\"\"") {
                        inMultilineString = false
                        kept += "\"\"\""
                        index += 3
                    } else {
                        kept += " "
                        index += 1
                    }
                } else if inString {
                    if character == "\\" {
                        kept += "  "
                        index += 2
                    } else {
                        if character == "\"" { inString = false }
                        kept += character == "\"" ? "\"" : " "
                        index += 1
                    }
                } else if character == "/" && next == "/" {
                    break
                } else if character == "/" && next == "*" {
                    inBlockComment = true
                    kept += "  "
                    index += 2
                } else if line[line.index(line.startIndex, offsetBy: index)...].hasPrefix("\"\"\"") {
                    inMultilineString = true
                    kept += "\"\"\""
                    index += 3
                } else {
                    if character == "\"" { inString = true }
                    kept.append(character)
                    index += 1
                }
            }
            code.append(kept)
        }
    }
}

// MARK: - The reader

extension AppleOnlyDeclarations {
    /// What a pair of braces encloses.
    private enum Scope {
        /// A type's members: its name, and its availability when it is Apple-only itself.
        case type(name: String, availability: [Availability])
        /// An extension's members; `extended` is set for another module's type.
        case `extension`(name: String, extended: ExtendedType?)
        /// A body (a function's, a closure's, an accessor's): nothing declared in it is API.
        case body
    }

    fileprivate struct Reader {
        let lines: CodeLines
        let file: String
        var found = Found()

        /// Where `#sourceLocation` last pointed: the chapter, and the line the next line is.
        private var mapping: (path: String, firstLine: Int, index: Int)?
        /// One entry per open `#if`: whether the branch being read is Apple-only.
        private var conditions: [Bool] = []
        private var scopes: [Scope] = []
        private var pendingDocumentation: [DocumentationLine] = []
        private var pendingAttributes: [String] = []

        init(lines: CodeLines, file: String) {
            self.lines = lines
            self.file = file
        }

        private var isAppleOnly: Bool { conditions.contains(true) }

        /// The place of a column of a line, in the chapter when the line is tangled from one.
        private func place(line index: Int, column: Int) -> SourceLocation {
            guard let mapping else { return SourceLocation(path: file, line: index + 1, column: column) }
            return SourceLocation(
                path: mapping.path, line: mapping.firstLine + index - mapping.index, column: column)
        }

        mutating func run() {
            var index = 0
            while index < lines.code.count {
                index = read(at: index) + 1
            }
        }

        /// Reads the line at `index` (and the lines a declaration spreads over); returns the last
        /// line read.
        private mutating func read(at index: Int) -> Int {
            if let text = lines.documentation[index] {
                pendingDocumentation.append(
                    DocumentationLine(
                        text: text, place: place(line: index, column: lines.documentationColumn[index])))
                return index
            }
            let code = lines.code[index].trimmingCharacters(in: .whitespaces)
            if code.hasPrefix("#") {
                directive(lines.original[index].trimmingCharacters(in: .whitespaces), at: index)
                return index
            }
            if code.isEmpty { return index }
            if case .body? = scopes.last {
                countBraces(in: lines.code[index], opening: nil)
                forgetPending()
                return index
            }
            // A declaration ends where its parentheses close (a parameter list may span lines).
            var last = index
            var text = lines.code[index]
            while AppleOnlyDeclarations.parenthesesDepth(text) > 0 && last + 1 < lines.code.count {
                last += 1
                text += "\n" + lines.code[last]
            }
            let flat = AppleOnlyDeclarations.oneLine(text)
            if AppleOnlyDeclarations.isAttributeOnly(flat) {
                pendingAttributes.append(flat)
                return last
            }
            guard let parsed = AppleOnlyDeclarations.parse(flat) else {
                for line in index...last { countBraces(in: lines.code[line], opening: nil) }
                forgetPending()
                return last
            }
            let scope = record(parsed, line: index)
            for line in index...last { countBraces(in: lines.code[line], opening: scope) }
            forgetPending()
            return last
        }

        private mutating func forgetPending() {
            pendingDocumentation = []
            pendingAttributes = []
        }

        private mutating func directive(_ code: String, at index: Int) {
            if code.hasPrefix("#sourceLocation") {
                if let file = AppleOnlyDeclarations.quoted(after: "file:", in: code),
                    let line = AppleOnlyDeclarations.number(after: "line:", in: code)
                {
                    mapping = (file, line, index + 1)
                } else {
                    mapping = nil
                }
            } else if code.hasPrefix("#if ") || code.hasPrefix("#if(") {
                conditions.append(AppleOnlyDeclarations.isAppleOnly(condition: String(code.dropFirst(3))))
            } else if code.hasPrefix("#elseif") {
                if !conditions.isEmpty {
                    conditions[conditions.count - 1] = AppleOnlyDeclarations.isAppleOnly(
                        condition: String(code.dropFirst(7)))
                }
            } else if code.hasPrefix("#else") {
                if !conditions.isEmpty { conditions[conditions.count - 1] = false }
            } else if code.hasPrefix("#endif") {
                _ = conditions.popLast()
            }
        }

        /// Follows the braces of a line; the first `{` opens `opening` when the line declares
        /// something with a body, every other `{` a body.
        private mutating func countBraces(in code: String, opening: Scope?) {
            var opening = opening
            for character in code {
                if character == "{" {
                    scopes.append(opening ?? .body)
                    opening = nil
                } else if character == "}" {
                    _ = scopes.popLast()
                }
            }
        }

        /// Keeps a public Apple-only declaration; returns the scope its braces open.
        private mutating func record(_ parsed: Parsed, line index: Int) -> Scope {
            // The name's column: its first appearance after the keyword.
            let original = lines.original[index]
            let afterKeyword =
                original.range(of: parsed.keyword + " ")?.upperBound ?? original.range(of: parsed.keyword)?
                .upperBound
                ?? original.startIndex
            let nameStart =
                original.range(of: parsed.name, range: afterKeyword..<original.endIndex)?.lowerBound
                ?? original.range(of: parsed.name)?.lowerBound ?? original.startIndex
            let column = original.distance(from: original.startIndex, to: nameStart) + 1
            let here = place(line: index, column: column)
            let typePath = scopes.compactMap { scope -> String? in
                switch scope {
                case .type(let name, _), .extension(let name, _): name
                case .body: nil
                }
            }
            let extended = scopes.lazy.compactMap { scope -> ExtendedType? in
                if case .extension(_, let extended?) = scope { return extended }
                return nil
            }.first
            let inherited = scopes.reversed().lazy.compactMap { scope -> [Availability]? in
                if case .type(_, let availability) = scope, !availability.isEmpty { return availability }
                return nil
            }.first
            let availability =
                pendingAttributes.compactMap(AppleOnlyDeclarations.availability)
                + parsed.attributes.compactMap(
                    AppleOnlyDeclarations.availability)

            switch parsed.keyword {
            case "extension":
                if isAppleOnly, !parsed.inheritance.isEmpty, typePath.isEmpty {
                    found.conformances.append(
                        Conformance(typePath: [parsed.name], protocols: parsed.inheritance))
                }
                var outside: ExtendedType?
                if isAppleOnly, typePath.isEmpty, let known = AppleOnlyDeclarations.appleTypes[parsed.name] {
                    outside = ExtendedType(
                        name: parsed.name, module: known.module, kind: known.kind, place: here)
                }
                return .extension(name: parsed.name, extended: outside)
            case "struct", "class", "enum", "protocol", "actor":
                let ownAvailability = availability.isEmpty ? (inherited ?? []) : availability
                if isAppleOnly, parsed.isPublic {
                    found.declarations.append(
                        Declaration(
                            keyword: parsed.keyword, isStatic: false, path: typePath + [parsed.name],
                            declaration: parsed.declaration, name: parsed.name,
                            documentation: pendingDocumentation, place: here, availability: ownAvailability,
                            extended: extended, inheritance: parsed.inheritance))
                }
                return .type(name: parsed.name, availability: isAppleOnly ? ownAvailability : [])
            default:
                if isAppleOnly, parsed.isPublic {
                    found.declarations.append(
                        Declaration(
                            keyword: parsed.keyword, isStatic: parsed.isStatic,
                            path: typePath + [parsed.title],
                            declaration: parsed.declaration, name: parsed.name,
                            documentation: pendingDocumentation,
                            place: here,
                            availability: availability.isEmpty ? (inherited ?? []) : availability,
                            extended: extended, inheritance: []))
                }
                return .body
            }
        }
    }
}

// MARK: - Parsing one declaration

extension AppleOnlyDeclarations {
    fileprivate struct Parsed {
        var keyword: String
        var name: String
        /// `name(label:label:)` for functions and initializers, the name otherwise.
        var title: String
        var declaration: String
        var attributes: [String]
        var isPublic: Bool
        var isStatic: Bool
        var inheritance: [String]
    }

    static let declarationKeywords: Set<String> = [
        "struct", "class", "enum", "protocol", "actor", "extension", "func", "init", "var", "let",
        "typealias", "case", "subscript",
    ]
    static let modifiers: Set<String> = [
        "public", "open", "internal", "fileprivate", "private", "static", "final", "override", "required",
        "convenience", "mutating", "nonmutating", "lazy", "weak", "unowned", "dynamic", "nonisolated",
        "indirect", "class",
    ]

    /// Reads `[attributes] [modifiers] keyword name …`; nil when the line is not a declaration.
    fileprivate static func parse(_ text: String) -> Parsed? {
        var rest = Substring(text)
        var attributes: [String] = []
        var words: [String] = []
        func skipSpaces() { rest = rest.drop { $0 == " " } }
        skipSpaces()
        while rest.hasPrefix("@") {
            let attribute = takeAttribute(&rest)
            attributes.append(attribute)
            skipSpaces()
        }
        var keyword: String?
        while let word = takeWord(&rest) {
            // `private(set)` and friends.
            if rest.hasPrefix("(set)") { rest = rest.dropFirst(5) }
            skipSpaces()
            if word == "class", let next = peekWord(rest), !modifiers.contains(next), next != "func",
                next != "var", next != "let", next != "subscript"
            {
                keyword = "class"
                break
            }
            if word == "init" || (declarationKeywords.contains(word) && word != "class") {
                keyword = word
                break
            }
            guard modifiers.contains(word) else { return nil }
            words.append(word)
            while rest.hasPrefix("@") {
                attributes.append(takeAttribute(&rest))
                skipSpaces()
            }
        }
        guard let keyword else { return nil }
        let isPublic = words.contains("public") || words.contains("open")
        let isStatic = words.contains("static") || words.contains("class")

        // The declaration, without its body (and without a stored property's initial value).
        var signature = text.trimmingCharacters(in: .whitespaces)
        if let brace = topLevelIndex(of: "{", in: signature) { signature = String(signature[..<brace]) }
        if keyword == "var" || keyword == "let", let equals = topLevelIndex(of: "=", in: signature) {
            signature = String(signature[..<equals])
        }
        signature = signature.trimmingCharacters(in: .whitespaces)
        for attribute in attributes where signature.hasPrefix(attribute) {
            signature = String(signature.dropFirst(attribute.count)).trimmingCharacters(in: .whitespaces)
        }
        signature = signature.replacingOccurrences(of: "public ", with: "").replacingOccurrences(
            of: "open ", with: "")

        // The name.
        var name: String
        var afterName: Substring
        if keyword == "init" {
            name = "init"
            afterName = rest.drop { $0 == "?" || $0 == "!" }
        } else if keyword == "subscript" {
            name = "subscript"
            afterName = rest
        } else {
            guard let word = takeWord(&rest) else { return nil }
            name = word
            afterName = rest
        }
        var title = name
        var inheritance: [String] = []
        switch keyword {
        case "func", "init", "subscript":
            var parameters = afterName.drop { $0 == " " }
            if parameters.hasPrefix("<") {
                parameters = parameters.drop { $0 != ">" }.dropFirst()
            }
            if parameters.hasPrefix("(") {
                title = name + "(" + labels(Self.parenthesized(parameters)).map { $0 + ":" }.joined() + ")"
            }
        case "case":
            if afterName.hasPrefix("(") {
                title = name + "(" + labels(Self.parenthesized(afterName)).map { $0 + ":" }.joined() + ")"
            }
        case "struct", "class", "enum", "protocol", "actor", "extension":
            var clause = afterName.drop { $0 == " " }
            if clause.hasPrefix("<") { clause = clause.drop { $0 != ">" }.dropFirst() }
            clause = clause.drop { $0 == " " }
            if clause.hasPrefix(":") {
                let list = clause.dropFirst().prefix { $0 != "{" && $0 != "<" }
                let beforeWhere = list.components(separatedBy: " where ").first ?? ""
                inheritance = beforeWhere.split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }.filter { !$0.isEmpty }
            }
        default:
            break
        }
        return Parsed(
            keyword: keyword, name: name, title: title, declaration: signature, attributes: attributes,
            isPublic: isPublic, isStatic: isStatic, inheritance: inheritance)
    }

    /// The external labels of a parameter list's parameters (`_` when there is none).
    static func labels(_ list: String) -> [String] {
        splitTopLevel(list, at: ",").compactMap { parameter in
            let trimmed = parameter.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return nil }
            let beforeColon = trimmed.split(separator: ":", maxSplits: 1).first.map(String.init) ?? trimmed
            return beforeColon.split(separator: " ").first.map(String.init) ?? "_"
        }
    }

    /// What a `(` at the start of `text` encloses, up to its matching `)`.
    static func parenthesized(_ text: Substring) -> String {
        var depth = 0
        var inside = ""
        for character in text {
            if character == "(" {
                depth += 1
                if depth == 1 { continue }
            } else if character == ")" {
                depth -= 1
                if depth == 0 { break }
            }
            inside.append(character)
        }
        return inside
    }

    /// `text` split at `separator` where no bracket of any kind is open.
    static func splitTopLevel(_ text: String, at separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            if "([<".contains(character) { depth += 1 }
            if ")]>".contains(character) { depth -= 1 }
            if character == separator && depth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }

    /// The first `character` outside any parentheses or brackets.
    static func topLevelIndex(of character: Character, in text: String) -> String.Index? {
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            let current = text[index]
            if current == "(" || current == "[" { depth += 1 }
            if current == ")" || current == "]" { depth -= 1 }
            if current == character && depth == 0 {
                // `->` and `==` are not the `=` of an initial value.
                if character == "=" {
                    let next = text.index(after: index)
                    let previous = index > text.startIndex ? text[text.index(before: index)] : " "
                    if (next < text.endIndex && text[next] == "=") || "=!<>-".contains(previous) {
                        index = text.index(after: index)
                        continue
                    }
                }
                return index
            }
            index = text.index(after: index)
        }
        return nil
    }

    static func parenthesesDepth(_ text: String) -> Int {
        text.reduce(0) { depth, character in
            character == "(" ? depth + 1 : character == ")" ? depth - 1 : depth
        }
    }

    /// A declaration spread over lines, on one: `init(\n  a: A,\n  b: B\n)` is `init(a: A, b: B)`.
    static func oneLine(_ text: String) -> String {
        var joined = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        for (from, to) in [("( ", "("), (" )", ")"), (", )", ")"), (",)", ")")] {
            joined = joined.replacingOccurrences(of: from, with: to)
        }
        return joined
    }

    static func isAttributeOnly(_ text: String) -> Bool {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        guard rest.hasPrefix("@") else { return false }
        while rest.hasPrefix("@") {
            _ = takeAttribute(&rest)
            rest = rest.drop { $0 == " " }
        }
        return rest.isEmpty
    }

    /// `@name` or `@name(arguments)` from the front of `text`.
    static func takeAttribute(_ text: inout Substring) -> String {
        var attribute = String(text.prefix { $0 == "@" || $0.isLetter || $0.isNumber || $0 == "_" })
        text = text.dropFirst(attribute.count)
        if text.hasPrefix("(") {
            let arguments = "(" + parenthesized(text) + ")"
            attribute += arguments
            text = text.dropFirst(arguments.count)
        }
        return attribute
    }

    static func takeWord(_ text: inout Substring) -> String? {
        text = text.drop { $0 == " " }
        let word = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "`" }
        guard !word.isEmpty else { return nil }
        text = text.dropFirst(word.count)
        return String(word).replacingOccurrences(of: "`", with: "")
    }

    static func peekWord(_ text: Substring) -> String? {
        var copy = text
        return takeWord(&copy)
    }

    /// `@available(iOS 16.0, *)` as an availability; nil for any other attribute.
    static func availability(_ attribute: String) -> Availability? {
        guard attribute.hasPrefix("@available(") else { return nil }
        let arguments = attribute.dropFirst("@available(".count).dropLast()
        let first = arguments.split(separator: ",").first?.split(separator: " ") ?? []
        guard first.count == 2, appleSystems.contains(String(first[0])) else { return nil }
        let version = first[1].split(separator: ".").compactMap { Int($0) }
        guard let major = version.first else { return nil }
        return Availability(domain: String(first[0]), major: major, minor: version.dropFirst().first ?? 0)
    }

    static func quoted(after label: String, in text: String) -> String? {
        guard let start = text.range(of: label + "\"") else { return nil }
        let rest = text[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    static func number(after label: String, in text: String) -> Int? {
        guard let start = text.range(of: label) else { return nil }
        return Int(text[start.upperBound...].prefix { $0.isNumber })
    }
}
