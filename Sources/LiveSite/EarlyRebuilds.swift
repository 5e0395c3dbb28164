import Foundation

/// The live site's build thread: it starts a save's build while the save still waits out the
/// watcher's quiet period, and hands it over only if the change settles on the look it started
/// from.
///
/// The quiet period (25 ms) stays: a site is published only once a change has stayed the same
/// for it, so an editor's save in several writes never shows half-written. But the build need
/// not wait idle through it. With inotify, the watcher numbers its looks and says which one an
/// event is about to cause (``seen(look:)``); the English build starts at once. When the change
/// settles (``settled(look:)``) on that same look, no file was written in between, and the build
/// read what the settled change holds: it is published as it is. Otherwise (another write came,
/// so another look) it is dropped, and the caller builds again.
///
/// Every build runs on this one thread, the first and the publishing ones too (``perform(_:)``):
/// the caches a build keeps are then made and freed by one thread, as the allocator keeps one
/// arena a thread and does not hand memory freed in one to another (with the English builds on
/// a thread of their own and the rest on the watcher's, the server grew by 14 % over 200 saves
/// instead of 4 %).
///
/// ```swift
/// let early = EarlyRebuilds { builder.buildEnglish() }
/// // the watcher's onSeen:    early.seen(look: 7)
/// // the watcher's onSettled:
/// let prepared = early.settled(look: 7)
/// early.perform { builder.publish(prepared ?? builder.buildEnglish()) }
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
    /// Work handed to the thread by ``perform(_:)``, and whether it is running.
    private var job: (@Sendable () -> Void)?
    private var jobRunning = false
    private var closed = false
    private var started = false

    init(prepare: @escaping @Sendable () -> Prepared) {
        self.prepare = prepare
    }

    /// Look number `look` may see a change that will wait out its quiet period: build from it.
    func seen(look: Int) {
        condition.withLock {
            guard !closed else { return }
            requested = look
            done = nil
            startIfNeeded()
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

    /// Runs `body` on the build thread once it is free, and returns its result. Once closed,
    /// `body` runs on the calling thread. Not from `body` itself, nor ``settled(look:)`` from it:
    /// they wait for the thread that runs it.
    func perform<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
        let box = ResultBox<Result>()
        let handed: Bool = condition.withLock {
            while !closed, job != nil || jobRunning { condition.wait() }
            guard !closed else { return false }
            job = { box.value = body() }
            startIfNeeded()
            condition.broadcast()
            while job != nil || jobRunning { condition.wait() }
            return true
        }
        return handed ? box.value! : body()
    }

    /// No more builds. A build in progress runs to its end: this waits up to `seconds` for it.
    func close(waiting seconds: Double) {
        condition.withLock {
            closed = true
            requested = nil
            condition.broadcast()
            let deadline = Date(timeIntervalSinceNow: seconds)
            while running != nil || jobRunning, condition.wait(until: deadline) {}
        }
    }

    /// Called with the lock held.
    private func startIfNeeded() {
        guard !started else { return }
        started = true
        let thread = Thread { [self] in work() }
        thread.name = "workbook-site-build"
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    private func work() {
        condition.lock()
        while true {
            while requested == nil, job == nil, !closed { condition.wait() }
            if let body = job {
                jobRunning = true
                condition.unlock()
                body()
                condition.lock()
                (job, jobRunning) = (nil, false)
                condition.broadcast()
                continue
            }
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

/// Carries a result from the build thread to the thread waiting for it (under the lock's
/// ordering: written before the job is marked done, read after).
private final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
}
