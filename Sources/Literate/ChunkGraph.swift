/// The named chunks and file targets of a book, in book order.
public struct ChunkGraph: Sendable {
    /// Blocks per chunk name, in book order (several blocks with one name concatenate).
    public private(set) var chunks: [String: [CodeBlock]] = [:]
    /// File targets in order of first appearance, each with its blocks in book order.
    public private(set) var files: [(path: String, blocks: [CodeBlock])] = []

    public init(blocks: [CodeBlock]) {
        var fileIndex: [String: Int] = [:]
        for block in blocks {
            if let name = block.attributes.chunkName {
                chunks[name, default: []].append(block)
            }
            if let file = block.attributes.file {
                if let index = fileIndex[file] {
                    files[index].blocks.append(block)
                } else {
                    fileIndex[file] = files.count
                    files.append((file, [block]))
                }
            }
        }
    }

    /// The defined name closest to `name`, if it is close enough to be a likely typo.
    public func suggestion(for name: String) -> String? {
        let limit = max(2, name.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in chunks.keys.sorted() {
            let distance = editDistance(name, candidate)
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }
}

/// A line `<<chunk-name>>`, alone on its line but for indentation.
struct ChunkReference: Equatable {
    var indentation: String
    var name: String

    /// Recognises a reference line. Runs on every tangled line, so it rejects on bytes first.
    init?(_ line: String) {
        let bytes = line.utf8
        var start = bytes.startIndex
        while start < bytes.endIndex, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t")
        {
            start = bytes.index(after: start)
        }
        var end = bytes.endIndex
        while end > start {
            let previous = bytes.index(before: end)
            guard bytes[previous] == UInt8(ascii: " ") || bytes[previous] == UInt8(ascii: "\t") else { break }
            end = previous
        }
        let body = bytes[start..<end]
        guard body.count > 4, body.starts(with: "<<".utf8), body.reversed().starts(with: ">>".utf8) else {
            return nil
        }
        let inner = body.dropFirst(2).dropLast(2)
        // `<<a>> + <<b>>` is not one reference.
        for (offset, byte) in zip(inner.indices, inner)
        where byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") {
            let next = inner.index(after: offset)
            if next < inner.endIndex, inner[next] == byte { return nil }
        }
        self.indentation = String(decoding: bytes[bytes.startIndex..<start], as: UTF8.self)
        self.name = String(decoding: inner, as: UTF8.self)
    }
}

/// Levenshtein distance, for "did you mean" suggestions on short names.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = Array(repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(
                previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
