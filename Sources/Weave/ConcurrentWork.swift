import Foundation

/// `map` over independent work on all cores, keeping the input order.
enum ConcurrentWork {
    static func map<Input: Sendable, Output: Sendable>(
        _ inputs: [Input], _ transform: @Sendable (Input) -> Output
    )
        -> [Output]
    {
        guard inputs.count > 1 else { return inputs.map(transform) }
        let results = ResultBox<Output>(count: inputs.count)
        DispatchQueue.concurrentPerform(iterations: inputs.count) { index in
            results.set(index, transform(inputs[index]))
        }
        return results.values.map { $0! }
    }
}

private final class ResultBox<Element>: @unchecked Sendable {
    private var storage: [Element?]
    private let lock = NSLock()

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Element) { lock.withLock { storage[index] = value } }

    var values: [Element?] { lock.withLock { storage } }
}
