import Foundation
import Synchronization

/// Remembers what a pure function gave for an input, so that a rebuild after a small change
/// computes again only what the change touched: `workbook serve` weaves the whole book on every
/// save, and most of it is what the previous save computed.
///
/// The key must be the function's whole input (a chapter's path and text, say): a hit returns
/// what was computed for an equal key, so a build with memos gives what a build without them
/// gives. At most `capacity` values are kept; the least recently used goes first.
///
/// ```swift
/// static let parsed = Memo<String, MarkdownNode>(capacity: 256)
/// let tree = parsed.value(for: source) { MarkdownParser.parse(source) }
/// ```
public final class Memo<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    public let capacity: Int
    /// How many versions of one thing (``init(capacity:keeping:of:)``) are kept.
    public let versions: Int
    private let thing: (@Sendable (Key) -> String)?
    private let lock = NSLock()
    private var entries: [Key: (value: Value, used: UInt64)] = [:]
    /// The keys of each thing, the most recently used last.
    private var keysOf: [String: [Key]] = [:]
    private var uses: UInt64 = 0

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        (versions, thing) = (Int.max, nil)
    }

    /// A memo that keeps at most `versions` values for each thing `thing` names (a chapter's
    /// path, say), dropping the least recently used first: every save of a chapter is a new
    /// key, and without this a long session would keep each text the chapter ever had until
    /// `capacity` keys pile up.
    public init(capacity: Int, keeping versions: Int, of thing: @escaping @Sendable (Key) -> String) {
        self.capacity = max(1, capacity)
        (self.versions, self.thing) = (max(1, versions), thing)
    }

    /// Whether the memo remembers even when ``Memos/isEnabled`` is off (for tests, which run
    /// beside tests that turn it off).
    var ignoresSwitch = false

    /// What `compute` gives for `key`: remembered, or computed now (outside the lock, so that
    /// callers on other threads are not held up) and remembered.
    public func value(for key: Key, _ compute: () throws -> Value) rethrows -> Value {
        guard Memos.isEnabled || ignoresSwitch else { return try compute() }
        let remembered: Value? = lock.withLock {
            uses += 1
            guard let entry = entries[key] else { return nil }
            entries[key] = (entry.value, uses)
            if let thing { touch(key, of: thing(key)) }
            return entry.value
        }
        if let remembered { return remembered }
        let value = try compute()
        lock.withLock {
            uses += 1
            entries[key] = (value, uses)
            if let thing { touch(key, of: thing(key)) }
            if entries.count > capacity {
                // Drop the older half at once, so that eviction costs little per value.
                let order = entries.values.map(\.used).sorted()
                let cutoff = order[order.count / 2]
                entries = entries.filter { $0.value.used > cutoff }
                keysOf = keysOf.compactMapValues { keys in
                    let kept = keys.filter { entries[$0] != nil }
                    return kept.isEmpty ? nil : kept
                }
            }
        }
        return value
    }

    /// Makes `key` the most recent version of `name`, and drops the versions past `versions`.
    private func touch(_ key: Key, of name: String) {
        var keys = keysOf[name, default: []]
        keys.removeAll { $0 == key }
        keys.append(key)
        while keys.count > versions { entries[keys.removeFirst()] = nil }
        keysOf[name] = keys
    }

    /// How many values are kept (for tests).
    var count: Int { lock.withLock { entries.count } }
}

extension Memo {
    /// What a throwing `compute` gives for `key`, a failure remembered like a value (a file that
    /// does not parse fails the same way until it changes).
    public func value<Success, Failure: Error>(
        for key: Key, catching compute: () throws(Failure) -> Success
    ) throws(Failure) -> Success where Value == Result<Success, Failure> {
        try value(for: key) { Result { () throws(Failure) in try compute() } }.get()
    }
}

/// The last few values a function gave, for keys that are compared but not worth hashing (a
/// whole book's code blocks: an unchanged block shares its text's storage with the previous
/// build's, so comparing costs little where hashing would read every byte).
public final class RecentValues<Key: Equatable & Sendable, Value: Sendable>: @unchecked Sendable {
    public let capacity: Int
    private let lock = NSLock()
    /// The most recently used last.
    private var entries: [(key: Key, value: Value)] = []

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// What `compute` gives for `key`: remembered, or computed now (outside the lock) and kept.
    public func value(for key: Key, _ compute: () throws -> Value) rethrows -> Value {
        guard Memos.isEnabled else { return try compute() }
        let remembered: Value? = lock.withLock {
            guard let index = entries.lastIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.value
        }
        if let remembered { return remembered }
        let value = try compute()
        lock.withLock {
            entries.append((key, value))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
        return value
    }
}

/// The switch of every ``Memo`` in the process.
public enum Memos {
    /// Off: every memo computes every time (`workbook serve --full-rebuild`).
    public static var isEnabled: Bool {
        get { !disabled.load(ordering: .relaxed) }
        set { disabled.store(!newValue, ordering: .relaxed) }
    }

    private static let disabled = Atomic<Bool>(false)
}

/// A text as a memo's key, hashed and compared as its UTF-8 bytes: `String`'s own hashing
/// normalises Unicode first, which costs more than the work a memo saves on a chapter full of
/// dashes, arrows and Vietnamese.
public struct MemoText: Hashable, Sendable {
    public let text: String
    /// The text's bytes folded into one word (``fold(_:)``), once: a memo's dictionary hashes a
    /// key again to insert it, and compares it with the keys in its bucket.
    private let folded: UInt64

    public init(_ text: String) {
        var text = text
        text.makeContiguousUTF8()
        folded = text.withUTF8 { Self.fold(UnsafeRawBufferPointer($0)) }
        self.text = text
    }

    /// The `Hasher` gets only the folded word: a save hashes each chapter's text in several
    /// memos, and `Hasher` itself (SipHash) costs over ten instructions a byte there. Keys are
    /// still compared whole (`==`), so a collision costs a comparison, never a wrong value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(folded)
    }

    /// A multiply-and-rotate fold of `bytes` (its length included), eight bytes a step, in four
    /// independent lanes so that the multiplications overlap.
    static func fold(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        func step(_ word: UInt64, _ offset: Int) -> UInt64 {
            ((word ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier)
                .rotatedLeft(by: 29)
        }
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (UInt64(bytes.count) &* multiplier, 1, 2, 3)
        var offset = 0
        while offset + 32 <= bytes.count {
            lanes = (
                step(lanes.0, offset), step(lanes.1, offset + 8), step(lanes.2, offset + 16),
                step(lanes.3, offset + 24)
            )
            offset += 32
        }
        var word =
            lanes.0 ^ lanes.1.rotatedLeft(by: 16) ^ lanes.2.rotatedLeft(by: 32) ^ lanes.3.rotatedLeft(by: 48)
        while offset + 8 <= bytes.count {
            word = step(word, offset)
            offset += 8
        }
        var tail: UInt64 = 0
        while offset < bytes.count {
            tail = tail << 8 | UInt64(bytes[offset])
            offset += 1
        }
        return (word ^ tail) &* multiplier
    }

    public static func == (lhs: MemoText, rhs: MemoText) -> Bool {
        guard lhs.folded == rhs.folded else { return false }
        var (left, right) = (lhs.text, rhs.text)
        return left.withUTF8 { a in
            right.withUTF8 { b in MemoBytes.equal(UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(b)) }
        }
    }
}

/// Bytes as a memo's key, hashed and compared like ``MemoText``'s (a page's UTF-8 text, say,
/// without making a `String` of it again).
public struct MemoBytes: Hashable, Sendable {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.withUnsafeBytes { MemoText.fold($0) })
    }

    public static func == (lhs: MemoBytes, rhs: MemoBytes) -> Bool {
        lhs.bytes.withUnsafeBytes { a in rhs.bytes.withUnsafeBytes { b in equal(a, b) } }
    }

    /// Whether two buffers hold the same bytes: at once when they are the same storage (a text
    /// a rebuild kept), else with `memcmp`, which compares a page's text far faster than a loop.
    public static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let left = a.baseAddress, let right = b.baseAddress, left != right else { return true }
        return memcmp(left, right, a.count) == 0
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(by count: UInt64) -> UInt64 {
        self << count | self >> (64 - count)
    }
}
