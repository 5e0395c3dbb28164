import Dispatch
import Foundation

/// Runs blocking work (a socket read, waiting for a child process, a site build) on a thread of
/// its own, so that it never holds one of the few cooperative threads the tests share.
/// (`DispatchQueue.global()` would not do: on Linux it runs on those same threads.)
package func offPool<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// The throwing form of ``offPool(_:)``.
package func offPool<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// Hands values from a background thread (a watcher, a server's handler) to a waiting test.
package final class Mailbox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private let ready = DispatchSemaphore(value: 0)
    private var values: [Value] = []

    package init() {}

    package func put(_ value: Value) {
        lock.withLock { values.append(value) }
        ready.signal()
    }

    /// The next value, waiting off the cooperative pool until one arrives or `timeout` passes.
    package func take(timeout: Duration = .seconds(20)) async -> Value? {
        let seconds = timeout / .seconds(1)
        return await offPool { [self] in
            guard ready.wait(timeout: .now() + seconds) == .success else { return nil }
            return lock.withLock { values.removeFirst() }
        }
    }
}

/// Waits until `condition` holds, looking again every few milliseconds, for at most `timeout`
/// (a passing run waits milliseconds; a busy 2-core machine may need seconds): for a state that
/// sends no event of its own (a status another thread updates, a count a server keeps). The
/// suite's one polling loop; everything else waits on an event.
package func eventually(
    timeout: Duration = .seconds(30), _ condition: @Sendable () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
}

/// A nanosecond clock that moves only when a test moves it: for what takes its time from a
/// `() -> UInt64` (the HTTP server's request-head deadlines).
package final class ManualNanoseconds: @unchecked Sendable {
    private let lock = NSLock()
    private var value: UInt64 = 1_000_000_000

    package init() {}

    package var now: UInt64 { lock.withLock { value } }

    package func advance(milliseconds: UInt64) {
        lock.withLock { value += milliseconds * 1_000_000 }
    }
}
