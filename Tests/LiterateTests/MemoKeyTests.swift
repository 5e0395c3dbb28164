import Foundation
import Testing

@testable import Literate

/// Memo keys hash a text by folding its bytes, and compare it whole: equal texts are equal keys,
/// and a text that differs in one byte, or only in length, is another key.
struct MemoKeyTests {
    static let text =
        "Một liên kết — a link: https://example.test/x?y=1\n" + String(repeating: "ab", count: 40)

    @Test func equalTextsAreEqualKeysWithEqualHashes() {
        let copy = String(decoding: Array(Self.text.utf8), as: UTF8.self)
        #expect(MemoText(Self.text) == MemoText(copy))
        #expect(MemoText(Self.text).hashValue == MemoText(copy).hashValue)
        #expect(MemoBytes(Array(Self.text.utf8)) == MemoBytes(Array(copy.utf8)))
        #expect(MemoBytes(Array(Self.text.utf8)).hashValue == MemoBytes(Array(copy.utf8)).hashValue)
    }

    /// Every position of the text, the last few bytes (the fold's tail) included: a change of one
    /// byte changes the folded word, so the two keys go to different hashes, not only `==`.
    @Test func oneChangedByteAnywhereChangesTheFold() {
        let bytes = Array(Self.text.utf8)
        let original = bytes.withUnsafeBytes { MemoText.fold($0) }
        var same: [Int] = []
        for index in bytes.indices {
            var changed = bytes
            changed[index] ^= 0x01
            if changed.withUnsafeBytes({ MemoText.fold($0) }) == original { same.append(index) }
            #expect(MemoBytes(changed) != MemoBytes(bytes))
        }
        #expect(same == [])
    }

    @Test func lengthCountsEvenForZeroBytes() {
        let folds = (0..<20).map {
            Array(repeating: UInt8(0), count: $0).withUnsafeBytes { MemoText.fold($0) }
        }
        #expect(Set(folds).count == folds.count)
        #expect(MemoBytes([]) == MemoBytes([]))
        #expect(MemoText("") != MemoText("\0"))
    }
}

/// A memo that keeps a few versions of each thing drops the least recently used version of that
/// thing, and no other thing's.
struct MemoVersionsTests {
    struct Key: Hashable, Sendable {
        var path: String
        var text: String
    }

    @Test func eachThingKeepsItsMostRecentlyUsedVersions() {
        let memo = Memo<Key, String>(capacity: 100, keeping: 2) { $0.path }
        memo.ignoresSwitch = true
        let computed = Computed()
        func value(_ path: String, _ text: String) -> String {
            memo.value(for: Key(path: path, text: text)) {
                computed.add("\(path):\(text)")
                return text.uppercased()
            }
        }
        #expect([value("a", "one"), value("a", "two"), value("b", "one")] == ["ONE", "TWO", "ONE"])
        _ = value("a", "one")  // a hit: "one" is now a's most recent version
        _ = value("a", "three")  // a keeps "one" and "three"; "two" goes
        #expect(memo.count == 3)
        _ = value("a", "one")
        _ = value("b", "one")
        _ = value("a", "two")
        #expect(computed.names == ["a:one", "a:two", "b:one", "a:three", "a:two"])
    }

    final class Computed: @unchecked Sendable {
        private(set) var names: [String] = []
        func add(_ name: String) { names.append(name) }
    }
}
