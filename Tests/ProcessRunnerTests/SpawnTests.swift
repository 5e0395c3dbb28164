import Foundation
import Testing

@testable import ProcessRunner

/// A program that is still open for writing somewhere cannot be run (`ETXTBSY`). When a test
/// writes a script and runs it at once, a child forked by another thread in between holds the
/// script open until it execs: the start tries again instead of failing
/// (source: "this book: chapter 25, Starting the server").
struct SpawnTests {
    /// A script that exits with 0, and a descriptor that keeps it open for writing.
    final class BusyScript {
        let path: String
        var writer: Int32

        init() throws {
            path =
                FileManager.default.temporaryDirectory.appendingPathComponent(
                    "busy-\(UUID().uuidString).sh"
                ).path
            try Data("#!/bin/sh\nexit 0\n".utf8).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            writer = open(path, O_WRONLY | O_CLOEXEC)
        }

        func close() {
            if writer >= 0 { _ = Foundation.close(writer) }
            writer = -1
        }

        deinit {
            close()
            unlink(path)
        }
    }

    /// Starts `script` while it is held open, `freed` saying whether the first pause closes it;
    /// what the start gave and the pauses it made.
    static func start(_ script: BusyScript, freed: Bool) -> (outcome: Spawn.Outcome, pauses: [Int]) {
        #expect(script.writer >= 0)
        var pauses: [Int] = []
        let outcome = Spawn.start(
            script.path, [], in: nil, environment: [:], output: .discarded, errors: nil,
            pause: { attempt in
                pauses.append(attempt)
                if freed { script.close() }
            })
        return (outcome, pauses)
    }

    @Test func aProgramBusyForAMomentStartsOnASecondTry() throws {
        let script = try BusyScript()
        let (outcome, pauses) = Self.start(script, freed: true)
        guard case .success(let pid) = outcome else {
            Issue.record("expected the second try to start the script, got \(outcome)")
            return
        }
        // The script stays on disk until the shell has read it.
        withExtendedLifetime(script) { #expect(Spawn.waitForExit(pid) == .exited(0)) }
        #expect(pauses == [0])
    }

    @Test func aProgramThatStaysBusyFailsWithETXTBSYAfterBoundedTries() throws {
        let (outcome, pauses) = Self.start(try BusyScript(), freed: false)
        guard case .failure(let code) = outcome else {
            Issue.record("expected ETXTBSY, got \(outcome)")
            return
        }
        #expect(code == ETXTBSY)
        #expect(pauses == Array(0..<(Spawn.busyRetries - 1)))
    }
}
