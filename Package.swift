// swift-tools-version: 6.0
//
// Deep Link Workbook: a literate reference implementation and teaching workbook on mobile deep
// linking. The engine (Literate) is hand-written; the subject modules are tangled from chapters/.
import PackageDescription

// `workbook serve` weaves the site again on every save of a chapter. Unoptimised Swift does that
// about four times slower, past the 200 ms a save may take to reach the browser, so the engine and
// the site generator are compiled optimised in debug builds too (their debugger view is poorer).
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "DeepLinkWorkbook",
    // iOS 15, as Li2SDK 0.2.0's package: the SDK's Apple-only paste button is marked iOS 16 itself.
    platforms: [.macOS(.v13), .iOS(.v15)],
    products: [
        .executable(name: "workbook", targets: ["workbook"]),
        // Links only the engine: re-tangles the book even when tangled modules do not compile.
        .executable(name: "literate", targets: ["literate"]),
        .library(name: "DeepLinkCore", targets: ["DeepLinkCore"]),
        // The client SDK: a reference implementation of Li2SDK 0.2.0's API (`import Li2SDK`).
        .library(name: "Li2SDK", targets: ["Li2SDK"]),
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

        // RFC 8259 checked strictly, with the line, column and reason of the first problem: for
        // chapter snippets (the engine) and request bodies (the server). Imports no C module.
        .target(name: "StrictJSON", swiftSettings: optimisedInDebug),
        // The literate engine: chunks, tangle, snippet checks, diagnostics. Knows Markdown, never
        // deep links.
        .target(name: "Literate", dependencies: ["CCmark", "StrictJSON"], swiftSettings: optimisedInDebug),
        // A small argument parser and help formatter shared by both executables.
        .target(name: "CommandLineKit"),
        // The engine's commands (tangle, check, lint), reused by `literate` and `workbook`.
        .target(name: "LiterateCLI", dependencies: ["Literate", "CommandLineKit"]),
        .executableTarget(name: "literate", dependencies: ["LiterateCLI", "CommandLineKit"]),
        // The site generator: weaves the book into static HTML (hand-written; knows Markdown and
        // chunks, never deep links).
        .target(name: "Weave", dependencies: ["Literate"], swiftSettings: optimisedInDebug),

        // Tangled from chapters/: do not edit the generated files by hand.
        .target(name: "DeepLinkCore"),

        // The mock server's HTTP shell over libmicrohttpd (hand-written): request and response
        // values, routing, CORS, limits, errors, and the server itself.
        .target(name: "HTTPShell", dependencies: ["CMicroHTTPD", "CMicroHTTPDShim", "StrictJSON"]),
        // The append-only event log on SQLite with group commit (hand-written).
        .target(name: "EventLog", dependencies: ["CSQLite"]),
        // Appends and acknowledges events until killed: the event log's crash test runs it.
        .executableTarget(name: "EventLogProbe", dependencies: ["EventLog"]),

        // MARK: Server targets (the attribution service and the mock server)
        // Tangled from chapters/08: the service's decisions, pure (no HTTP, no C).
        .target(name: "AttributionService", dependencies: ["DeepLinkCore"]),
        // The mock server (hand-written): the HTTP shell, stores and resources around the service.
        .target(
            name: "MockServer",
            // Li2SDK: the simulator's sessions run the real SDK against this server in process.
            dependencies: ["AttributionService", "HTTPShell", "EventLog", "DeepLinkCore", "Li2SDK"],
            resources: [.copy("Resources/openapi.json"), .copy("Resources/interstitial.html")]
        ),

        // MARK: SDK target
        // Tangled from chapters 05-07, 09 and 10: the client SDK with Li2SDK 0.2.0's API. It talks
        // to the service over HTTP and never links the server; its Apple-only parts (paste button,
        // SwiftUI modifier, UIPasteboard) are behind `#if canImport`, parse-checked on Linux.
        .target(name: "Li2SDK", dependencies: ["DeepLinkCore"]),

        .executableTarget(
            name: "workbook",
            dependencies: [
                "LiterateCLI", "CommandLineKit", "Literate", "DeepLinkCore", "MockServer", "Weave",
                "StrictJSON", "AttributionService", "HTTPShell",
            ]
        ),

        .testTarget(name: "LiterateTests", dependencies: ["Literate", "StrictJSON"], exclude: ["Fixtures"]),
        // The renderer and site tests; the CLI tests among them run the built `workbook`.
        .testTarget(
            name: "WeaveTests", dependencies: ["Weave", "Literate", "CCmark", "workbook"],
            exclude: ["Fixtures", "Snapshots"]
        ),
        .testTarget(name: "DeepLinkCoreTests", dependencies: ["DeepLinkCore"]),
        // A raw-socket HTTP client shared by the loopback tests of the shell and the mock server.
        .target(name: "LoopbackClient", path: "Tests/LoopbackClient"),
        .testTarget(
            name: "HTTPShellTests",
            dependencies: ["HTTPShell", "EventLog", "EventLogProbe", "LoopbackClient"]
        ),
        // MARK: Server test targets
        .testTarget(name: "AttributionServiceTests", dependencies: ["AttributionService"]),
        .testTarget(
            name: "MockServerTests",
            dependencies: [
                "MockServer", "AttributionService", "HTTPShell", "EventLog", "DeepLinkCore", "workbook",
                "LoopbackClient", "CommandLineKit",
            ]
        ),

        // MARK: SDK test targets
        .testTarget(name: "Li2SDKTests", dependencies: ["Li2SDK"]),
        // Tangled from chapters 11 and 12: the SDK against the real `workbook serve` on 127.0.0.1
        // (the dependency on `workbook` builds the binary the journeys start).
        .testTarget(name: "Li2JourneyTests", dependencies: ["Li2SDK", "workbook"]),
        // Hand-written: the SDK's public API against Li2SDK 0.2.0's, through the listing that
        // swift-api-digester dumps and the README's call sites. Depends on the SDK so that its
        // module is built first; `workbook` names the SDK module (SnippetCheckers.sdkModule).
        .testTarget(
            name: "Li2SDKAPITests", dependencies: ["Li2SDK", "workbook", "LoopbackClient"],
            exclude: ["li2sdk-0.2.0-api.txt", "README.md"]
        ),

        // Runs the built executables as a user would; needs them built first.
        .testTarget(
            name: "WorkbookCLITests",
            dependencies: [
                "workbook", "literate", "HTTPShell", "Literate", "CommandLineKit", "DeepLinkCore",
                "MockServer",
            ],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
