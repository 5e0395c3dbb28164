import Foundation
import Literate
import Testing

@testable import ConsoleCheck

/// The default port is declared once (`MockServerRuntime.defaultPort`), but a reader copies the
/// addresses on it from the book, so the book writes them out. These tests hold every such copy
/// to the declaration, by way of the addresses the console checker rewrites.
struct DefaultPortTests {
    static let repository = ConsoleCheckerTests.repository

    /// `http://localhost:N` and `http://127.0.0.1:N`, with or without the scheme.
    static let loopback = try! NSRegularExpression(
        pattern: #"(?:https?://)?(?:localhost|127\.0\.0\.1):[0-9]+"#)

    /// Every loopback address of `text`, with `http://` in front where it was left out.
    static func addresses(in text: String) -> [String] {
        let range = NSRange(text.startIndex..., in: text)
        return loopback.matches(in: text, range: range).map { match in
            let address = String(text[Range(match.range, in: text)!])
            return address.hasPrefix("http") ? address : "http://" + address
        }
    }

    /// The checker's addresses are `localhost` and `127.0.0.1` on one port, the declared default
    /// (`ConsoleChecker.readerAddresses` is made from it).
    @Test func theCheckerRewritesOnePortOnBothLoopbackNames() throws {
        let components = try ConsoleChecker.readerAddresses.map { try #require(URLComponents(string: $0)) }
        #expect(components.map(\.host) == ["localhost", "127.0.0.1"])
        #expect(Set(components.map(\.port)).count == 1)
        #expect(components.allSatisfy { $0.scheme == "http" && $0.path.isEmpty && $0.port != nil })
    }

    /// A transcript on another port would run against nothing: the checker rewrites only the
    /// default's addresses.
    @Test func everyCheckedTranscriptReachesTheServerOnTheDefaultPort() throws {
        let book = try Book.load(root: Self.repository, inlines: false)
        let blocks = CodeBlockCollector.collect(book).blocks.filter { $0.attributes.checker == "console" }
        #expect(!blocks.isEmpty)
        var found = 0
        var elsewhere: [String] = []
        for block in blocks {
            for (index, line) in block.lines.enumerated() {
                for address in Self.addresses(in: line) {
                    found += 1
                    if !ConsoleChecker.readerAddresses.contains(address) {
                        elsewhere.append("\(block.chapter):\(block.contentLine + index): \(address)")
                    }
                }
            }
        }
        #expect(elsewhere == [])
        #expect(found > 0)
    }

    /// The README, the chapters' prose, the simulator page and the demo configuration's
    /// `siteOrigin` name the server `./wb serve` starts. (Code blocks that are not checked
    /// transcripts may show other servers: chapter 3's `python3 -m http.server 8000`.)
    @Test func theReadmeTheProseAndTheDemoNameTheDefaultPort() throws {
        var places: [(file: String, text: String)] = []
        for file in ["README.md", "site/simulator.md", "config/demo.json"] {
            places.append(
                (file, try String(contentsOf: Self.repository.appendingPathComponent(file), encoding: .utf8)))
        }
        let book = try Book.load(root: Self.repository, inlines: false)
        let blocks = CodeBlockCollector.collect(book).blocks
        for chapter in book.chapters {
            // The prose: every line outside the chapter's code blocks.
            var lines = chapter.source.components(separatedBy: "\n")
            for block in blocks where block.chapter == chapter.path {
                // A fenced block ends at its closing fence, an indented one at its last line.
                let last = min(lines.count, block.contentLine + block.lines.count - (block.isFenced ? 0 : 1))
                for line in block.location.line...last { lines[line - 1] = "" }
            }
            places.append((chapter.path, lines.joined(separator: "\n")))
        }
        var elsewhere: [String] = []
        var named = 0
        for place in places {
            for address in Self.addresses(in: place.text) {
                named += 1
                if !ConsoleChecker.readerAddresses.contains(address) {
                    elsewhere.append("\(place.file): \(address)")
                }
            }
        }
        #expect(elsewhere == [])
        #expect(named > 0)
    }
}
