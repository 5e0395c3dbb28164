import Foundation
import Literate

/// Symbol graphs, in SymbolKit's format, for the declarations ``AppleOnlyDeclarations`` read:
/// DocC merges them with the graph the compiler wrote for Linux, so that the Apple-only API has
/// pages like the rest (`documentation/li2sdk/li2pastebutton`), marked with its iOS
/// availability.
///
/// - The module's own declarations go into `MODULE-ios.symbols.json`, a graph of the same module
///   for the iOS platform: DocC unifies a module's graphs across platforms.
/// - Members of an extension of an Apple framework's type (`View.li2DeepLink(using:)`) go into
///   `MODULE@SwiftUI.symbols.json`, with an extension block, as the compiler writes extensions
///   with `-emit-extension-block-symbols`; DocC lists them under "Extended Modules".
/// - A declaration the Linux graph already has (one declared in both branches of an `#if`) is
///   left to it.
///
/// Identifiers are this book's (`workbook:Li2SDK:Li2PasteButton`): no compiler mangled them, and
/// DocC needs them only to be unique and stable.
package enum AppleSymbolGraph {
    package struct Output: Sendable {
        /// File name → contents, for `docc convert --additional-symbol-graph-dir`.
        package var files: [String: Data]
        /// Declarations whose enclosing type the reference cannot find.
        package var problems: [Diagnostic]
    }

    /// `known` maps the Linux graph's path components to its identifiers.
    package static func make(
        module: String, found: AppleOnlyDeclarations.Found, known: [[String]: String]
    ) -> Output {
        let declarations = found.declarations.filter { known[$0.path] == nil }
        var ownIdentifiers: [[String]: String] = [:]
        for declaration in declarations where declaration.extended == nil {
            ownIdentifiers[declaration.path] = identifier(module: module, path: declaration.path)
        }
        func identifierOfType(_ path: [String]) -> String? { known[path] ?? ownIdentifiers[path] }

        var main = Graph(module: module)
        var extensions: [String: Graph] = [:]
        var problems: [Diagnostic] = []
        var blocks: Set<String> = []

        for declaration in declarations {
            let id = identifier(module: module, path: declaration.path)
            var symbol = Symbol(declaration, id: id, module: module)
            if let extended = declaration.extended {
                let blockID = "workbook:\(module):extension:\(extended.module).\(extended.name)"
                let swiftExtension = Symbol.SwiftExtension(
                    extendedModule: extended.module, typeKind: extended.kind)
                symbol.swiftExtension = swiftExtension
                var graph = extensions[extended.module] ?? Graph(module: module)
                if blocks.insert(blockID).inserted {
                    graph.symbols.append(Symbol(block: extended, id: blockID, extension: swiftExtension))
                    graph.relationships.append(
                        Relationship(
                            kind: "extensionTo", source: blockID,
                            target: external(extended.module, extended.name),
                            targetFallback: "\(extended.module).\(extended.name)"))
                }
                graph.symbols.append(symbol)
                graph.relationships.append(
                    Relationship(
                        kind: "memberOf", source: id, target: blockID,
                        targetFallback: "\(extended.module).\(extended.name)"))
                extensions[extended.module] = graph
                continue
            }
            if declaration.path.count > 1 {
                let parent = Array(declaration.path.dropLast())
                guard let parentID = identifierOfType(parent) else {
                    problems.append(
                        Diagnostic(
                            .warning,
                            text:
                                "'\(declaration.path.joined(separator: "."))' is in an Apple-only block, in "
                                + "'\(parent.joined(separator: "."))', which is neither this module's nor a type "
                                + "the reference knows; it gets no page",
                            at: declaration.place))
                    continue
                }
                main.relationships.append(Relationship(kind: "memberOf", source: id, target: parentID))
            }
            main.symbols.append(symbol)
            for name in declaration.inheritance {
                main.relationships.append(relationship(from: id, to: name, module: module, known: known))
            }
        }
        for conformance in found.conformances {
            guard let typeID = identifierOfType(conformance.typePath) else {
                let name = conformance.typePath.joined(separator: ".")
                problems.append(
                    Diagnostic(
                        .warning,
                        text: "an Apple-only extension adds conformances to '\(name)', which the reference "
                            + "cannot find in this module",
                        at: nil))
                continue
            }
            for name in conformance.protocols {
                main.relationships.append(relationship(from: typeID, to: name, module: module, known: known))
            }
        }

        var files: [String: Data] = [:]
        if !main.symbols.isEmpty || !main.relationships.isEmpty {
            files["\(module)-ios.symbols.json"] = main.encoded()
        }
        for (extendedModule, graph) in extensions {
            files["\(module)@\(extendedModule).symbols.json"] = graph.encoded()
        }
        return Output(files: files, problems: problems)
    }

    static func identifier(module: String, path: [String]) -> String {
        "workbook:\(module):" + path.joined(separator: ".")
    }

    static func external(_ module: String, _ name: String) -> String { "workbook:external:\(module).\(name)" }

    /// What `type: Name` says: it inherits from a class, or conforms to a protocol.
    private static func relationship(
        from source: String, to name: String, module: String, known: [[String]: String]
    )
        -> Relationship
    {
        if let own = known[[name]] {
            return Relationship(kind: "conformsTo", source: source, target: own)
        }
        if let apple = AppleOnlyDeclarations.appleTypes[name] {
            return Relationship(
                kind: apple.kind == "swift.class" ? "inheritsFrom" : "conformsTo", source: source,
                target: external(apple.module, name), targetFallback: "\(apple.module).\(name)")
        }
        return Relationship(
            kind: "conformsTo", source: source, target: external("Swift", name), targetFallback: name)
    }
}

// MARK: - SymbolKit's format, the parts written

private struct Graph: Encodable {
    struct Metadata: Encodable {
        struct Version: Encodable {
            var major = 0
            var minor = 6
            var patch = 0
        }
        var formatVersion = Version()
        var generator = "workbook reference (Apple-only declarations)"
    }
    struct Module: Encodable {
        struct Platform: Encodable {
            struct OperatingSystem: Encodable { var name = "ios" }
            var operatingSystem = OperatingSystem()
        }
        var name: String
        var platform = Platform()
    }

    var metadata = Metadata()
    var module: Module
    var symbols: [Symbol] = []
    var relationships: [Relationship] = []

    init(module: String) {
        self.module = Module(name: module)
    }

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        // Every field is a string, a number or an array of them: encoding cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }
}

private struct Relationship: Encodable {
    var kind: String
    var source: String
    var target: String
    var targetFallback: String?
}

private struct Symbol: Encodable {
    struct Kind: Encodable {
        var identifier: String
        var displayName: String
    }
    struct Identifier: Encodable {
        var precise: String
        var interfaceLanguage = "swift"
    }
    struct Fragment: Encodable {
        var kind: String
        var spelling: String
    }
    struct Names: Encodable {
        var title: String
        var navigator: [Fragment]
        var subHeading: [Fragment]
    }
    struct Position: Encodable {
        var line: Int
        var character: Int
    }
    struct Location: Encodable {
        var uri: String
        var position: Position
    }
    struct DocComment: Encodable {
        struct Line: Encodable {
            struct Range: Encodable {
                var start: Position
                var end: Position
            }
            var range: Range
            var text: String
        }
        var uri: String
        var module: String
        var lines: [Line]
    }
    struct Availability: Encodable {
        struct Version: Encodable {
            var major: Int
            var minor: Int
        }
        var domain: String
        var introduced: Version
    }
    struct SwiftExtension: Encodable {
        var extendedModule: String
        var typeKind: String
    }

    var kind: Kind
    var identifier: Identifier
    var pathComponents: [String]
    var names: Names
    var docComment: DocComment?
    var declarationFragments: [Fragment]
    var accessLevel = "public"
    var location: Location
    var availability: [Availability]?
    var swiftExtension: SwiftExtension?

    init(_ declaration: AppleOnlyDeclarations.Declaration, id: String, module: String) {
        let uri = "file://" + declaration.place.path
        kind = Self.kind(of: declaration)
        identifier = Identifier(precise: id)
        pathComponents = declaration.path
        let fragments = Self.fragments(declaration.declaration, name: declaration.name)
        names = Names(
            title: declaration.path.last ?? declaration.name,
            navigator: [Fragment(kind: "identifier", spelling: declaration.name)], subHeading: fragments)
        declarationFragments = fragments
        location = Location(
            uri: uri,
            position: Position(line: declaration.place.line - 1, character: declaration.place.column - 1))
        if !declaration.documentation.isEmpty {
            docComment = DocComment(
                uri: uri, module: module,
                lines: declaration.documentation.map { line in
                    let start = Position(line: line.place.line - 1, character: line.place.column - 1)
                    let end = Position(line: start.line, character: start.character + line.text.count)
                    return DocComment.Line(range: .init(start: start, end: end), text: line.text)
                })
        }
        availability =
            declaration.availability.isEmpty
            ? nil
            : declaration.availability.map {
                Availability(domain: $0.domain, introduced: .init(major: $0.major, minor: $0.minor))
            }
    }

    /// An extension block: the extended type, as it appears under "Extended Modules".
    init(block extended: AppleOnlyDeclarations.ExtendedType, id: String, extension: SwiftExtension) {
        kind = Kind(identifier: "swift.extension", displayName: "Extension")
        identifier = Identifier(precise: id)
        pathComponents = [extended.name]
        let fragments = [
            Fragment(kind: "keyword", spelling: "extension"), Fragment(kind: "text", spelling: " "),
            Fragment(kind: "typeIdentifier", spelling: extended.name),
        ]
        names = Names(
            title: extended.name, navigator: [Fragment(kind: "identifier", spelling: extended.name)],
            subHeading: fragments)
        declarationFragments = fragments
        location = Location(
            uri: "file://" + extended.place.path,
            position: Position(line: extended.place.line - 1, character: extended.place.column - 1))
        swiftExtension = `extension`
    }

    static func kind(of declaration: AppleOnlyDeclarations.Declaration) -> Kind {
        let member = declaration.path.count > 1
        switch declaration.keyword {
        case "struct": return Kind(identifier: "swift.struct", displayName: "Structure")
        case "class": return Kind(identifier: "swift.class", displayName: "Class")
        case "actor": return Kind(identifier: "swift.class", displayName: "Actor")
        case "enum": return Kind(identifier: "swift.enum", displayName: "Enumeration")
        case "protocol": return Kind(identifier: "swift.protocol", displayName: "Protocol")
        case "init": return Kind(identifier: "swift.init", displayName: "Initializer")
        case "case": return Kind(identifier: "swift.enum.case", displayName: "Case")
        case "typealias": return Kind(identifier: "swift.typealias", displayName: "Type Alias")
        case "subscript": return Kind(identifier: "swift.subscript", displayName: "Instance Subscript")
        case "func":
            if !member { return Kind(identifier: "swift.func", displayName: "Function") }
            return declaration.isStatic
                ? Kind(identifier: "swift.type.method", displayName: "Type Method")
                : Kind(identifier: "swift.method", displayName: "Instance Method")
        default:
            if !member { return Kind(identifier: "swift.var", displayName: "Global Variable") }
            return declaration.isStatic
                ? Kind(identifier: "swift.type.property", displayName: "Type Property")
                : Kind(identifier: "swift.property", displayName: "Instance Property")
        }
    }

    static let keywords: Set<String> = [
        "struct", "class", "enum", "protocol", "actor", "extension", "func", "init", "var", "let",
        "typealias", "case", "subscript", "static", "final", "override", "required", "convenience",
        "mutating", "nonmutating", "some", "any", "inout", "throws", "rethrows", "async", "where", "get",
        "set", "private", "fileprivate", "internal", "weak", "unowned", "lazy", "nonisolated", "indirect",
    ]

    /// The declaration as DocC's fragments: keywords, attributes, the declared name, and text.
    static func fragments(_ declaration: String, name: String) -> [Fragment] {
        var fragments: [Fragment] = []
        var namedOnce = false
        var text = ""
        func flush() {
            if !text.isEmpty { fragments.append(Fragment(kind: "text", spelling: text)) }
            text = ""
        }
        var rest = Substring(declaration)
        while let first = rest.first {
            if first == "@" || first.isLetter || first == "_" {
                let word = String(rest.prefix { $0 == "@" || $0.isLetter || $0.isNumber || $0 == "_" })
                rest = rest.dropFirst(word.count)
                if word.hasPrefix("@") {
                    flush()
                    fragments.append(Fragment(kind: "attribute", spelling: word))
                } else if keywords.contains(word) {
                    flush()
                    fragments.append(Fragment(kind: "keyword", spelling: word))
                } else if word == name && !namedOnce {
                    flush()
                    namedOnce = true
                    fragments.append(Fragment(kind: "identifier", spelling: word))
                } else if word.first?.isUppercase == true {
                    flush()
                    fragments.append(Fragment(kind: "typeIdentifier", spelling: word))
                } else {
                    text += word
                }
            } else {
                text.append(first)
                rest = rest.dropFirst()
            }
        }
        flush()
        return fragments
    }
}
