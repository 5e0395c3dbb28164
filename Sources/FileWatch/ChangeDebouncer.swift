/// Decides when a change is worth a rebuild, from snapshots and the times they were taken.
///
/// An editor's save can take several writes (a temporary file, a rename, a second write of the
/// metadata); rebuilding on the first would weave a half-saved chapter. So a new snapshot
/// becomes a rebuild only once it has stayed the same for `quietPeriod`. Pure: tests feed it
/// snapshots and times.
///
/// ```swift
/// var debouncer = ChangeDebouncer(initial: snapshot, quietPeriod: 0.03)
/// debouncer.observe(edited, at: 1.00)   // nil: just seen
/// debouncer.observe(edited, at: 1.04)   // ["chapters/08-the-track-open-protocol.md"]: rebuild
/// ```
package struct ChangeDebouncer: Sendable {
    var quietPeriod: Double
    /// What the last rebuild saw.
    private(set) var settled: FolderSnapshot
    private var candidate: FolderSnapshot?
    private var candidateSince = 0.0

    package init(initial: FolderSnapshot, quietPeriod: Double) {
        (self.settled, self.quietPeriod) = (initial, quietPeriod)
    }

    /// True while a change waits out its quiet period (the watcher then looks again sooner).
    var isWaiting: Bool { candidate != nil }

    /// How long the change seen waits still to settle at `time`; nil when none waits.
    func remainingQuiet(at time: Double) -> Double? {
        candidate == nil ? nil : quietPeriod - (time - candidateSince)
    }

    /// Feeds one snapshot; returns the changed paths when a rebuild should start now.
    package mutating func observe(_ snapshot: FolderSnapshot, at time: Double) -> [String]? {
        if snapshot == settled {
            candidate = nil
            return nil
        }
        guard snapshot == candidate else {
            candidate = snapshot
            candidateSince = time
            return nil
        }
        guard time - candidateSince >= quietPeriod else { return nil }
        let changed = snapshot.changedPaths(since: settled)
        settled = snapshot
        candidate = nil
        return changed
    }
}
