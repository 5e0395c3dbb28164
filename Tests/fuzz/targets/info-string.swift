import Foundation
import Literate

/// The chunk and info-string parser: any bytes as a code block's info string, and any UTF-8
/// text as a chapter, parsed into blocks and tangled in memory (nothing is written).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChunks(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let text = String(validating: UnsafeBufferPointer(start: start, count: count), as: UTF8.self) else {
        return 0
    }
    _ = BlockAttributes.parse(String(text.prefix { $0 != "\n" }))
    let chapter = Chapter(path: "chapters/01-fuzz.md", source: text, inlines: false)
    let book = Book(root: URL(fileURLWithPath: "/nonexistent-book"), chapters: [chapter])
    _ = Tangler.tangle(book)
    return 0
}
