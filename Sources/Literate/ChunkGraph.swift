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

    init?(_ line: String) {
        let indentation = line.prefix { $0 == " " || $0 == "\t" }
        let rest = line[indentation.endIndex...]
        let trimmed = rest.hasSuffix(" ") || rest.hasSuffix("\t") ? rest.trimmingTrailingWhitespace() : rest
        guard trimmed.hasPrefix("<<"), trimmed.hasSuffix(">>"), trimmed.count > 4 else { return nil }
        let name = trimmed.dropFirst(2).dropLast(2)
        guard !name.contains("<<"), !name.contains(">>") else { return nil }
        self.indentation = String(indentation)
        self.name = String(name)
    }
}

extension Substring {
    fileprivate func trimmingTrailingWhitespace() -> Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " || self[index(before: end)] == "\t" {
            end = index(before: end)
        }
        return self[startIndex..<end]
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
