// A stand-alone process for the event store's crash and throughput tests.
//
//   EventLogProbe append <db> <processCrash|powerLoss> <tasks> <max-events>
//       appends from <tasks> concurrent tasks, printing "ack <id>" for every append that
//       returned; the test kills it with SIGKILL and checks every acknowledged id survived.
//   EventLogProbe bench <db> <processCrash|powerLoss> <tasks> <events> <max-batch>
//       appends <events> events and prints one line of throughput figures.
import EventLog
import Foundation

@main
struct EventLogProbe {
    static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count >= 6, let mode = SQLiteEventStore.Durability(rawValue: arguments[3]),
            let tasks = Int(arguments[4]), let events = Int(arguments[5])
        else {
            FileHandle.standardError.write(
                Data("usage: EventLogProbe append|bench DB DURABILITY TASKS EVENTS [BATCH]\n".utf8))
            exit(64)
        }
        let batch = arguments.count > 6 ? Int(arguments[6]) ?? 512 : 512
        do {
            let store = try SQLiteEventStore(path: arguments[2], durability: mode, maxBatch: batch)
            switch arguments[1] {
            case "append":
                try await appendAndAcknowledge(store: store, tasks: tasks, events: events)
            case "bench":
                try await bench(store: store, tasks: tasks, events: events, batch: batch)
            default:
                exit(64)
            }
            await store.close()
        } catch {
            FileHandle.standardError.write(Data("EventLogProbe: \(error)\n".utf8))
            exit(1)
        }
    }

    static func appendAndAcknowledge(store: SQLiteEventStore, tasks: Int, events: Int) async throws {
        let perTask = max(1, events / max(1, tasks))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for index in 0..<perTask {
                        let json = Data(#"{"task":\#(task),"index":\#(index)}"#.utf8)
                        let stored = try await store.append(NewEvent(type: "probe", at: Date(), json: json))
                        // One write(2) per line, so lines from different tasks never interleave.
                        FileHandle.standardOutput.write(Data("ack \(stored.id)\n".utf8))
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    static func bench(store: SQLiteEventStore, tasks: Int, events: Int, batch: Int) async throws {
        let perTask = max(1, events / max(1, tasks))
        let clock = ContinuousClock()
        let started = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for index in 0..<perTask {
                        let json = Data(#"{"task":\#(task),"index":\#(index)}"#.utf8)
                        try await store.append(NewEvent(type: "bench", at: Date(), json: json))
                    }
                }
            }
            try await group.waitForAll()
        }
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let total = perTask * tasks
        print(
            "\(store.durability.rawValue) tasks=\(tasks) batch=\(batch) events=\(total) commits=\(store.commitCount) "
                + "seconds=\(String(format: "%.3f", seconds)) events/s=\(Int(Double(total) / seconds))")
    }
}
