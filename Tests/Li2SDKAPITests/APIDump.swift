import Foundation
import ProcessRunner
import SystemErrors

/// Runs `swift-api-digester -dump-sdk` on a module of the build the tests run in.
///
/// The digester ships with the toolchain, next to `swiftc`; the module files are in the
/// `Modules` folder beside the test binary (`.build/test/<triple>/debug/Modules` for
/// `./wb test`). On Linux the digester needs nothing but the module's name and that folder:
///
///     swift-api-digester -dump-sdk -module Li2SDK -I .build/test/x86_64-unknown-linux-gnu/debug/Modules -o api.json
enum APIDump {
    /// Why there is no dump: each says what to run. None of them is an API difference.
    enum Failure: Error, Equatable, CustomStringConvertible {
        case noDigester(searched: [String])
        case moduleNotBuilt(module: String, folder: String)
        case digesterFailed(command: [String], status: Int32, output: String)
        case unreadableDump(path: String, reason: String)

        var description: String {
            switch self {
            case .noDigester(let searched):
                return "swift-api-digester not found next to swiftc or on PATH (looked in "
                    + "\(searched.joined(separator: ", "))): it ships with the Swift toolchain; put the "
                    + "toolchain's usr/bin (such as /opt/swift/usr/bin) on PATH and run the tests again"
            case .moduleNotBuilt(let module, let folder):
                return "no \(module).swiftmodule in \(folder), the module folder of the build these tests "
                    + "run in: build the tests first with ./wb test, or swift build --build-tests "
                    + "--scratch-path .build/test -Xswiftc -warnings-as-errors --enable-code-coverage"
            case .digesterFailed(let command, let status, let output):
                return "swift-api-digester failed (exit status \(status)); run it yourself to see why:\n"
                    + command.joined(separator: " ") + "\n" + output
            case .unreadableDump(let path, let reason):
                return "cannot read the digester's dump at \(path): \(reason)"
            }
        }
    }

    /// The reduced API lines of `module`, from the build the tests run in.
    static func surface(of module: String) throws(Failure) -> [String] {
        let digester = try findDigester()
        let modules = try modulesFolder(holding: module)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "li2sdk-api-\(getpid())-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("api.json")
        let arguments = ["-dump-sdk", "-module", module, "-I", modules.path, "-o", output.path]
        let run = run(digester, arguments, creating: folder)
        guard run.status == 0 else {
            throw .digesterFailed(command: [digester] + arguments, status: run.status, output: run.output)
        }
        do {
            return try APISurface.lines(fromDump: try Data(contentsOf: output), module: module)
        } catch {
            throw .unreadableDump(path: output.path, reason: "\(error)")
        }
    }

    /// The digester beside the `swiftc` on PATH (also where a symbolic link to `swiftc` leads),
    /// else the first on PATH.
    static func findDigester(path: String = ProcessInfo.processInfo.environment["PATH"] ?? "")
        throws(Failure) -> String
    {
        let folders = path.split(separator: ":").map(String.init)
        var candidates: [String] = []
        for folder in folders where FileManager.default.isExecutableFile(atPath: folder + "/swiftc") {
            let real = URL(fileURLWithPath: folder + "/swiftc").resolvingSymlinksInPath()
                .deletingLastPathComponent()
            candidates += [folder, real.path]
        }
        candidates += folders
        var searched: [String] = []
        for folder in candidates where !searched.contains(folder) {
            searched.append(folder)
            let digester = folder + "/swift-api-digester"
            if FileManager.default.isExecutableFile(atPath: digester) { return digester }
        }
        throw .noDigester(searched: searched)
    }

    /// The folder of the test binary: on Linux the binary is `.build/test/<triple>/debug/
    /// <Package>PackageTests.xctest`, beside `Modules`.
    static var productsFolder: URL {
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent()
            }
            return Bundle.main.bundleURL
        #else
            return Bundle.main.bundleURL
        #endif
    }

    static func modulesFolder(holding module: String) throws(Failure) -> URL {
        let folder = productsFolder.appendingPathComponent("Modules")
        guard
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("\(module).swiftmodule").path)
        else { throw .moduleNotBuilt(module: module, folder: folder.path) }
        return folder
    }

    private static func run(_ executable: String, _ arguments: [String], creating folder: URL)
        -> (status: Int32, output: String)
    {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            return (127, SystemError.message(for: error))
        }
        let result = Subprocess.run(executable, arguments, timeout: 600, stopsOnInterrupt: false)
        return (result.status, result.output)
    }
}
