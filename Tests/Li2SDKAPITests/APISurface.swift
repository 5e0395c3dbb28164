import Foundation

/// A module's public API as one line per declaration, reduced from the JSON that
/// `swift-api-digester -dump-sdk` writes, the way the Li2SDK 0.2.0 listing was made.
///
/// A line is the declaration kind, a space, the path of names of its parents and its printed name
/// joined with `.`, and, when it has typed children, ` : ` and their printed types joined with
/// spaces. The module's name and a `.` are removed wherever they appear.
///
/// ```swift
/// let lines = try APISurface.lines(fromDump: data, module: "Li2SDK")
/// // ["Func Li2.configure(publishableKey:deepLinkDomains:...) : () Swift.String [Swift.String] ...", ...]
/// ```
enum APISurface {
    /// One node of the dump: a declaration, a type, an import or the root.
    struct Node: Decodable, Equatable {
        var kind: String?
        var name: String?
        var printedName: String?
        var declKind: String?
        var moduleName: String?
        /// Set on `package` declarations, which the dump holds; internal ones it leaves out.
        var isInternal: Bool?
        /// Set on `@_spi` declarations: callable only with `@_spi(NAME) import`.
        var spiGroupNames: [String]?
        var children: [Node]?

        enum CodingKeys: String, CodingKey {
            case kind, name, printedName, declKind, moduleName, isInternal, children
            case spiGroupNames = "spi_group_names"
        }
    }

    struct Dump: Decodable {
        var abiRoot: Node

        enum CodingKeys: String, CodingKey { case abiRoot = "ABIRoot" }
    }

    /// The sorted lines of `module`'s public declarations in a digester dump.
    static func lines(fromDump data: Data, module: String) throws -> [String] {
        let dump = try JSONDecoder().decode(Dump.self, from: data)
        var lines: Set<String> = []
        collect(dump.abiRoot, path: [], module: module, into: &lines)
        return lines.sorted()
    }

    /// Whether an app that imports the module sees `node` (`package` and `@_spi` declarations
    /// are in the dump too, marked).
    static func isPublic(_ node: Node) -> Bool {
        node.isInternal != true && (node.spiGroupNames ?? []).isEmpty
    }

    private static func collect(_ node: Node, path: [String], module: String, into lines: inout Set<String>) {
        for child in node.children ?? [] {
            // Type nodes (kind TypeNominal, TypeFunc, TypeNameAlias) carry no declKind. Synthesized
            // members (marked "implicit") stay: the listing has them, Codable's init(from:) among
            // them. Declarations of other modules (extensions of String, say) are left out whole.
            guard let declKind = child.declKind, !declKind.isEmpty, declKind != "Import",
                child.moduleName == module, isPublic(child)
            else { continue }
            let name = child.printedName ?? ""
            let types = (child.children ?? []).filter { ($0.kind ?? "").hasPrefix("Type") && isPublic($0) }
            let signature =
                types.isEmpty
                ? name : name + " : " + types.map { $0.printedName ?? "" }.joined(separator: " ")
            let line = (path + [signature]).joined(separator: ".").replacingOccurrences(
                of: module + ".", with: "")
            if declKind != "Accessor" { lines.insert(declKind + " " + line) }
            collect(child, path: path + [child.name ?? ""], module: module, into: &lines)
        }
    }
}
