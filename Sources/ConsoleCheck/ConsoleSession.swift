import Dispatch
import Foundation
import HTTPCore
import Lab
import MockServer
import Simulator

/// The mock server one chapter's transcripts run against: in this process, on 127.0.0.1 and a
/// free port, with a fresh data folder, a fixed seed and a test clock. Every command of the
/// chapter talks to the same server, so a link one command creates is there for the next;
/// the next chapter gets a new server.
///
/// ```swift
/// let session = try ConsoleSession.start(configuration: demo, seed: 8).get()
/// session.baseURL  // http://127.0.0.1:41873
/// session.stop()
/// ```
package final class ConsoleSession: @unchecked Sendable {
    let runtime: MockServerRuntime
    let baseURL: String
    /// The server's data folder.
    let folder: URL

    private init(runtime: MockServerRuntime, baseURL: String, folder: URL) {
        (self.runtime, self.baseURL, self.folder) = (runtime, baseURL, folder)
    }

    /// Starts a server. Blocks the calling thread, which must not be one of Swift's cooperative
    /// threads: `workbook check` runs on the main thread; tests call this from a Dispatch queue.
    static func start(configuration: ServerConfiguration, seed: UInt64) -> Result<
        ConsoleSession, StartFailure
    > {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "workbook-console-\(UUID().uuidString)")
        var options = MockServerRuntime.Options(configuration: configuration, dataDirectory: folder)
        options.host = "127.0.0.1"
        options.port = 0
        options.testClock = true
        options.seed = seed
        options.logRequests = false
        options.logger = .silent
        options.routeProviders = [SimulatorRoutes(), LabRoutes()]
        let runtime = MockServerRuntime(options: options)
        let started = blocking { () async -> Result<String, StartFailure> in
            do throws(MockServerRuntime.StartError) {
                return .success(try await runtime.start())
            } catch {
                return .failure(StartFailure(description: error.description))
            }
        }
        switch started {
        case .success(let baseURL):
            return .success(ConsoleSession(runtime: runtime, baseURL: baseURL, folder: folder))
        case .failure(let error):
            try? FileManager.default.removeItem(at: folder)
            return .failure(error)
        }
    }

    /// Stops the server and removes its data folder.
    func stop() {
        let runtime = self.runtime
        blocking { await runtime.stop(gracePeriod: .seconds(2)) }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs async work to completion from synchronous code.
    private static func blocking<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value {
        let box = Box<Value>()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await work()
            done.signal()
        }
        done.wait()
        return box.value!
    }

    private func blocking(_ work: @escaping @Sendable () async -> Void) {
        Self.blocking(work) as Void
    }

    /// Why the server did not start, in words.
    struct StartFailure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    /// Carries a value from the task to the waiting thread; the semaphore orders the accesses.
    private final class Box<Value>: @unchecked Sendable {
        var value: Value?
    }
}
