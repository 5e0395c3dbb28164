import Foundation

/// One exercise inside a generated package, and the folder built as its module: the starter, the
/// reference solution, a learner's `Work/`, or a folder handed in for grading.
package struct PackageMember: Sendable {
    var exercise: Exercise
    var sources: URL
    /// Copy `sources` into the package instead of linking it. Grading needs it: SwiftPM does not
    /// notice that a link at the same place now points at another folder, so every learner
    /// graded after the first would be graded on the first one's build.
    var copied: Bool

    package init(exercise: Exercise, sources: URL, copied: Bool = false) {
        (self.exercise, self.sources, self.copied) = (exercise, sources, copied)
    }

    /// Whether the exercise needs the book's `DeepLinkCore`: its tests or its code import it.
    var usesCore: Bool {
        GeneratedPackage.imports("DeepLinkCore", in: [sources, exercise.tests])
    }

    /// Whether the exercise needs the book's SDK, `Li2SDK`: its tests or its code import it.
    var usesSDK: Bool {
        GeneratedPackage.imports("Li2SDK", in: [sources, exercise.tests])
    }
}

/// A SwiftPM package written under the build folder (git-ignored) to build some exercises.
///
/// Each variant gets its own package (the learner's work, the starters, the solutions, a graded
/// folder), so that an unfinished exercise never breaks another's build: SwiftPM builds every
/// target of a package, whatever `--filter` says. Targets are symbolic links to the real
/// folders, so nothing is copied and an edit is seen at once (a graded learner's folders are the
/// exception: see ``PackageMember/copied``); `DeepLinkCore` and the SDK,
/// `Li2SDK` (which depends on `DeepLinkCore`), are linked from the repository's `Sources/` for
/// the exercises that import them. A package and its build folder persist, so a second run only
/// compiles what changed.
///
/// ```swift
/// let package = GeneratedPackage(directory: buildRoot.appendingPathComponent("work"), coreSources: core)
/// try package.prepare([PackageMember(exercise: first, sources: first.work)])
/// // work/Package.swift, work/Sources/ParseASchemeLink -> exercises/01-.../Work, ...
/// ```
package struct GeneratedPackage: Sendable {
    var directory: URL
    /// The repository's `Sources/DeepLinkCore`, when it exists.
    var coreSources: URL?
    /// The repository's `Sources/Li2SDK`, when it exists.
    var sdkSources: URL?

    /// `sdkSources` defaults to the `Li2SDK` folder beside `coreSources`, when there is one.
    init(directory: URL, coreSources: URL?, sdkSources: URL? = nil) {
        self.directory = directory
        self.coreSources = coreSources
        self.sdkSources = sdkSources ?? coreSources.flatMap(Self.sdkSources(beside:))
    }

    /// `Sources/Li2SDK` beside `Sources/DeepLinkCore`, when it exists.
    static func sdkSources(beside core: URL) -> URL? {
        let sdk = core.deletingLastPathComponent().appendingPathComponent("Li2SDK")
        return FileManager.default.fileExists(atPath: sdk.path) ? sdk : nil
    }

    var scratch: URL { directory.appendingPathComponent(".build") }

    /// Writes the manifest and the links for `members`. Unchanged files and links are left alone,
    /// so SwiftPM does not re-plan or rebuild what did not change.
    func prepare(_ members: [PackageMember]) throws {
        let fileManager = FileManager.default
        let sources = directory.appendingPathComponent("Sources")
        let tests = directory.appendingPathComponent("Tests")
        try fileManager.createDirectory(at: sources, withIntermediateDirectories: true)
        try fileManager.createDirectory(at: tests, withIntermediateDirectories: true)
        // The SDK needs DeepLinkCore: without both folders, no exercise gets the SDK.
        let sdkUsers =
            coreSources == nil || sdkSources == nil ? [] : Set(members.filter(\.usesSDK).map(\.exercise.id))
        let coreUsers = coreSources == nil ? [] : Set(members.filter(\.usesCore).map(\.exercise.id))
        var sourceLinks: [String: URL] = [:]
        var sourceCopies: [String: URL] = [:]
        var testLinks: [String: URL] = [:]
        for member in members {
            if member.copied {
                sourceCopies[member.exercise.moduleName] = member.sources
            } else {
                sourceLinks[member.exercise.moduleName] = member.sources
            }
            testLinks[member.exercise.testModuleName] = member.exercise.tests
        }
        if !coreUsers.isEmpty || !sdkUsers.isEmpty, let coreSources {
            sourceLinks["DeepLinkCore"] = coreSources
        }
        if !sdkUsers.isEmpty, let sdkSources { sourceLinks["Li2SDK"] = sdkSources }
        try Self.sync(sources, links: sourceLinks, copies: sourceCopies)
        try Self.sync(tests, links: testLinks)
        let manifest = Self.manifest(members, coreUsers: coreUsers, sdkUsers: sdkUsers)
        let manifestURL = directory.appendingPathComponent("Package.swift")
        if fileManager.contents(atPath: manifestURL.path) != Data(manifest.utf8) {
            try Data(manifest.utf8).write(to: manifestURL, options: .atomic)
        }
    }

    /// The manifest: one library target and one test target per exercise; `coreUsers` are the
    /// exercises that depend on `DeepLinkCore`, `sdkUsers` those that depend on `Li2SDK` (and so,
    /// through it, on `DeepLinkCore`).
    static func manifest(_ members: [PackageMember], coreUsers: Set<String>, sdkUsers: Set<String> = [])
        -> String
    {
        var lines = [
            "// swift-tools-version: 6.0",
            "// Generated by `workbook exercises`: rewritten on every run, do not edit.",
            "import PackageDescription",
            "",
            "let package = Package(",
            "    name: \"Exercises\",",
            "    platforms: [.macOS(.v13)],",
            "    targets: [",
        ]
        if !coreUsers.isEmpty || !sdkUsers.isEmpty {
            lines.append("        .target(name: \"DeepLinkCore\"),")
        }
        if !sdkUsers.isEmpty {
            lines.append("        .target(name: \"Li2SDK\", dependencies: [\"DeepLinkCore\"]),")
        }
        for member in members.sorted(by: { $0.exercise.id < $1.exercise.id }) {
            let module = member.exercise.moduleName
            var libraries: [String] = []
            if coreUsers.contains(member.exercise.id) { libraries.append("DeepLinkCore") }
            if sdkUsers.contains(member.exercise.id) { libraries.append("Li2SDK") }
            let quoted = libraries.map { "\"\($0)\"" }
            let moduleDependencies =
                quoted.isEmpty ? "" : ", dependencies: [\(quoted.joined(separator: ", "))]"
            let testDependencies = "[" + (["\"\(module)\""] + quoted).joined(separator: ", ") + "]"
            lines.append("        .target(name: \"\(module)\"\(moduleDependencies)),")
            lines.append("        .testTarget(name: \"\(module)Tests\", dependencies: \(testDependencies)),")
        }
        lines += ["    ],", "    swiftLanguageModes: [.v6]", ")", ""]
        return lines.joined(separator: "\n")
    }

    /// Makes `folder` hold exactly `links` (name to destination), touching only what differs,
    /// and fresh copies of `copies` (name to folder).
    static func sync(_ folder: URL, links: [String: URL], copies: [String: URL] = [:]) throws {
        let fileManager = FileManager.default
        for name in (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? [] where links[name] == nil
        {
            try fileManager.removeItem(at: folder.appendingPathComponent(name))
        }
        for (name, source) in copies {
            try fileManager.copyItem(
                at: source.resolvingSymlinksInPath(), to: folder.appendingPathComponent(name))
        }
        for (name, destination) in links {
            let link = folder.appendingPathComponent(name)
            if let existing = try? fileManager.destinationOfSymbolicLink(atPath: link.path) {
                if existing == destination.path { continue }
                try fileManager.removeItem(at: link)
            } else if fileManager.fileExists(atPath: link.path) {
                try fileManager.removeItem(at: link)
            }
            try fileManager.createSymbolicLink(atPath: link.path, withDestinationPath: destination.path)
        }
    }

    /// Whether any Swift file under `folders` imports `module`.
    static func imports(_ module: String, in folders: [URL]) -> Bool {
        folders.contains { folder in
            swiftFiles(in: folder).contains { file in
                let text = FileManager.default.contents(atPath: file.path).map {
                    String(decoding: $0, as: UTF8.self)
                }
                return text?.split(separator: "\n").contains { line in
                    let words = line.split(separator: " ")
                    return words.contains("import") && words.last.map(String.init) == module
                } ?? false
            }
        }
    }

    /// The Swift files under `folder`, sorted, following a link at the top.
    package static func swiftFiles(in folder: URL) -> [URL] {
        let root = folder.resolvingSymlinksInPath()
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        else {
            return []
        }
        var files: [URL] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            files.append(url)
        }
        return files.sorted { $0.path < $1.path }
    }

    /// How to show paths inside this package to a person: the link paths the compiler reports,
    /// mapped back to the folders they point at (relative to `root` when inside it).
    func pathMapping(_ members: [PackageMember], root: URL) -> PathMapping {
        var prefixes: [(String, String)] = []
        var modules: [String: String] = [:]
        let bases = Set([directory.path, directory.resolvingSymlinksInPath().path])
        for member in members {
            let sources = PathMapping.display(member.sources, root: root)
            let tests = PathMapping.display(member.exercise.tests, root: root)
            for base in bases {
                prefixes.append(("\(base)/Sources/\(member.exercise.moduleName)/", sources + "/"))
                prefixes.append(("\(base)/Tests/\(member.exercise.testModuleName)/", tests + "/"))
            }
            modules[member.exercise.moduleName] = sources
            modules[member.exercise.testModuleName] = tests
        }
        return PathMapping(prefixes: prefixes, modules: modules)
    }
}

/// Turns paths inside a generated package back into the paths a learner knows.
package struct PathMapping: Sendable {
    /// Package path prefix and what to show instead.
    var prefixes: [(String, String)]
    /// Module name and the folder it is built from, for Swift Testing's `Module/File.swift` ids.
    var modules: [String: String]

    func display(path: String) -> String {
        for (prefix, replacement) in prefixes where path.hasPrefix(prefix) {
            return replacement + path.dropFirst(prefix.count)
        }
        return path
    }

    /// `ParseASchemeLinkTests/ShopRouteTests.swift` gives `exercises/01-.../Tests/ShopRouteTests.swift`.
    func display(fileID: String) -> String {
        guard let slash = fileID.firstIndex(of: "/"), let folder = modules[String(fileID[..<slash])] else {
            return fileID
        }
        return folder + fileID[slash...]
    }

    /// Rewrites every package path in a block of text.
    func rewrite(_ text: String) -> String {
        var result = text
        for (prefix, replacement) in prefixes {
            result = result.replacingOccurrences(of: prefix, with: replacement)
        }
        return result
    }

    /// A path relative to `root` when it lies inside it, else the absolute path.
    static func display(_ url: URL, root: URL) -> String {
        let path = url.standardizedFileURL.path
        let base = root.standardizedFileURL.path
        if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
        return path
    }
}
