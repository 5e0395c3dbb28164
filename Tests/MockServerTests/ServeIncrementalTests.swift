import Foundation
import HTTPCore
import MockServerTesting
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The live site's incremental rebuilds, through a running `workbook serve` as a user runs it:
/// seeded edits of a small book in two languages, each file written the way an editor saves it.
/// After each save's reloads (the English pages', then the Vietnamese pages'), the folder the
/// server publishes and every file it answers with are byte for byte what a full
/// `workbook build --no-checks` of the same book writes.
@Suite("workbook serve rebuilds as a full build does", .serialized)
struct ServeIncrementalTests {
    @Test(arguments: [1, 3, 4] as [UInt64])
    func seededSavesServeWhatAFullBuildWrites(seed: UInt64) async throws {
        var edits: BookEdits?
        let served = try await ServedSmallBook.start { edits = try BookEdits(root: $0, seed: seed) }
        let (root, server, scratch) = (served.root, served.server, served.folder)
        let book = try #require(edits)
        let events = try RawClient(port: server.port, receiveTimeoutSeconds: 60)
        events.send("GET /_workbook/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(await events.read(until: #""state":"ready""#).contains(#""generation":1"#))

        let session = makeSession()
        defer { session.finishTasksAndInvalidate() }
        var done: [String] = []
        for step in 0...6 {
            if step > 0 {
                let edit = try book.nextEdit()
                done.append(edit.name)
                // A chapter and the summary are two saves: the book between them is in error
                // (a chapter not listed, or listed and gone), which the server reports and keeps
                // the previous site for. The last save of an edit is a whole book again.
                for (number, write) in edit.writes.enumerated() where try write() {
                    let reloaded = #""languages":["vi"]"#
                    let isLast = number == edit.writes.count - 1
                    let markers = isLast ? [reloaded] : [reloaded, #""state":"failed""#]
                    let arrived = await events.read(untilAnyOf: markers, maxBytes: 1 << 22, seconds: 30)
                    try #require(
                        markers.contains(where: arrived.contains),
                        "seed \(seed), after \(done): neither of \(markers) came: \(arrived)")
                }
            }
            let context = "seed \(seed), after \(done)"
            let full = scratch.url.appendingPathComponent("full-\(step)")
            let build = try await CommandRunner.run(
                "workbook", ["build", "--book", root.path, "--no-checks", "--out", full.path],
                in: repositoryRoot)
            // A broken link the edits add is an error (exit status 1); the site is written all the same.
            try #require(
                [0, 1].contains(build.status)
                    && FileManager.default.fileExists(atPath: full.appendingPathComponent("index.html").path),
                "\(context): workbook build wrote no site: \(build.stderr)")

            let served = try #require(
                try Self.publishedFolder(root: root, pid: server.process.pid), "\(context): no site folder")
            let differences = try folderDifferences(served, full)
            #expect(differences == [], "\(context): the published folder differs from a full build")

            var answered: [String] = []
            for (path, bytes) in try filesByPath(in: full).sorted(by: { $0.key < $1.key }) {
                let response = try await send(get("/" + path), port: server.port, session: session)
                // A hidden file (the marker that says a folder is a built site) is never served.
                let isHidden = path.split(separator: "/").contains { $0.hasPrefix(".") }
                if isHidden ? response.status != .notFound : response.status != .ok || response.body != bytes
                {
                    answered.append("\(path) (\(response.status.code))")
                }
            }
            #expect(answered == [], "\(context): served differently from a full build")
            if !differences.isEmpty || !answered.isEmpty { break }
        }
        server.send(SIGTERM)
        #expect(await server.exitStatus(seconds: 10) == 0)
    }

    /// The folder `workbook serve` publishes now: the newest `site-N` it has written (in the
    /// folder of its process, `.build/serve-site/PID`).
    static func publishedFolder(root: URL, pid: Int32) throws -> URL? {
        let folder = root.appendingPathComponent(".build/serve-site/\(pid)")
        let numbers = try FileManager.default.contentsOfDirectory(atPath: folder.path).compactMap {
            $0.hasPrefix("site-") ? Int($0.dropFirst("site-".count)) : nil
        }
        return numbers.max().map { folder.appendingPathComponent("site-\($0)") }
    }
}
