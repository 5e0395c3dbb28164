import Foundation
import Li2DeepLinks

/// What the journeys need to know from `config/demo.json`, the configuration the server runs.
struct DemoWorkspace: Decodable, Sendable {
    struct Keys: Decodable, Sendable {
        var publishable: String
        var secret: String
    }

    var linkDomains: [String]
    /// The configured links have exactly the shape of a `track/open` answer's `link`.
    var links: [TrackOpenResponse.Link]
    var keys: Keys
    var deferredRecordTTLSeconds: Int

    static func load(from file: URL) throws -> DemoWorkspace {
        try JSONDecoder().decode(DemoWorkspace.self, from: Data(contentsOf: file))
    }

    /// The link with this key, if the demo has it.
    func link(_ key: String) -> TrackOpenResponse.Link? {
        links.first { $0.key == key }
    }
}

extension MockServerProcess {
    /// The folder holding the built executables, next to the test bundle.
    static var productsDirectory: URL {
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent()
            }
            fatalError("no .xctest bundle found")
        #else
            return Bundle.main.bundleURL
        #endif
    }

    /// The repository: the nearest folder holding `config/demo.json` at or above the current
    /// directory (`swift test` runs in the package) or the products (a `.build` inside it).
    static func repositoryRoot() throws -> URL {
        let starts = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath), productsDirectory]
        for start in starts {
            var folder = start.standardizedFileURL
            while true {
                let candidate = folder.appendingPathComponent("config/demo.json")
                if FileManager.default.fileExists(atPath: candidate.path) { return folder }
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        throw StartFailure(
            description: "no config/demo.json at or above \(starts.map(\.path)): run the tests in the repository")
    }
}
