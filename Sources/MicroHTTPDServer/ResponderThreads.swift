import Foundation

/// The threads that run responders, apart from Swift's cooperative pool.
///
/// On Linux the cooperative pool is as wide as the machine has cores, and it shares its queue
/// with `DispatchQueue.global()`. A program that keeps those threads busy (a site build, a test
/// suite, a synchronous subprocess) would otherwise leave every request waiting for a free
/// thread, long enough for clients to time out. A responder's task prefers these threads
/// instead (SE-0417 task executor preference); the actors and continuations it awaits follow
/// it here.
final class ResponderThreads: TaskExecutor, @unchecked Sendable {
    /// Shared by every server of a process; the threads live as long as the process.
    static let shared = ResponderThreads(count: max(4, ProcessInfo.processInfo.activeProcessorCount))

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var next = 0

    private init(count: Int) {
        for index in 0..<count {
            let thread = Thread { [self] in run() }
            thread.name = "http-responder-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    private func run() {
        while true {
            let job = condition.withLock {
                while next == jobs.count { condition.wait() }
                let job = jobs[next]
                next += 1
                // Drop the finished prefix once it outweighs the waiting jobs.
                if next > 64, next * 2 > jobs.count {
                    jobs.removeFirst(next)
                    next = 0
                }
                return job
            }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
