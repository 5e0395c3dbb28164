import Foundation
import Literate
import MockServer

/// `console`: runs the commands of a terminal transcript against the mock server and compares
/// what they print with what the chapter shows.
///
/// For each chapter the checker starts its own server (in this process, on 127.0.0.1 and a free
/// port, with a fresh data folder, the fixed ``seed`` and a test clock) and runs that chapter's
/// transcripts in book order, one command at a time, with `/bin/sh` in the book's folder. The
/// address a reader types against `./wb serve` (`http://localhost:8080` or
/// `http://127.0.0.1:8080`) is rewritten to the checker's server in every command, and back in
/// the output. A mismatch is an error at the command's line, with a unified diff. The folder
/// holding the running `workbook` comes first on the commands' `PATH`, so a transcript's
/// `workbook doctor …` runs this very build, as `./wb serve`'s reader would run theirs.
///
/// ````markdown
/// ```console {check=console}
/// $ curl -s http://localhost:8080/healthz
/// {"status":"ok"}
/// ```
/// ````
package struct ConsoleChecker: SnippetChecker {
    package var name: String { "console" }

    /// The folder commands run in and the configuration is read from; nil: the nearest folder at
    /// or above the current one that holds `chapters/` (where `workbook check` finds the book).
    var bookFolder: URL?
    /// The server's configuration, relative to the book folder.
    var configurationFile = "config/demo.json"
    /// How long one command may run before it is stopped and reported.
    var commandTimeout: Duration = .seconds(20)
    /// The folder put first on the commands' `PATH`; nil: the folder of the running executable
    /// (under `swift test`, the build folder, which holds `workbook` too).
    var toolFolder: URL? = Bundle.main.executableURL?.deletingLastPathComponent()

    /// Every run hands out the same tokens, so transcripts can show them.
    static let seed: UInt64 = 8
    /// What a reader types to reach `./wb serve` on its default port.
    static let readerAddresses = ["localhost", "127.0.0.1"].map {
        "http://\($0):\(MockServerRuntime.defaultPort)"
    }

    package init(bookFolder: URL?, commandTimeout: Duration = .seconds(20)) {
        (self.bookFolder, self.commandTimeout) = (bookFolder, commandTimeout)
    }

    package func check(_ snippets: [Snippet]) -> [[SnippetFinding]] {
        var findings = Array(repeating: [SnippetFinding](), count: snippets.count)
        var transcripts: [(index: Int, transcript: ConsoleTranscript)] = []
        for (index, snippet) in snippets.enumerated() {
            switch ConsoleTranscript.parse(snippet.block.lines) {
            case .success(let transcript): transcripts.append((index, transcript))
            case .failure(let error):
                findings[index] = [SnippetFinding(.error, line: error.line + 1, error.message)]
            }
        }
        guard !transcripts.isEmpty else { return findings }
        let folder = bookFolder ?? Self.findBookFolder()
        let configurationPath = folder.appendingPathComponent(configurationFile)
        let configuration: ServerConfiguration
        do {
            // The transcripts show the configured keys: the environment must not replace them.
            configuration = try ServerConfiguration.load(from: configurationPath, environment: [:])
        } catch {
            let message =
                FileManager.default.fileExists(atPath: configurationPath.path)
                ? ConsoleMessage.serverFailed(error.description)
                : ConsoleMessage.noConfiguration(configurationPath.path)
            for (index, _) in transcripts { findings[index] = [SnippetFinding(.error, line: 1, message)] }
            return findings
        }
        // One server per chapter, in book order.
        var chapters: [String] = []
        var byChapter: [String: [(index: Int, transcript: ConsoleTranscript)]] = [:]
        for item in transcripts {
            let chapter = snippets[item.index].block.chapter
            if byChapter[chapter] == nil { chapters.append(chapter) }
            byChapter[chapter, default: []].append(item)
        }
        for chapter in chapters {
            let items = byChapter[chapter] ?? []
            let session: ConsoleSession
            switch ConsoleSession.start(configuration: configuration, seed: Self.seed) {
            case .success(let started): session = started
            case .failure(let error):
                for (index, _) in items {
                    findings[index] = [
                        SnippetFinding(.error, line: 1, ConsoleMessage.serverFailed("\(error)"))
                    ]
                }
                continue
            }
            for (index, transcript) in items {
                findings[index] = run(transcript, block: snippets[index].block, session: session, in: folder)
            }
            session.stop()
        }
        return findings
    }

    /// Runs every command of one transcript; one finding per command whose output differs.
    func run(_ transcript: ConsoleTranscript, block: CodeBlock, session: ConsoleSession, in folder: URL)
        -> [SnippetFinding]
    {
        var findings: [SnippetFinding] = []
        for command in transcript.commands {
            let reader = Self.readerAddresses.first { command.text.contains($0) } ?? Self.readerAddresses[0]
            var text = command.text
            for address in Self.readerAddresses {
                text = text.replacingOccurrences(of: address, with: session.baseURL)
            }
            let run = ShellCommand.run(text, in: folder, timeout: commandTimeout, searchFirst: toolFolder)
            let line = command.line + 1
            guard !run.timedOut else {
                findings.append(
                    SnippetFinding(.error, line: line, ConsoleMessage.timedOut(after: commandTimeout)))
                continue
            }
            let output = run.output.replacingOccurrences(of: session.baseURL, with: reader)
            let comparison = OutputComparison(expected: command.expected, actual: output)
            guard !comparison.matches else { continue }
            let diff = comparison.diff(
                expectedName: "\(block.chapter):\(block.contentLine + command.line) (transcript)",
                actualName: "output")
            findings.append(
                SnippetFinding(
                    .error, line: line,
                    ConsoleMessage.outputDiffers(
                        status: run.status, comparedAsJSON: comparison.comparedAsJSON, diff: diff)))
        }
        return findings
    }

    /// The nearest folder at or above the current one that holds `chapters/`.
    static func findBookFolder() -> URL {
        let start = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL
        var folder = start
        while true {
            var isDirectory: ObjCBool = false
            let chapters = folder.appendingPathComponent("chapters").path
            if FileManager.default.fileExists(atPath: chapters, isDirectory: &isDirectory),
                isDirectory.boolValue
            {
                return folder
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return start }
            folder = parent
        }
    }
}
