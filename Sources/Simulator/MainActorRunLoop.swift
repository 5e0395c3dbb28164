import Dispatch
import Foundation

/// Runs async work from a synchronous main thread while that thread keeps serving the main actor.
///
/// The simulator's sessions run the client SDK, whose resolver lives on the main actor, as it
/// does in an app. A command that parks the main thread on a semaphore while its server runs
/// leaves the main actor without a thread, and every simulator request would wait forever.
/// This runs the main run loop instead, which also drains the main dispatch queue where the
/// main actor's jobs are enqueued, until the work is done.
///
/// ```swift
/// // In a synchronous command, on the main thread:
/// let code = MainActorRunLoop.run { await serve(options, console: console) }
/// ```
public enum MainActorRunLoop {
    public static func run<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value {
        let result = ResultBox<Value>()
        Task {
            result.set(await work())
            // Wake the run loop, which may be waiting for its next source.
            DispatchQueue.main.async {}
        }
        while true {
            if let value = result.value { return value }
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.5))
        }
    }

    private final class ResultBox<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Value?

        var value: Value? {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }

        func set(_ value: Value) {
            lock.lock()
            defer { lock.unlock() }
            stored = value
        }
    }
}
