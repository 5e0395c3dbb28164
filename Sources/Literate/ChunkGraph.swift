/// The named chunks and file targets of a book, in book order.
///
/// Blocks are referred to by their index in the book's block list, and chunks by a number given
/// in order of first definition: expansion then works on integers instead of hashing names and
/// positions for every inclusion.
public struct ChunkGraph: Sendable {
    /// Every block of the book, in book order.
    let blocks: [CodeBlock]
    /// Chunk names by number, in order of first definition.
    let chunkNames: [String]
    /// Chunk numbers by name.
    let chunkNumbers: [String: Int]
    /// For each chunk number, its blocks (indices into `blocks`) in book order: several blocks
    /// with one name concatenate.
    let chunkBlocks: [[Int]]
    /// File targets in order of first appearance, each with its blocks (indices) in book order.
    let fileBlocks: [(path: String, blocks: [Int])]

    public init(blocks: [CodeBlock]) {
        var names: [String] = []
        var numbers: [String: Int] = [:]
        var chunkBlocks: [[Int]] = []
        var files: [(path: String, blocks: [Int])] = []
        var fileNumbers: [String: Int] = [:]
        // Most blocks are named chunks: size the table once instead of growing it.
        numbers.reserveCapacity(blocks.count)
        // By index: binding each block to a constant would copy (and retain) all of its fields.
        for index in blocks.indices {
            if let name = blocks[index].attributes.chunkName {
                if let number = numbers[name] {
                    chunkBlocks[number].append(index)
                } else {
                    numbers[name] = names.count
                    names.append(name)
                    chunkBlocks.append([index])
                }
            }
            if let file = blocks[index].attributes.file {
                if let number = fileNumbers[file] {
                    files[number].blocks.append(index)
                } else {
                    fileNumbers[file] = files.count
                    files.append((file, [index]))
                }
            }
        }
        self.blocks = blocks
        self.chunkNames = names
        self.chunkNumbers = numbers
        self.chunkBlocks = chunkBlocks
        self.fileBlocks = files
    }

    /// Blocks per chunk name, in book order (several blocks with one name concatenate).
    public var chunks: [String: [CodeBlock]] {
        chunkNumbers.mapValues { number in chunkBlocks[number].map { blocks[$0] } }
    }

    /// File targets in order of first appearance, each with its blocks in book order.
    public var files: [(path: String, blocks: [CodeBlock])] {
        fileBlocks.map { file in (file.path, file.blocks.map { blocks[$0] }) }
    }

    /// The chunks that `blocks` (indices) include, directly or not, each once: a walk of the
    /// references with a work list, so that its depth costs no stack.
    func chunksReachable(from blocks: [Int]) -> [Int] {
        var seen = [Bool](repeating: false, count: chunkNames.count)
        var found: [Int] = []
        var pending = blocks
        while let index = pending.popLast() {
            let text = self.blocks[index].text
            for offset in 0..<text.count {
                let name: String? = text.bytes.withUnsafeBufferPointer { bytes in
                    ChunkReference(UnsafeBufferPointer(rebasing: bytes[text.range(ofLine: offset)]))?.name
                }
                guard let name, let number = chunkNumbers[name], !seen[number] else { continue }
                seen[number] = true
                found.append(number)
                pending += chunkBlocks[number]
            }
        }
        return found
    }

    /// The defined name closest to `name`, if it is close enough to be a likely typo.
    public func suggestion(for name: String) -> String? {
        let limit = max(2, name.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in chunkNames.sorted() {
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

    /// Recognises a reference line. Runs on every tangled line, so it works on bytes and rejects
    /// a line at its first non-blank byte.
    init?(_ line: UnsafeBufferPointer<UInt8>) {
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = 0
        while start < line.count, isBlank(line[start]) { start += 1 }
        guard start < line.count, line[start] == UInt8(ascii: "<") else { return nil }
        var end = line.count
        while end > start, isBlank(line[end - 1]) { end -= 1 }
        guard end - start > 4, line[start + 1] == UInt8(ascii: "<"), line[end - 1] == UInt8(ascii: ">"),
            line[end - 2] == UInt8(ascii: ">")
        else { return nil }
        let inner = UnsafeBufferPointer(rebasing: line[(start + 2)..<(end - 2)])
        // `<<a>> + <<b>>` is not one reference.
        for offset in 0..<inner.count
        where inner[offset] == UInt8(ascii: "<") || inner[offset] == UInt8(ascii: ">") {
            if offset + 1 < inner.count, inner[offset + 1] == inner[offset] { return nil }
        }
        self.indentation = String(decoding: UnsafeBufferPointer(rebasing: line[..<start]), as: UTF8.self)
        self.name = String(decoding: inner, as: UTF8.self)
    }

    /// Recognises a reference in a string (for tests and tools).
    init?(_ line: String) {
        var line = line
        guard let reference = line.withUTF8({ ChunkReference($0) }) else { return nil }
        self = reference
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
