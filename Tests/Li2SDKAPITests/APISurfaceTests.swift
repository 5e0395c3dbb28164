import Foundation
import ProcessRunner
import TestSupport
import Testing

/// The reduction and the comparison on their own, from hand-made input, and the reduction on a
/// real dump of a tiny module (how the digester marks what an app cannot see).
struct APISurfaceTests {
    /// A dump in the digester's shape (json_format_version 8): each child is a declaration with
    /// its types, or a type node (TypeNominal, TypeFunc) without a declKind.
    static let dump = #"""
        {"ABIRoot": {"kind": "Root", "name": "TopLevel", "printedName": "TopLevel", "children": [
          {"kind": "Import", "name": "Foundation", "printedName": "Foundation", "declKind": "Import",
           "moduleName": "Kit"},
          {"kind": "TypeDecl", "name": "Box", "printedName": "Box", "declKind": "Struct", "moduleName": "Kit",
           "children": [
            {"kind": "Var", "name": "label", "printedName": "label", "declKind": "Var", "moduleName": "Kit",
             "children": [{"kind": "TypeNominal", "name": "Optional", "printedName": "Swift.String?"}],
             "accessors": [{"kind": "Accessor", "name": "Get", "printedName": "Get()", "declKind": "Accessor",
               "moduleName": "Kit", "implicit": true}]},
            {"kind": "Function", "name": "open", "printedName": "open(_:)", "declKind": "Func", "moduleName": "Kit",
             "children": [{"kind": "TypeNominal", "name": "Lid", "printedName": "Kit.Box.Lid"},
               {"kind": "TypeNominal", "name": "URL", "printedName": "FoundationEssentials.URL"}]},
            {"kind": "Constructor", "name": "init", "printedName": "init(from:)", "declKind": "Constructor",
             "moduleName": "Kit", "implicit": true,
             "children": [{"kind": "TypeNominal", "name": "Box", "printedName": "Kit.Box"},
               {"kind": "TypeNominal", "name": "Decoder", "printedName": "any Swift.Decoder"}]},
            {"kind": "Function", "name": "seal", "printedName": "seal()", "declKind": "Func", "moduleName": "Kit",
             "isInternal": true, "children": [{"kind": "TypeNominal", "name": "Void", "printedName": "()"}]},
            {"kind": "TypeDecl", "name": "Lid", "printedName": "Lid", "declKind": "Enum", "moduleName": "Kit",
             "children": [{"kind": "Var", "name": "shut", "printedName": "shut", "declKind": "EnumElement",
               "moduleName": "Kit", "children": [{"kind": "TypeFunc", "name": "GenericFunction",
                 "printedName": "(Kit.Box.Lid.Type) -> Kit.Box.Lid"}]}]},
            {"kind": "TypeDecl", "name": "Cache", "printedName": "Cache", "declKind": "Class", "moduleName": "Kit",
             "isInternal": true}
           ]},
          {"kind": "TypeDecl", "name": "Vault", "printedName": "Vault", "declKind": "Struct", "moduleName": "Kit",
           "isInternal": true, "children": [{"kind": "Var", "name": "code", "printedName": "code",
             "declKind": "Var", "moduleName": "Kit",
             "children": [{"kind": "TypeNominal", "name": "Int", "printedName": "Swift.Int"}]}]},
          {"kind": "Function", "name": "debugDump", "printedName": "debugDump()", "declKind": "Func",
           "moduleName": "Kit", "spi_group_names": ["Testing"],
           "children": [{"kind": "TypeNominal", "name": "Void", "printedName": "()"}]},
          {"kind": "TypeDecl", "name": "String", "printedName": "String", "declKind": "Struct", "moduleName": "Swift",
           "children": [{"kind": "Var", "name": "shouted", "printedName": "shouted", "declKind": "Var",
             "moduleName": "Kit", "children": [{"kind": "TypeNominal", "name": "String",
               "printedName": "Swift.String"}]}]},
          {"kind": "TypeAlias", "name": "Labels", "printedName": "Labels", "declKind": "TypeAlias",
           "moduleName": "Kit", "children": [{"kind": "TypeNominal", "name": "Dictionary",
             "printedName": "[Swift.String : Kit.Box]"}]}
        ]}}
        """#

    @Test func theReductionKeepsWhatAnAppSeesWithPathsAndTypesAndWithoutTheModuleName() throws {
        let lines = try APISurface.lines(fromDump: Data(Self.dump.utf8), module: "Kit")
        #expect(
            lines == [
                // Synthesized (implicit) members count: the Li2SDK listing has Codable's.
                "Constructor Box.init(from:) : Box any Swift.Decoder",
                "Enum Box.Lid",
                "EnumElement Box.Lid.shut : (Box.Lid.Type) -> Box.Lid",
                "Func Box.open(_:) : Box.Lid FoundationEssentials.URL",
                // A type's nested types follow ` : `; the package class Cache is not one of them.
                "Struct Box : Lid",
                "TypeAlias Labels : [Swift.String : Box]",
                "Var Box.label : Swift.String?",
            ])
    }

    @Test func aMissingDeclarationIsListedWithTheModulesDeclarationsOfItsKindAndPath() {
        let expected = [
            "Enum Li2",
            "Func Li2.configure(publishableKey:deepLinkDomains:) : () Swift.String [Swift.String]",
            "Struct Li2Config",
            "Var Li2.lastClickId : Swift.String?",
        ]
        let actual = [
            "Enum Li2",
            "Func Li2.configure(_:) : () Li2Configuration",
            "Func Li2.configure(publishableKey:domains:) : () Swift.String [Swift.String]",
            "Var Li2.lastClickId : Swift.String",
            "Var Li2.sdkVersion : Swift.String",
        ]
        let report = APIComparison(expected: expected, actual: actual).report(
            module: "Kit", listing: "the listing")
        #expect(
            report == """
                Kit lacks 3 declarations of the listing (each line must be present as it is; more declarations \
                are allowed):
                missing: Func Li2.configure(publishableKey:deepLinkDomains:) : () Swift.String [Swift.String]
                  different: Func Li2.configure(_:) : () Li2Configuration
                  different: Func Li2.configure(publishableKey:domains:) : () Swift.String [Swift.String]
                missing: Struct Li2Config
                missing: Var Li2.lastClickId : Swift.String?
                  different: Var Li2.lastClickId : Swift.String
                """)
    }

    @Test func extraDeclarationsPass() {
        let comparison = APIComparison(
            expected: ["Enum Li2"], actual: ["Enum Li2", "Func Li2.reset() : ()", "Struct Li2Extra"])
        #expect(comparison == APIComparison(expected: [], actual: []))
        #expect(comparison.report(module: "Kit", listing: "the listing") == nil)
    }

    @Test func theDigesterMarksPackageAndSPIDeclarationsSoTheyDoNotCount() async throws {
        let source = """
            public struct Box {
                public var label: String?
                package var weight: Int = 0
                var secret: Int = 0
                public init() {}
                package func seal() {}
                @_spi(Testing) public func debugDump() {}
            }
            package struct Vault { public var code: Int }
            extension String { public var shouted: String { uppercased() } }
            """
        let lines = try await offPool { try Self.surface(of: source, module: "Kit") }
        #expect(lines == ["Constructor Box.init() : Box", "Struct Box", "Var Box.label : Swift.String?"])
    }

    @Test func withoutADigesterOrABuiltModuleTheTestFailsSayingWhatToRun() throws {
        #expect(throws: APIDump.Failure.noDigester(searched: ["/no/such/folder"])) {
            try APIDump.findDigester(path: "/no/such/folder")
        }
        let modules = APIDump.productsFolder.appendingPathComponent("Modules").path
        #expect(throws: APIDump.Failure.moduleNotBuilt(module: "NoSuchModule", folder: modules)) {
            try APIDump.modulesFolder(holding: "NoSuchModule")
        }
        #expect(
            APIDump.Failure.moduleNotBuilt(module: "Kit", folder: "/b/debug/Modules").description
                == "no Kit.swiftmodule in /b/debug/Modules, the module folder of the build these tests run in: "
                + "build the tests first with ./wb test, or swift build --build-tests --scratch-path .build/test "
                + "-Xswiftc -warnings-as-errors --enable-code-coverage")
    }

    /// Compiles `source` as a module of a package and reduces the digester's dump of it.
    static func surface(of source: String, module: String) throws -> [String] {
        let digester = try APIDump.findDigester()
        let swiftc = URL(fileURLWithPath: digester).deletingLastPathComponent().appendingPathComponent(
            "swiftc")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "api-surface-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("\(module).swift")
        try Data(source.utf8).write(to: file)
        try run(
            swiftc.path,
            [
                "-emit-module", "-parse-as-library", "-module-name", module, "-package-name", "kit",
                "-emit-module-path", folder.appendingPathComponent("\(module).swiftmodule").path, file.path,
            ])
        let dump = folder.appendingPathComponent("api.json")
        try run(digester, ["-dump-sdk", "-module", module, "-I", folder.path, "-o", dump.path])
        return try APISurface.lines(fromDump: Data(contentsOf: dump), module: module)
    }

    struct ToolFailed: Error, CustomStringConvertible {
        var description: String
    }

    static func run(_ executable: String, _ arguments: [String]) throws {
        let result = Subprocess.run(executable, arguments, timeout: 600, stopsOnInterrupt: false)
        guard result.status == 0 else {
            throw ToolFailed(
                description: "\(([executable] + arguments).joined(separator: " ")) failed:\n\(result.output)")
        }
    }
}
