import Foundation
import Literate
import ProcessRunner
import SystemErrors

/// Builds the API reference of the book's Swift modules with the toolchain's own tools, the
/// way SwiftPM's documentation plugin does, without the plugin (no outside package):
///
/// 1. `swift build --target Li2SDK` into a scratch folder of its own, so that it never
///    invalidates the builds of `./wb serve` and `./wb test`;
/// 2. `swift-symbolgraph-extract` for each module, from the built `.swiftmodule`, at the public
///    access level: a fresh graph on every run, never a stale one from an earlier build;
/// 3. ``ReferenceAudit`` reads the graphs: every public declaration without a doc comment is a
///    warning at its chapter line;
/// 4. `docc convert` per module (DeepLinkCore first, so that Li2SDK's pages can link to it), for
///    static hosting under `/reference`, then `docc merge` into one archive with a landing page:
///    `documentation/li2sdk/` and `documentation/deeplinkcore/`.
///
/// The merged archive is written beside the output folder and swapped in when complete, so a
/// server never serves half a reference; the output folder is replaced only if an earlier run
/// wrote it (its marker file says so).
///
/// ```swift
/// let settings = ReferenceBuilder.Settings(bookRoot: root, outputFolder: root.appendingPathComponent(".build/reference"))
/// let report = try ReferenceBuilder.build(settings)
/// report.counts  // DeepLinkCore: 209 of 481 undocumented, Li2SDK: 107 of 275
/// ```
package enum ReferenceBuilder {
    package struct Settings: Sendable {
        /// The book folder, which is also the Swift package.
        var bookRoot: URL
        /// Where the static site goes.
        var outputFolder: URL
        /// `swift build --scratch-path`; by default `BOOK/.build/reference-build`.
        var scratchFolder: URL
        /// The modules, each after the ones it depends on.
        var modules = ["DeepLinkCore", "Li2SDK"]
        /// The target whose build compiles every module above.
        var buildTarget = "Li2SDK"
        /// Each module's page text, as a DocC documentation extension (`# ``Li2SDK`` `), in
        /// `FOLDER/MODULE.md`; by default `BOOK/reference`. A module without one gets DocC's page.
        var moduleArticles: URL
        /// The path the site is served under (`--hosting-base-path`).
        var hostingBasePath = "reference"
        var landingPageName = "Deep Link Workbook"
        /// Receives one line as each step starts (the command shows them on a terminal).
        package var progress: @Sendable (String) -> Void = { _ in }

        package init(bookRoot: URL, outputFolder: URL, scratchFolder: URL? = nil) {
            self.bookRoot = bookRoot
            self.outputFolder = outputFolder
            self.scratchFolder = scratchFolder ?? bookRoot.appendingPathComponent(".build/reference-build")
            self.moduleArticles = bookRoot.appendingPathComponent("reference")
        }
    }

    package struct Report: Sendable {
        package var counts: [ReferenceAudit.ModuleCount]
        /// The undocumented declarations, then DocC's findings.
        package var diagnostics: [Diagnostic]
        package var doccWarnings: Int
        package var files: Int
        package var bytes: Int
        package var seconds: Double
    }

    /// Why no reference was written; each is one message.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        case noPackage(String)
        case toolMissing(String)
        case outputNotOurs(String)
        case stepFailed(String, status: Int32, output: String)
        case timedOut(String, seconds: Double)
        case moduleMissing(String, folder: String)
        case notWritten(String)
        case cannotWrite(String, reason: String)
        case unreadable(String, reason: String)

        package var description: String {
            switch self {
            case .noPackage(let path): ReferenceMessage.noPackage(path)
            case .toolMissing(let tool): ReferenceMessage.toolMissing(tool)
            case .outputNotOurs(let path): ReferenceMessage.outputNotOurs(path)
            case .stepFailed(let step, let status, let output):
                ReferenceMessage.stepFailed(step, status: status, output: output)
            case .timedOut(let step, let seconds): ReferenceMessage.timedOut(step, seconds: seconds)
            case .moduleMissing(let module, let folder):
                ReferenceMessage.moduleMissing(module, folder: folder)
            case .notWritten(let path): ReferenceMessage.notWritten(path)
            case .cannotWrite(let path, let reason): ReferenceMessage.cannotWrite(path, reason: reason)
            case .unreadable(let path, let reason): ReferenceMessage.unreadable(path, reason: reason)
            }
        }
    }

    /// The file that marks a folder as this command's output.
    static let marker = ".workbook-reference"

    package static func build(_ settings: Settings) throws(Failure) -> Report {
        let clock = ContinuousClock()
        let started = clock.now
        let root = settings.bookRoot
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) else {
            throw .noPackage(root.path)
        }
        let tools = try Toolchain.find()
        try checkOutput(settings.outputFolder)

        settings.progress(
            "swift build --target \(settings.buildTarget) (\(settings.modules.joined(separator: ", ")))")
        let scratch = ["--package-path", root.path, "--scratch-path", settings.scratchFolder.path]
        _ = try run(
            "swift build", tools.swift, ["build", "--target", settings.buildTarget] + scratch, timeout: 3_600)
        let binPath = try run(
            "swift build --show-bin-path", tools.swift, ["build", "--show-bin-path"] + scratch
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)
        let target = try TargetInfo.read(swift: tools.swift)

        // The graphs and the per-module archives, then the merged archive until it is swapped
        // in. Each run's folders carry its process id; those of runs that were killed (a server
        // stopped during its build) are removed by the next run.
        let parent = settings.outputFolder.deletingLastPathComponent()
        let stagingPrefix = ".\(settings.outputFolder.lastPathComponent).partial-"
        removeStale(in: settings.scratchFolder, prefix: "work-")
        removeStale(in: parent, prefix: stagingPrefix)
        let work = settings.scratchFolder.appendingPathComponent("work-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        let staging = parent.appendingPathComponent(stagingPrefix + "\(getpid())")
        defer { try? FileManager.default.removeItem(at: staging) }

        var counts: [ReferenceAudit.ModuleCount] = []
        var undocumented: [Diagnostic] = []
        var doccFindings: [Diagnostic] = []
        var archives: [URL] = []
        for module in settings.modules {
            settings.progress("swift-symbolgraph-extract -module-name \(module)")
            let graphs = work.appendingPathComponent("symbol-graphs/\(module)")
            try createFolder(graphs)
            let modules = try modulesFolder(binPath: binPath, module: module)
            let cache = settings.scratchFolder.appendingPathComponent("reference-module-cache")
            var extract = ["-module-name", module, "-I", modules, "-target", target.triple]
            extract += ["-minimum-access-level", "public", "-output-dir", graphs.path]
            extract += ["-module-cache-path", cache.path]
            if let sdk = target.sdkPath { extract += ["-sdk", sdk] }
            _ = try run("swift-symbolgraph-extract", tools.symbolGraphExtract, extract, timeout: 600)
            let (linuxGraphs, appleGraphs, appleProblems) = try addAppleOnlyGraphs(
                module: module, graphs: graphs, settings: settings)
            var (count, findings) = try audit(module: module, graphs: linuxGraphs, bookRoot: root)
            if !appleGraphs.isEmpty {
                let (apple, appleFindings) = try audit(module: module, graphs: appleGraphs, bookRoot: root)
                count.declarations += apple.declarations
                count.undocumented += apple.undocumented
                count.appleOnly = apple.declarations
                findings = (findings + appleFindings).sorted {
                    ($0.location!, $0.message) < ($1.location!, $1.message)
                }
            }
            counts.append(count)
            undocumented += appleProblems + findings

            settings.progress("docc convert (\(module))")
            try createFolder(work.appendingPathComponent("archives"))
            let archive = work.appendingPathComponent("archives/\(module).doccarchive")
            let diagnostics = work.appendingPathComponent("archives/\(module)-diagnostics.json")
            var convert = ["convert"]
            if let catalog = try catalog(module: module, settings: settings, work: work) {
                convert.append(catalog.path)
            }
            convert += ["--additional-symbol-graph-dir", graphs.path, "--output-path", archive.path]
            convert += ["--fallback-display-name", module]
            convert += ["--fallback-bundle-identifier", "workbook.\(module.lowercased())"]
            convert += ["--transform-for-static-hosting", "--hosting-base-path", settings.hostingBasePath]
            // Link metadata for `--dependency` and `docc merge`; the findings as JSON, at their places.
            convert += [
                "--enable-experimental-external-link-support", "--diagnostics-file", diagnostics.path,
            ]
            for earlier in archives { convert += ["--dependency", earlier.path] }
            _ = try run("docc convert", tools.docc, convert, timeout: 1_200)
            archives.append(archive)
            if let data = FileManager.default.contents(atPath: diagnostics.path) {
                do {
                    doccFindings += try ReferenceAudit.doccFindings(data, bookRoot: root)
                } catch {
                    throw .unreadable(diagnostics.path, reason: "\(error)")
                }
            }
        }

        settings.progress("docc merge")
        try createFolder(parent)
        try? FileManager.default.removeItem(at: staging)
        _ = try run(
            "docc merge", tools.docc,
            ["merge"] + archives.map(\.path) + [
                "--output-path", staging.path, "--synthesized-landing-page-name", settings.landingPageName,
            ], timeout: 1_200)
        for module in settings.modules {
            let page = "documentation/\(module.lowercased())/index.html"
            guard FileManager.default.fileExists(atPath: staging.appendingPathComponent(page).path) else {
                throw .notWritten(page)
            }
        }
        do {
            try Data("written by workbook reference\n".utf8).write(to: staging.appendingPathComponent(marker))
        } catch {
            throw .cannotWrite(staging.path, reason: SystemError.describe(error))
        }
        try swap(staging, into: settings.outputFolder)
        // Removed here rather than by the `defer` alone, so that the time reported includes it.
        try? FileManager.default.removeItem(at: work)
        let (files, bytes) = size(of: settings.outputFolder)
        return Report(
            counts: counts, diagnostics: undocumented + doccFindings,
            doccWarnings: doccFindings.count, files: files, bytes: bytes,
            seconds: (clock.now - started) / .seconds(1))
    }

    // MARK: Steps

    /// Runs one tool through the project's runner and returns what it printed; a failure or a
    /// timeout ends the build with the tool's last lines.
    private static func run(
        _ step: String, _ executable: String, _ arguments: [String], timeout: TimeInterval = 120
    ) throws(Failure) -> String {
        let result = Subprocess.run(
            executable, arguments, in: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            timeout: timeout)
        if result.timedOut { throw .timedOut(step, seconds: timeout) }
        guard result.status == 0 else {
            throw .stepFailed(step, status: result.status, output: result.output)
        }
        return result.output
    }

    /// The folder holding the built `.swiftmodule`s: `Modules/` beside the products since
    /// Swift 6, the products folder itself before.
    private static func modulesFolder(binPath: String, module: String) throws(Failure) -> String {
        for folder in [binPath + "/Modules", binPath]
        where FileManager.default.fileExists(atPath: "\(folder)/\(module).swiftmodule") {
            return folder
        }
        throw .moduleMissing(module, folder: binPath)
    }

    /// The module's own graph and its extensions of other modules' types (`Li2SDK@Swift`), as the
    /// compiler wrote them.
    private static func compiledGraphs(module: String, graphs: URL) throws(Failure) -> [(
        name: String, data: Data
    )] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: graphs.path)) ?? []).filter {
            ($0 == "\(module).symbols.json" || $0.hasPrefix("\(module)@")) && $0.hasSuffix(".symbols.json")
        }.sorted()
        guard names.contains("\(module).symbols.json") else {
            throw .unreadable(
                graphs.appendingPathComponent("\(module).symbols.json").path, reason: "not written")
        }
        var read: [(name: String, data: Data)] = []
        for name in names {
            guard
                let contents = FileManager.default.contents(atPath: graphs.appendingPathComponent(name).path)
            else { throw .unreadable(graphs.appendingPathComponent(name).path, reason: "not readable") }
            read.append((name, contents))
        }
        return read
    }

    /// A documentation catalog holding the module's page text, when the book has one: DocC reads
    /// a catalog folder, so the file is copied into one in the scratch folder.
    private static func catalog(module: String, settings: Settings, work: URL) throws(Failure) -> URL? {
        let article = settings.moduleArticles.appendingPathComponent("\(module).md")
        guard FileManager.default.fileExists(atPath: article.path) else { return nil }
        let catalog = work.appendingPathComponent("catalogs/\(module).docc")
        try createFolder(catalog)
        do {
            try FileManager.default.copyItem(at: article, to: catalog.appendingPathComponent("\(module).md"))
        } catch {
            throw .cannotWrite(catalog.path, reason: SystemError.describe(error))
        }
        return catalog
    }

    /// Reads the module's Apple-only declarations from its tangled sources and writes their
    /// graphs beside the compiler's (``AppleSymbolGraph``), so that DocC gives them pages too.
    /// Returns the compiler's graphs, the new ones, and what could not be placed.
    private static func addAppleOnlyGraphs(module: String, graphs: URL, settings: Settings) throws(Failure)
        -> (
            compiled: [Data], apple: [Data], problems: [Diagnostic]
        )
    {
        let compiled = try compiledGraphs(module: module, graphs: graphs)
        let known: [[String]: String]
        do {
            known = try ReferenceAudit.identifiers(in: compiled.map(\.data))
        } catch {
            throw .unreadable(graphs.path, reason: "\(error)")
        }
        let sources = settings.bookRoot.appendingPathComponent("Sources/\(module)")
        var found = AppleOnlyDeclarations.Found()
        let chapters = ChapterLines()
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap {
                $0 as? URL
            }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path } ?? []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw .unreadable(file.path, reason: "not readable")
            }
            let text = String(decoding: data, as: UTF8.self)
            guard AppleOnlyDeclarations.mayHaveAppleOnlyCode(text) else { continue }
            let scanned = AppleOnlyDeclarations.scan(
                text, file: displayPath(file, root: settings.bookRoot),
                chapterLine: { chapters.line(place: $0, root: settings.bookRoot) })
            found.declarations += scanned.declarations
            found.conformances += scanned.conformances
        }
        let output = AppleSymbolGraph.make(module: module, found: found, known: known)
        var apple: [Data] = []
        for (name, data) in output.files.sorted(by: { $0.key < $1.key }) {
            let file = graphs.appendingPathComponent(name)
            do {
                try data.write(to: file)
            } catch {
                throw .cannotWrite(file.path, reason: SystemError.describe(error))
            }
            apple.append(data)
        }
        return (compiled.map(\.data), apple, output.problems)
    }

    private static func audit(module: String, graphs: [Data], bookRoot: URL) throws(Failure) -> (
        ReferenceAudit.ModuleCount, [Diagnostic]
    ) {
        do {
            return try ReferenceAudit.undocumented(module: module, graphs: graphs, bookRoot: bookRoot)
        } catch {
            throw .unreadable(module, reason: "\(error)")
        }
    }

    /// The output folder may be missing, empty, or an earlier reference: anything else is
    /// someone's folder, never replaced.
    static func checkOutput(_ folder: URL) throws(Failure) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) else { return }
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        guard isDirectory.boolValue, contents.isEmpty || contents.contains(marker) else {
            throw .outputNotOurs(folder.path)
        }
    }

    /// Puts the complete reference in place of the old one with two renames.
    private static func swap(_ staging: URL, into folder: URL) throws(Failure) {
        let fileManager = FileManager.default
        let old = folder.deletingLastPathComponent().appendingPathComponent(
            ".\(folder.lastPathComponent).old-\(getpid())")
        do {
            try? fileManager.removeItem(at: old)
            if fileManager.fileExists(atPath: folder.path) { try fileManager.moveItem(at: folder, to: old) }
            try fileManager.moveItem(at: staging, to: folder)
            try? fileManager.removeItem(at: old)
        } catch {
            throw .cannotWrite(folder.path, reason: SystemError.describe(error))
        }
    }

    /// Removes the folders in `folder` named `prefix` and a process id whose process is gone.
    private static func removeStale(in folder: URL, prefix: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0,
                errno == ESRCH
            else { continue }
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    private static func createFolder(_ folder: URL) throws(Failure) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(folder.path, reason: SystemError.describe(error))
        }
    }

    /// The path relative to the book when inside it, for short messages.
    package static func displayPath(_ url: URL, root: URL) -> String {
        let path = url.standardizedFileURL.path
        let prefix = root.standardizedFileURL.path + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// Files and bytes under `folder`.
    static func size(of folder: URL) -> (files: Int, bytes: Int) {
        var files = 0
        var bytes = 0
        let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey]
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys)
        while let url = walker?.nextObject() as? URL {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true
            else {
                continue
            }
            files += 1
            bytes += values.fileSize ?? 0
        }
        return (files, bytes)
    }
}

/// The three tools, from the Swift toolchain.
private struct Toolchain {
    var swift: String
    var symbolGraphExtract: String
    var docc: String

    /// Each tool on `PATH`, else beside the real `swift` (a toolchain keeps them together, and
    /// `swift` is often a link from `/usr/bin`).
    static func find() throws(ReferenceBuilder.Failure) -> Toolchain {
        guard let swift = BookChecker.findExecutable("swift") else { throw .toolMissing("swift") }
        let folder = URL(fileURLWithPath: swift).resolvingSymlinksInPath().deletingLastPathComponent()
        func tool(_ name: String) throws(ReferenceBuilder.Failure) -> String {
            if let found = BookChecker.findExecutable(name) { return found }
            let beside = folder.appendingPathComponent(name).path
            guard FileManager.default.isExecutableFile(atPath: beside) else { throw .toolMissing(name) }
            return beside
        }
        let docc = try tool("docc")
        return Toolchain(swift: swift, symbolGraphExtract: try tool("swift-symbolgraph-extract"), docc: docc)
    }
}

/// What `swift -print-target-info` says about the machine the modules were built for.
private struct TargetInfo {
    var triple: String
    var sdkPath: String?

    static func read(swift: String) throws(ReferenceBuilder.Failure) -> TargetInfo {
        let result = Subprocess.run(
            swift, ["-print-target-info"], in: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            timeout: 60)
        guard result.status == 0, !result.timedOut else {
            throw .stepFailed("swift -print-target-info", status: result.status, output: result.output)
        }
        // The runner captures standard error too; the JSON is the object in the output.
        guard let start = result.output.firstIndex(of: "{"), let end = result.output.lastIndex(of: "}"),
            let json = try? JSONSerialization.jsonObject(with: Data(result.output[start...end].utf8)),
            let info = json as? [String: Any], let target = info["target"] as? [String: Any],
            let triple = target["triple"] as? String
        else {
            throw .stepFailed("swift -print-target-info", status: result.status, output: result.output)
        }
        let sdk = (info["paths"] as? [String: Any])?["sdkPath"] as? String
        return TargetInfo(triple: triple, sdkPath: sdk?.isEmpty == false ? sdk : nil)
    }
}

/// The lines of the chapters a module's places point into, each file read once.
private final class ChapterLines {
    private var files: [String: [Substring]] = [:]

    func line(place: SourceLocation, root: URL) -> String? {
        if files[place.path] == nil {
            let data =
                FileManager.default.contents(atPath: root.appendingPathComponent(place.path).path) ?? Data()
            files[place.path] = String(decoding: data, as: UTF8.self).split(
                separator: "\n", omittingEmptySubsequences: false)
        }
        guard let lines = files[place.path], place.line >= 1, place.line <= lines.count else { return nil }
        return String(lines[place.line - 1])
    }
}
