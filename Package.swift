// swift-tools-version: 6.0
//
// Deep Link Workbook: a literate reference implementation and teaching workbook on mobile deep
// linking. The engine (Literate) is hand-written; the subject modules are tangled from chapters/.
import PackageDescription

let package = Package(
    name: "DeepLinkWorkbook",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "workbook", targets: ["workbook"]),
        // Links only the engine: re-tangles the book even when tangled modules do not compile.
        .executable(name: "literate", targets: ["literate"]),
        .library(name: "DeepLinkCore", targets: ["DeepLinkCore"]),
    ],
    targets: [
        // C libraries from Debian, through pkg-config.
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]
        ),
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // What Swift cannot call in libmicrohttpd: the variadic start and info functions.
        .target(name: "CMicroHTTPDShim", dependencies: ["CMicroHTTPD"]),

        // The literate engine: chunks, tangle, snippet checks, diagnostics. Knows Markdown, never
        // deep links.
        .target(name: "Literate", dependencies: ["CCmark"]),
        // A small argument parser and help formatter shared by both executables.
        .target(name: "CommandLineKit"),
        // The engine's commands (tangle, check, lint), reused by `literate` and `workbook`.
        .target(name: "LiterateCLI", dependencies: ["Literate", "CommandLineKit"]),
        .executableTarget(name: "literate", dependencies: ["LiterateCLI"]),

        // Tangled from chapters/: do not edit the generated files by hand.
        .target(name: "DeepLinkCore"),

        // The mock server's HTTP shell over libmicrohttpd (hand-written): request and response
        // values, routing, CORS, limits, errors, and the server itself.
        .target(name: "HTTPShell", dependencies: ["CMicroHTTPD", "CMicroHTTPDShim"]),
        // The append-only event log on SQLite with group commit (hand-written).
        .target(name: "EventLog", dependencies: ["CSQLite"]),
        // Appends and acknowledges events until killed: the event log's crash test runs it.
        .executableTarget(name: "EventLogProbe", dependencies: ["EventLog"]),

        // MARK: Server targets (the attribution service and the mock server)

        // MARK: SDK targets (the client SDK and its Apple-only UI)

        .executableTarget(
            name: "workbook",
            dependencies: ["LiterateCLI", "CommandLineKit", "Literate", "DeepLinkCore"]
        ),

        .testTarget(name: "LiterateTests", dependencies: ["Literate"], exclude: ["Fixtures"]),
        .testTarget(name: "DeepLinkCoreTests", dependencies: ["DeepLinkCore"]),
        .testTarget(name: "HTTPShellTests", dependencies: ["HTTPShell", "EventLog", "EventLogProbe"]),
        // MARK: Server test targets

        // MARK: SDK test targets

        // Runs the built executables as a user would; needs them built first.
        .testTarget(
            name: "WorkbookCLITests",
            dependencies: ["workbook", "literate", "HTTPShell"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
