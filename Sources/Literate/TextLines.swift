extension String {
    /// The text's lines: what `split(separator: "\n", omittingEmptySubsequences: false)` gives,
    /// found with a loop over bytes instead of over `Character`s. A line feed always ends a
    /// character, except after a carriage return ("\r\n" is one `Character`, which a split at
    /// "\n" does not cut): a text that holds one takes the `Character` split, so the two never
    /// differ.
    public var lines: [Substring] {
        let bytes = utf8
        guard !bytes.contains(UInt8(ascii: "\r")) else {
            return split(separator: "\n", omittingEmptySubsequences: false)
        }
        var lines: [Substring] = []
        var start = bytes.startIndex
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(self[start..<newline])
            start = bytes.index(after: newline)
        }
        lines.append(self[start...])
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
