import CommandLineKit
import Dispatch
import FileWatch
import Foundation
import MockServer
import SystemErrors

/// The live site's moving parts while `workbook serve` runs: the watcher (whose thread does the
/// first build, then every rebuild), the background checks, and the heartbeat that keeps event
/// streams alive.
///
/// ```swift
/// let session = LiveSiteSession.start(settings, live: live, console: console)
/// ...
/// session?.stop()   // before the server stops
/// ```
package final class LiveSiteSession: @unchecked Sendable {
    /// How often a comment goes down every open event stream.
    static let heartbeatInterval = 15.0

    /// Folders never looked into: an exercise's `Work/` copy and build products change often and
    /// are not part of the site.
    /// Beside the hidden folders (`.build`, `.git`), which a watch always skips.
    package static let skippedFolders: Set<String> = ["Work", "node_modules"]

    let builder: LiveSiteBuilder
    let watcher: FolderWatcher
    private let early: EarlyRebuilds<LiveSiteBuilder.EnglishBuild>
    private let heartbeat: any DispatchSourceTimer

    private init(
        builder: LiveSiteBuilder, watcher: FolderWatcher, early: EarlyRebuilds<LiveSiteBuilder.EnglishBuild>,
        heartbeat: any DispatchSourceTimer
    ) {
        (self.builder, self.watcher, self.early, self.heartbeat) = (builder, watcher, early, heartbeat)
    }

    /// Starts building and watching; nil when there is no site to serve.
    package static func start(_ settings: LiveSiteBuilder.Settings?, live: LiveSite?, console: Console)
        -> LiveSiteSession?
    {
        guard let settings, let live else { return nil }
        let builder = LiveSiteBuilder(settings: settings, live: live)
        removeStaleFolders(next: settings.outputFolder)
        // Every build runs on one thread, and a save's English build starts there while the
        // save waits out its quiet period.
        let early = EarlyRebuilds { builder.buildEnglish() }
        let build: @Sendable (String, _ look: Int?) -> Void = { reason, look in
            let clock = ContinuousClock()
            let started = clock.now
            let prepared = look.flatMap { early.settled(look: $0) }
            let diagnostics = early.perform { builder.publish(prepared ?? builder.buildEnglish()) }
            let elapsed = (clock.now - started).components
            let milliseconds = elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
            let errors = diagnostics.filter { $0.severity == .error }.count
            console.error(
                "site: \(reason) in \(milliseconds) ms\(prepared == nil ? "" : " (English built early)"), "
                    + "generation \(live.status.generation), \(errors) errors"
            )
            for line in builder.lastWork { console.error("site: \(line)") }
            for diagnostic in diagnostics where diagnostic.severity == .error {
                console.error("  \(diagnostic.description)")
            }
            builder.requestChecks()
        }
        let folders = builder.watchedFolders
        console.error("site: a save in \(folders.joined(separator: ", ")) rebuilds it")
        let watcher = FolderWatcher(
            root: settings.bookRoot, folders: folders, skipping: skippedFolders,
            onSeen: { early.seen(look: $0) },
            onSettled: { changed, look in
                let shown = changed.prefix(2).joined(separator: ", ") + (changed.count > 2 ? ", ..." : "")
                build("rebuilt after a change to \(shown)", look)
            })
        watcher.start {
            do {
                try builder.prepare()
            } catch {
                console.error(
                    "site: \(settings.outputFolder.path): cannot prepare the folder (\(SystemError.describe(error)))"
                )
            }
            build("built", nil)
        }
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + heartbeatInterval, repeating: heartbeatInterval)
        timer.setEventHandler { live.sendHeartbeat() }
        timer.resume()
        return LiveSiteSession(builder: builder, watcher: watcher, early: early, heartbeat: timer)
    }

    /// Stops rebuilding and checking, and removes this run's site folders. A build in progress
    /// is given a moment; the process is about to exit anyway.
    package func stop() {
        heartbeat.cancel()
        builder.close()
        watcher.stop(timeout: 1)
        early.close(waiting: 1)
        try? FileManager.default.removeItem(at: builder.settings.outputFolder)
    }

    /// Each run builds into `serve-site/PID`; folders of runs whose process is gone are removed.
    static func removeStaleFolders(next folder: URL) {
        let parent = folder.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        for name in names where name != folder.lastPathComponent {
            guard let pid = Int32(name), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }
}
