import Foundation
import Literate

/// Chunk expansion: the fuzzer's bytes, read as instructions, build a small book of named chunks
/// and file targets that include each other in any shape (chains, fan-outs, cycles, undefined
/// names, `canImport` blocks), which is tangled in memory with small limits and with the real
/// ones. Random text rarely spells a deep chunk graph; these instructions spell nothing else.
///
/// Whatever the shape, tangling must finish, and a file it produces must keep within the limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChunkExpansion(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    guard let first = bytes.first else { return 0 }
    let book = ChunkBook(chunkCount: 1 + Int(first) % 48, instructions: bytes.dropFirst())
    let small = TangleLimits(depth: 8, lines: 300, bytes: 8192)
    for limits in [small, TangleLimits.standard] {
        let result = Tangler.tangle(book.book, limits: limits)
        for file in result.files {
            let lines = file.content.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            let body = lines - 3 - file.chapters.count
            precondition(
                body <= limits.lines, "\(file.path): \(body) lines passed the limit of \(limits.lines)")
        }
    }
    return 0
}

/// A chapter written from instructions, one byte each; the top two bits say what it does.
struct ChunkBook {
    var book: Book

    init(chunkCount: Int, instructions: Slice<UnsafeBufferPointer<UInt8>>) {
        var blocks: [(info: String, lines: [String])] = [("swift {file=Sources/Fuzz/F0.swift}", [])]
        for byte in instructions {
            let operand = Int(byte & 63)
            switch byte >> 6 {
            case 0:
                // A new block for chunk `operand`; blocks with one name concatenate.
                blocks.append(("swift {#c\(operand % chunkCount)}", []))
            case 1:
                // A reference, indented by 0 to 12 spaces.
                let indentation = String(repeating: " ", count: (operand & 3) * 4)
                blocks[blocks.count - 1].lines.append("\(indentation)<<c\(operand % chunkCount)>>")
            case 2:
                blocks[blocks.count - 1].lines.append(operand & 32 == 0 ? "let v\(operand) = \(operand)" : "")
            default:
                switch operand & 3 {
                case 0: blocks.append(("swift {file=Sources/Fuzz/F\((operand >> 2) & 3).swift}", []))
                case 1: blocks.append(("swift {#c\((operand >> 2) % chunkCount) canImport=UIKit}", []))
                case 2: blocks[blocks.count - 1].lines.append("<<undefined-\(operand >> 2)>>")
                default: blocks[blocks.count - 1].lines.append("}")
                }
            }
        }
        let text = blocks.map { "```\($0.info)\n" + $0.lines.map { $0 + "\n" }.joined() + "```\n" }
            .joined(separator: "\n")
        let chapter = Chapter(path: "chapters/01-fuzz.md", source: text, inlines: false)
        book = Book(root: URL(fileURLWithPath: "/nonexistent-book"), chapters: [chapter])
    }
}
