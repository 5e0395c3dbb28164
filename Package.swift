// swift-tools-version: 6.0
//
// Deep Link Workbook: a literate reference implementation and teaching workbook on mobile deep
// linking. The engine (Literate) is hand-written; the subject modules are tangled from chapters/.
import PackageDescription

// `workbook serve` weaves the site again on every save of a chapter. Unoptimised Swift does that
// about four times slower, past the 200 ms a save may take to reach the browser, so the engine,
// the site generator, what every build reads with them (the citations, the translations) and the
// live site's builder and watcher are compiled optimised in debug builds too (their debugger view
// is poorer). With the live site's builder unoptimised, a debug save took 294 ms to reach the
// page instead of 93 ms.
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
        // GNU gettext's PO file reader. Debian ships no pkg-config file for it; only Translations
        // links it, so that the engine and `literate` build without it.
        .systemLibrary(name: "CGettextPo", providers: [.apt(["libgettextpo-dev"])]),
        // What Swift cannot call in libmicrohttpd: the variadic start and info functions.
        .target(name: "CMicroHTTPDShim", dependencies: ["CMicroHTTPD"]),

        // RFC 8259 checked strictly, with the line, column and reason of the first problem: for
        // chapter snippets (the engine) and request bodies (the server). Imports no C module.
        .target(name: "StrictJSON", swiftSettings: optimisedInDebug),
        // The one way the package runs a child process to completion: output in files, a
        // deadline, the whole tree stopped on a timeout (or Ctrl-C, for a command).
        .target(name: "ProcessRunner", dependencies: ["CSpawnShim"]),
        // What Swift cannot call in glibc's <spawn.h>: closing inherited descriptors, a folder.
        .target(name: "CSpawnShim"),
        // The literate engine: chunks, tangle, snippet checks, diagnostics. Knows Markdown, never
        // deep links.
        .target(
            name: "Literate",
            dependencies: ["CCmark", "FileStamps", "ProcessRunner", "StrictJSON", "SystemErrors"],
            swiftSettings: optimisedInDebug
        ),
        // A small argument parser and help formatter shared by both executables.
        .target(name: "CommandLineKit", dependencies: ["SystemErrors"]),
        // A file-system failure in words: the errno behind any Foundation error, as `strerror` says it.
        .target(name: "SystemErrors"),
        // The engine's commands (tangle, check, lint), reused by `literate` and `workbook`.
        .target(name: "LiterateCLI", dependencies: ["Literate", "CommandLineKit", "ProcessRunner"]),
        .executableTarget(name: "literate", dependencies: ["LiterateCLI", "CommandLineKit"]),
        // The site generator: weaves the book into static HTML (hand-written; knows Markdown and
        // chunks, never deep links).
        .target(
            name: "Weave", dependencies: ["FileStamps", "Literate", "StrictJSON", "SystemErrors"],
            swiftSettings: optimisedInDebug),

        // Tangled from chapters/: do not edit the generated files by hand.
        .target(name: "DeepLinkCore"),

        // The HTTP core (hand-written): request and response values, routing, middleware (CORS),
        // the body limit and request framing rules, JSON bodies, errors, and the pure half of
        // streaming. Imports no C module: everything here is tested without sockets.
        .target(name: "HTTPCore", dependencies: ["StrictJSON"]),
        // The HTTP engine adapter (hand-written): the server over libmicrohttpd, a thin C
        // callback around an HTTPCore responder, request-head deadlines, and the engine half of
        // streaming (suspending and resuming connections). Swap this target to change engines.
        .target(name: "MicroHTTPDServer", dependencies: ["HTTPCore", "CMicroHTTPD", "CMicroHTTPDShim"]),
        // The append-only event log on SQLite with group commit (hand-written).
        .target(name: "EventLog", dependencies: ["CSQLite"]),
        // Appends and acknowledges events until killed: the event log's crash test runs it.
        .executableTarget(name: "EventLogProbe", dependencies: ["EventLog"]),

        // MARK: Server targets (the attribution service and the mock server)
        // Tangled from chapters/08: the service's decisions, pure (no HTTP, no C).
        .target(name: "AttributionService", dependencies: ["DeepLinkCore"]),
        // The mock server (hand-written): routes, stores and resources around the service, and the
        // runtime that serves them over the engine adapter. It never links the SDK.
        .target(
            name: "MockServer",
            dependencies: [
                "AttributionService", "HTTPCore", "MicroHTTPDServer", "EventLog", "DeepLinkCore",
                "StrictJSON",
                "SystemErrors",
            ],
            resources: [.copy("Resources/openapi.json"), .copy("Resources/interstitial.html")]
        ),
        // The deferred-flow simulator (hand-written): each session runs the real SDK against a
        // mock server of its own, in process. It hands its routes to the server's router
        // (SimulatorRoutes), so the server itself needs no SDK.
        .target(
            name: "Simulator",
            dependencies: [
                "MockServer", "Li2SDK", "AttributionService", "HTTPCore", "EventLog", "DeepLinkCore",
                "StrictJSON",
            ]
        ),

        // MARK: SDK target
        // Tangled from chapters 05-07, 09 and 10: the client SDK with Li2SDK 0.2.0's API. It talks
        // to the service over HTTP and never links the server; its Apple-only parts (paste button,
        // SwiftUI modifier, UIPasteboard) are behind `#if canImport`, parse-checked on Linux.
        .target(name: "Li2SDK", dependencies: ["DeepLinkCore"]),

        // MARK: The workbook's subsystems (hand-written), one job each; `workbook` is their shell.
        // The book's evidence: its bibliography (chapters/sources.json) and every citation of its
        // chapters, exercises and tests, resolved: what `workbook check` reports and the site lists.
        .target(
            name: "BookSources", dependencies: ["FileStamps", "Literate", "StrictJSON"],
            swiftSettings: optimisedInDebug),
        // The checks `workbook check` registers: the snippet checkers (linters, plists, manifests,
        // console transcripts, Swift samples) and the check of the book's citations.
        .target(
            name: "BookChecks",
            dependencies: [
                "BookSources", "ConsoleCheck", "DeepLinkCore", "Literate", "ProcessRunner", "StrictJSON",
                "SystemErrors",
            ]
        ),
        // Console transcripts (`console` blocks) run and compared, against the book's mock server.
        .target(
            name: "ConsoleCheck",
            dependencies: [
                "HTTPCore", "Lab", "Literate", "MockServer", "ProcessRunner", "Simulator", "StrictJSON",
            ]
        ),
        // `workbook doctor`: a domain's association files fetched and checked per platform.
        .target(name: "Doctor", dependencies: ["CommandLineKit", "DeepLinkCore", "Literate", "StrictJSON"]),
        // The Link Lab: the matchers' and linters' answers the CLI prints and the server's lab routes give.
        .target(
            name: "Lab",
            dependencies: [
                "AttributionService", "CommandLineKit", "DeepLinkCore", "Doctor", "HTTPCore", "MockServer",
                "ProcessRunner", "StrictJSON",
            ]),
        // The exercises: catalog, generated packages, test runs, progress, reports and grading.
        .target(
            name: "Exercises",
            dependencies: [
                "CommandLineKit", "FileWatch", "Literate", "LiterateCLI", "ProcessRunner", "StrictJSON",
                "SystemErrors", "Translations", "Weave",
            ]
        ),
        // `workbook serve`'s site: rebuilt on every save of a chapter and reported to the server.
        .target(
            name: "LiveSite",
            dependencies: [
                "BookSources", "CommandLineKit", "FileWatch", "Literate", "MockServer", "SystemErrors",
                "Translations", "Weave",
            ],
            // The book's own pages (Sources, decisions) are made here on every save.
            swiftSettings: optimisedInDebug
        ),
        // The book's translations: messages extracted from the chapters and exercises (POT), PO
        // files merged with GNU gettext's msgmerge and read with its libgettextpo.
        .target(
            name: "Translations",
            dependencies: ["CGettextPo", "FileStamps", "Literate", "ProcessRunner", "SystemErrors", "Weave"],
            swiftSettings: optimisedInDebug
        ),
        // Folders watched for saves: inotify on Linux, polling elsewhere, snapshots say what changed.
        .target(name: "FileWatch", dependencies: ["FileStamps"], swiftSettings: optimisedInDebug),
        // A file's stamp (what `stat` says changes on every write) and folders walked with
        // readdir: what the watcher compares and the build's memos key on.
        .target(name: "FileStamps", swiftSettings: optimisedInDebug),
        // The SDK's API reference: symbol graphs rendered with DocC, and its audit.
        .target(
            name: "SDKReference",
            dependencies: ["CommandLineKit", "Literate", "MockServer", "ProcessRunner", "SystemErrors"]
        ),
        // `workbook serve`: its options read, the server, the live site and the reference build
        // started, and all stopped gracefully on SIGINT or SIGTERM.
        .target(
            name: "Serve",
            dependencies: [
                "BookChecks", "CommandLineKit", "HTTPCore", "Lab", "Literate", "LiterateCLI", "LiveSite",
                "MicroHTTPDServer",
                "MockServer",
                "SDKReference", "Simulator",
            ]
        ),
        // The command-line shell: the command table and one file per subcommand.
        .executableTarget(
            name: "workbook",
            dependencies: [
                "LiterateCLI", "CommandLineKit", "Literate", "DeepLinkCore", "MockServer", "Weave",
                "BookChecks", "Doctor", "Exercises", "Lab", "LiveSite", "SDKReference", "Serve",
                "Translations",
            ]
        ),

        .testTarget(name: "LiterateTests", dependencies: ["Literate", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "ProcessRunnerTests", dependencies: ["ProcessRunner", "TestSupport"]),
        .testTarget(
            name: "LiterateCLITests",
            dependencies: ["LiterateCLI", "CommandLineKit", "Literate", "TestSupport"]),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"]),
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"]),
        .testTarget(name: "SystemErrorsTests", dependencies: ["SystemErrors"]),
        // The renderer and site tests; the CLI tests among them run the built `workbook`.
        .testTarget(
            name: "WeaveTests",
            dependencies: [
                "Weave", "StrictJSON", "SystemErrors", "Literate", "CCmark", "ProcessRunner", "TestSupport",
                "workbook",
            ],
            exclude: ["Fixtures", "Snapshots"]
        ),
        .testTarget(name: "DeepLinkCoreTests", dependencies: ["DeepLinkCore"]),
        // A small application on the HTTP core and the cases it must answer: the core's tests run
        // them in process, the adapter's over loopback.
        .target(name: "HTTPDemoApp", dependencies: ["HTTPCore"], path: "Tests/HTTPDemoApp"),
        .testTarget(name: "HTTPCoreTests", dependencies: ["HTTPCore", "HTTPDemoApp"]),
        .testTarget(
            name: "MicroHTTPDServerTests",
            dependencies: ["MicroHTTPDServer", "HTTPCore", "HTTPDemoApp", "ProcessRunner", "TestSupport"]
        ),
        .testTarget(
            name: "EventLogTests",
            dependencies: ["EventLog", "EventLogProbe", "ProcessRunner", "TestSupport"]),
        // MARK: Server test targets
        .testTarget(name: "AttributionServiceTests", dependencies: ["AttributionService"]),
        // What the mock server's tests and the simulator's share: the test configuration, short
        // requests and answers, a live server on loopback.
        .target(
            name: "MockServerTesting",
            dependencies: ["AttributionService", "EventLog", "HTTPCore", "MicroHTTPDServer", "MockServer"],
            path: "Tests/MockServerTesting"
        ),
        .testTarget(
            name: "MockServerTests",
            dependencies: [
                "MockServer", "MockServerTesting", "Simulator", "Lab", "AttributionService", "HTTPCore",
                "MicroHTTPDServer",
                "EventLog", "DeepLinkCore", "StrictJSON", "workbook", "TestSupport", "ProcessRunner",
            ]
        ),
        .testTarget(
            name: "LabTests",
            dependencies: [
                "Lab", "AttributionService", "DeepLinkCore", "Doctor", "EventLog", "HTTPCore",
                "MicroHTTPDServer",
                "MockServer", "MockServerTesting", "StrictJSON", "TestSupport", "Weave",
            ]),
        .testTarget(
            name: "SimulatorTests",
            dependencies: [
                "Simulator", "MockServer", "MockServerTesting", "AttributionService", "EventLog", "HTTPCore",
                "StrictJSON",
            ]
        ),

        // MARK: The workbook's subsystems, tested by importing them
        // What the tests share: running the package's executables as a user would, throwaway
        // folders, a raw-socket HTTP client for the loopback tests, and waiting on events.
        .target(name: "TestSupport", dependencies: ["ProcessRunner"], path: "Tests/TestSupport"),
        // Depends on the SDK so that its module is built for the samples to type-check against.
        .testTarget(
            name: "BookChecksTests", dependencies: ["BookChecks", "Literate", "Li2SDK", "TestSupport"]),
        .testTarget(name: "BookSourcesTests", dependencies: ["BookSources", "Literate", "TestSupport"]),
        .testTarget(name: "ConsoleCheckTests", dependencies: ["ConsoleCheck", "Literate"]),
        .testTarget(name: "DoctorTests", dependencies: ["Doctor", "CommandLineKit", "DeepLinkCore"]),
        .testTarget(
            name: "ExercisesTests", dependencies: ["Exercises", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "FileWatchTests", dependencies: ["FileStamps", "FileWatch", "TestSupport"]),
        .testTarget(
            name: "LiveSiteTests",
            dependencies: ["LiveSite", "Literate", "MockServer", "TestSupport", "Translations", "Weave"]),
        .testTarget(
            name: "SDKReferenceTests",
            dependencies: ["SDKReference", "CommandLineKit", "Literate", "MockServer", "TestSupport"]),
        .testTarget(name: "ServeTests", dependencies: ["Serve", "CommandLineKit"]),
        .testTarget(
            name: "TranslationsTests",
            dependencies: ["Translations", "Literate", "ProcessRunner", "TestSupport", "Weave"]),

        // MARK: SDK test targets
        .testTarget(name: "Li2SDKTests", dependencies: ["Li2SDK"]),
        // Tangled from chapters 11 and 12: the SDK against the real `workbook serve` on 127.0.0.1
        // (the dependency on `workbook` builds the binary the journeys start).
        .testTarget(name: "Li2JourneyTests", dependencies: ["Li2SDK", "ProcessRunner", "workbook"]),
        // Hand-written: the SDK's public API against Li2SDK 0.2.0's, through the listing that
        // swift-api-digester dumps and the README's call sites. Depends on the SDK so that its
        // module is built first; BookChecks names the SDK module (SnippetCheckers.sdkModule).
        .testTarget(
            name: "Li2SDKAPITests",
            dependencies: [
                "Li2SDK", "BookChecks", "ProcessRunner", "SystemErrors", "workbook", "TestSupport",
            ],
            exclude: ["li2sdk-0.2.0-api.txt", "README.md"]
        ),

        // Runs the built executables as a user would; needs them built first.
        .testTarget(
            name: "WorkbookCLITests",
            dependencies: [
                "workbook", "literate", "HTTPCore", "MicroHTTPDServer", "Literate", "CommandLineKit",
                "DeepLinkCore",
                "MockServer", "MockServerTesting", "Doctor", "Lab", "SDKReference", "StrictJSON",
                "TestSupport",
                "Weave",
            ],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
