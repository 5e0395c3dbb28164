import Foundation

extension String {
    /// The text's lines: what `split(separator: "\n", omittingEmptySubsequences: false)` gives,
    /// found with `memchr` over the UTF-8 bytes instead of over `Character`s. A line feed always
    /// ends a character, except after a carriage return ("\r\n" is one `Character`, which a split
    /// at "\n" does not cut): a text that holds one takes the `Character` split, so the two never
    /// differ.
    public var lines: [Substring] {
        var text = self
        let offsets: [Int]? = text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return [] }
            guard memchr(base, Int32(UInt8(ascii: "\r")), bytes.count) == nil else { return nil }
            var newlines: [Int] = []
            var start = 0
            while start < bytes.count,
                let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
            {
                let offset = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                newlines.append(offset)
                start = offset + 1
            }
            return newlines
        }
        guard let offsets else { return split(separator: "\n", omittingEmptySubsequences: false) }
        let bytes = text.utf8
        var lines: [Substring] = []
        lines.reserveCapacity(offsets.count + 1)
        var start = bytes.startIndex
        for offset in offsets {
            let newline = bytes.index(bytes.startIndex, offsetBy: offset)
            lines.append(text[start..<newline])
            start = bytes.index(after: newline)
        }
        lines.append(text[start...])
        return lines
    }
}

extension String {
    /// A path's components: what `split(separator: "/")` gives (empty ones dropped), found over
    /// bytes, as the file system splits a path (`/` is ASCII), instead of over `Character`s,
    /// which costs more than the `stat` calls a path is checked with.
    public var slashSeparated: [Substring] {
        utf8.split(separator: UInt8(ascii: "/")).map { Substring($0) }
    }
}

extension StringProtocol {
    /// Whether `needle` occurs in the text, compared as UTF-8 bytes, as a search of a file's
    /// bytes would: `memchr` finds each candidate first byte, `memcmp` the rest. Foundation's
    /// `contains` normalises Unicode and walks the whole text through `range(of:)`, thousands of
    /// instructions a call.
    public func containsBytes(_ needle: String) -> Bool {
        let found = utf8.withContiguousStorageIfAvailable { haystack in
            var needle = needle
            return needle.withUTF8 { Self.search(haystack, for: $0) }
        }
        if let found { return found }
        // A text without contiguous UTF-8 (a bridged one) is made so first.
        var text = String(self)
        var needle = needle
        return text.withUTF8 { haystack in needle.withUTF8 { Self.search(haystack, for: $0) } }
    }

    private static func search(_ haystack: UnsafeBufferPointer<UInt8>, for wanted: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        guard let first = wanted.first else { return true }
        guard haystack.count >= wanted.count, let base = haystack.baseAddress,
            let wantedBase = wanted.baseAddress
        else { return false }
        let lastStart = haystack.count - wanted.count
        var index = 0
        while index <= lastStart {
            guard let found = memchr(base + index, Int32(first), lastStart - index + 1) else { return false }
            let start = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + start, wantedBase, wanted.count) == 0 { return true }
            index = start + 1
        }
        return false
    }
}

extension StringProtocol {
    /// What `trimmingCharacters(in: .whitespacesAndNewlines)` gives, found by looking only at
    /// the scalars it removes from each end; Foundation's copies and walks the whole text (over
    /// 100,000 instructions for a paragraph of a chapter).
    public var trimmingWhitespaceAndNewlines: String {
        let scalars = unicodeScalars
        let set = CharacterSet.whitespacesAndNewlines
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, set.contains(scalars[start]) { start = scalars.index(after: start) }
        while end > start {
            let before = scalars.index(before: end)
            guard set.contains(scalars[before]) else { break }
            end = before
        }
        return String(decoding: utf8[start..<end], as: UTF8.self)
    }
}
