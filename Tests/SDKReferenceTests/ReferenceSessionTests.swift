import CommandLineKit
import Foundation
import MockServer
import TestSupport
import Testing

@testable import SDKReference

/// `workbook serve --reference` builds the reference in a child process and reports its end to the
/// page that serves `/reference/` (source: "this book: chapter 09, The surface at a glance")
/// (source: "this book: the live site serves the API reference under /reference"). A script stands
/// in for `workbook reference`, so each ending can be played.
struct ReferenceSessionTests {
    static let address = "http://127.0.0.1:8080"

    /// A book folder whose `workbook` is `script` (a shell script), and a console whose lines on
    /// standard error arrive in a mailbox.
    final class Fixture: @unchecked Sendable {
        let folder: URL
        var settings: ReferenceSession.Settings
        let live = LiveReference()
        let errors = Mailbox<String>()
        private let lock = NSLock()
        private var printed: [String] = []
        var out: [String] { lock.withLock { printed } }
        lazy var console = Console(
            out: { [unowned self] text in lock.withLock { printed.append(text) } },
            err: { [unowned self] text in errors.put(text) })

        init(script: String?) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "reference-session-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            settings = ReferenceSession.Settings(bookRoot: folder)
            let executable = folder.appendingPathComponent("workbook")
            settings.executable = executable
            if let script {
                try Data("#!/bin/sh\n\(script)\n".utf8).write(to: executable)
                try FileManager.default.setAttributes(
                    [.posixPermissions: 0o755], ofItemAtPath: executable.path)
            }
        }

        func start() -> ReferenceSession? {
            ReferenceSession.start(
                settings, live: live, address: ReferenceSessionTests.address, console: console)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    @Test func aBuildThatSucceedsServesTheFolderAndRepeatsItsSummary() async throws {
        let fixture = try Fixture(script: #"echo "reference: 748 public declarations""#)
        let session = try #require(fixture.start(), "\(fixture.live.state)")
        #expect(
            fixture.out == [
                "reference: http://127.0.0.1:8080/reference/documentation/li2sdk/ (the SDK's API reference, "
                    + "built once in the background; log in .build/reference.log)\n"
            ])
        #expect(
            await fixture.errors.take()
                == "reference: ready at http://127.0.0.1:8080/reference/documentation/li2sdk/\n")
        #expect(await fixture.errors.take() == "  748 public declarations\n")
        #expect(fixture.live.state == .ready(folder: fixture.settings.outputFolder))
        session.stop()
    }

    @Test func aBuildThatFailsShowsItsErrorOnThePage() async throws {
        let fixture = try Fixture(
            script: "echo building; echo 'error: docc failed' >&2; echo '  at line 3' >&2; exit 1")
        let session = try #require(fixture.start(), "\(fixture.live.state)")
        #expect(
            await fixture.errors.take()
                == "reference: workbook reference failed (exit status 1); see .build/reference.log\n")
        #expect(fixture.live.state == .failed(reason: "error: docc failed\n  at line 3"))
        session.stop()
    }

    @Test func aBuildKilledByAnotherHandIsAFailureWithItsLastLines() async throws {
        let fixture = try Fixture(script: "echo compiling; kill -9 $$")
        let session = try #require(fixture.start(), "\(fixture.live.state)")
        #expect(
            await fixture.errors.take()
                == "reference: workbook reference failed (exit status 137); see .build/reference.log\n")
        #expect(fixture.live.state == .failed(reason: "compiling"))
        session.stop()
    }

    @Test func stoppingTheServerEndsTheBuildQuietly() async throws {
        let fixture = try Fixture(script: "echo started; exec sleep 600")
        let session = try #require(fixture.start(), "\(fixture.live.state)")
        await offPool { session.stop() }
        #expect(fixture.live.state == .building)
        #expect(await fixture.errors.take(timeout: .zero) == nil)
    }

    @Test func aWorkbookThatCannotRunIsAFailureSaidAtOnce() async throws {
        let fixture = try Fixture(script: nil)
        #expect(fixture.start() == nil)
        #expect(
            fixture.live.state == .failed(reason: "cannot run workbook reference (No such file or directory)")
        )
        #expect(
            await fixture.errors.take()
                == "reference: cannot run workbook reference (No such file or directory)\n")
    }
}
