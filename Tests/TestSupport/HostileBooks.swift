/// Chapters written to exhaust a tangler that trusts its input: what every entry point that reads
/// chapters (`tangle`, `build`, a served book) must answer with an error, not a crash.
package enum HostileBooks {
    /// A file block that includes `c0`, which includes `c1`, and so on down to `c<levels - 1>`:
    /// a recursive expander needs one stack frame per level.
    ///
    /// The file's reference is on line 4; chunk `cN`'s block starts on line `7 + 4 × N`, so its
    /// reference to the next is on line `8 + 4 × N`.
    package static func deepNesting(levels: Int, file: String = "Sources/Deep/Deep.swift") -> String {
        var text = "# Deep\n\n```swift {file=\(file)}\n<<c0>>\n```\n\n"
        for level in 0..<levels {
            let body = level + 1 < levels ? "<<c\(level + 1)>>" : "let deepest = \(level)"
            text += "```swift {#c\(level)}\n\(body)\n```\n\n"
        }
        return text
    }

    /// A file block that includes `c0`, and each chunk includes the next twice, down to one line
    /// in `c<levels - 1>`: 2^(levels - 1) lines from a chapter of a few kilobytes. The file's
    /// reference is on line 6.
    package static func fanOut(levels: Int, file: String = "Sources/Fan/Fan.swift") -> String {
        var text =
            "# Fan-out\n\nEach chunk includes the next one twice.\n\n```swift {file=\(file)}\n<<c0>>\n```\n\n"
        for level in 0..<levels {
            let body =
                level + 1 < levels ? "<<c\(level + 1)>>\n<<c\(level + 1)>>" : "let leaf = \(level)"
            text += "```swift {#c\(level)}\n\(body)\n```\n\n"
        }
        return text
    }
}
