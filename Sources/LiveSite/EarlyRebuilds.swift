import Foundation

/// Starts a save's build while the save still waits out the watcher's quiet period, and hands
/// it over only if the change settles on the look it started from.
///
/// The quiet period (25 ms) stays: a site is published only once a change has stayed the same
/// for it, so an editor's save in several writes never shows half-written. But the build need
/// not wait idle through it. With inotify, the watcher numbers its looks and says which one saw a
/// change (``seen(look:)``); the English build starts from it on a thread of its own. When the
/// change settles (``settled(look:)``) on that same look, no file was written in between, and
/// the build read what the settled change holds: it is published as it is. Otherwise (another
/// write came, so another look) it is dropped, and the caller builds again.
///
/// ```swift
/// let early = EarlyRebuilds { builder.buildEnglish() }
/// // the watcher's onSeen:    early.seen(look: 7)
/// // the watcher's onSettled: builder.publish(early.settled(look: 7) ?? builder.buildEnglish())
/// ```
///
/// A build started for a look that is then superseded runs to its end (nothing in the build can
/// stop half-way), and a newer request waits for it; only the latest request is kept.
final class EarlyRebuilds<Prepared: Sendable>: @unchecked Sendable {
    private let prepare: @Sendable () -> Prepared
    private let condition = NSCondition()
    /// The look to build from next, once the thread is free.
    private var requested: Int?
    /// The look being built from now.
    private var running: Int?
    private var done: (look: Int, prepared: Prepared)?
    private var closed = false
    private var started = false

    init(prepare: @escaping @Sendable () -> Prepared) {
        self.prepare = prepare
    }

    /// Look number `look` saw a change that now waits out its quiet period: build from it.
    func seen(look: Int) {
        condition.withLock {
            guard !closed else { return }
            requested = look
            done = nil
            if !started {
                started = true
                let thread = Thread { [self] in work() }
                thread.name = "workbook-site-early-build"
                thread.qualityOfService = .userInitiated
                thread.start()
            }
            condition.broadcast()
        }
    }

    /// The change settled on look `look`: what was built from it (waiting for a build in
    /// progress), or nil when nothing was (the caller builds now). A build from another look
    /// is dropped.
    func settled(look: Int) -> Prepared? {
        condition.withLock {
            if requested != look { requested = nil }
            while !closed, running != nil || requested != nil { condition.wait() }
            let built = done
            done = nil
            return built?.look == look ? built?.prepared : nil
        }
    }

    /// No more builds. A build in progress runs to its end: this waits up to `seconds` for it.
    func close(waiting seconds: Double) {
        condition.withLock {
            closed = true
            requested = nil
            condition.broadcast()
            let deadline = Date(timeIntervalSinceNow: seconds)
            while running != nil, condition.wait(until: deadline) {}
        }
    }

    private func work() {
        condition.lock()
        while true {
            while requested == nil, !closed { condition.wait() }
            guard !closed, let look = requested else { break }
            (requested, running) = (nil, look)
            condition.unlock()
            let prepared = prepare()
            condition.lock()
            running = nil
            // A request that came meanwhile makes this build stale.
            if requested == nil { done = (look, prepared) }
            condition.broadcast()
        }
        condition.unlock()
    }
}
