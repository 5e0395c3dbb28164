import Foundation

/// Turns a chapter's rendered HTML into its part of the print-all page, without rendering it
/// again: every `id` gets the chapter's prefix (so that two chapters' "Proving it" stay
/// distinct), in-page and cross-chapter links become links within the print page, and other
/// relative links are rebased from the chapters' folder to the site's root.
///
/// It reads only the attributes the renderer writes (` id="`, ` href="`, ` src="`); text never
/// holds a raw `"`, because the renderer escapes it.
///
/// ```swift
/// // <a href="02-b.html#setup"> in chapters/01-a.html becomes <a href="#02-b--setup"> in print.html
/// ```
struct PrintRewriter {
    /// The prefix of this chapter's ids (`01-a--`).
    var prefix: String
    /// Each chapter's page file name (`02-b.html`) with its prefix.
    var chapterPrefixes: [String: String]
    /// The chapters' folder, relative to the site root, with its slash (`chapters/`).
    var folder: String

    private static let attributes = [Array(" id=\"".utf8), Array(" href=\"".utf8), Array(" src=\"".utf8)]

    func rewrite(_ html: [UInt8], into output: inout [UInt8]) {
        let prefixBytes = Array(prefix.utf8)
        html.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            var index = 0
            var copied = 0
            while index < bytes.count {
                // Attributes only live inside tags: jump from tag to tag (text is most of a page).
                guard let open = memchr(base + index, Int32(UInt8(ascii: "<")), bytes.count - index) else {
                    break
                }
                index = base.distance(to: open.assumingMemoryBound(to: UInt8.self)) + 1
                while index + 5 < bytes.count, bytes[index] != UInt8(ascii: ">") {
                    guard bytes[index] == UInt8(ascii: " "),
                        let attribute = Self.attributes.first(where: { Self.matches(bytes, at: index, $0) })
                    else {
                        index += 1
                        continue
                    }
                    let valueStart = index + attribute.count
                    var valueEnd = valueStart
                    while valueEnd < bytes.count, bytes[valueEnd] != UInt8(ascii: "\"") { valueEnd += 1 }
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<valueStart]))
                    let valueBytes = UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd])
                    if attribute.count == 5 {
                        // An id: the chapter's prefix, then the id as it was.
                        output.append(contentsOf: prefixBytes)
                        output.append(contentsOf: valueBytes)
                    } else {
                        output.append(
                            contentsOf: rewriteURL(String(decoding: valueBytes, as: UTF8.self)).utf8)
                    }
                    copied = valueEnd
                    index = valueEnd + 1
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
        }
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ pattern: [UInt8])
        -> Bool
    {
        guard index + pattern.count <= bytes.count else { return false }
        for offset in 0..<pattern.count where bytes[index + offset] != pattern[offset] { return false }
        return true
    }

    private func rewriteURL(_ value: String) -> String {
        if value.hasPrefix("#") { return "#" + prefix + value.dropFirst() }
        if value.hasPrefix("../") { return String(value.dropFirst(3)) }
        if value.isEmpty || value.hasPrefix("/") || LinkResolver.hasScheme(value) { return value }
        let hash = value.firstIndex(of: "#")
        let file = String(value[..<(hash ?? value.endIndex)])
        if let chapter = chapterPrefixes[file] {
            return "#" + chapter + (hash.map { String(value[value.index(after: $0)...]) } ?? "top")
        }
        return folder + value
    }
}
