import CommandLineKit
import Foundation
import Literate

/// The `--book DIR` option every engine command takes.
public let bookOption = OptionSpec(
    "book", value: "DIR", help: "The book folder, holding chapters/ (default: the repository root).")

/// Finds the book folder: `--book DIR`, or the nearest folder at or above the current one that
/// holds `chapters/`.
public func bookRoot(_ arguments: ParsedArguments) throws -> URL {
    let fileManager = FileManager.default
    if let path = arguments.value("book") {
        let url = URL(
            fileURLWithPath: path, relativeTo: URL(fileURLWithPath: fileManager.currentDirectoryPath)
        )
        .standardizedFileURL
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw CommandError.badInput("no book folder at '\(path)'")
        }
        return url
    }
    var folder = URL(fileURLWithPath: fileManager.currentDirectoryPath).standardizedFileURL
    while true {
        var isDirectory: ObjCBool = false
        let chapters = folder.appendingPathComponent("chapters").path
        if fileManager.fileExists(atPath: chapters, isDirectory: &isDirectory), isDirectory.boolValue {
            return folder
        }
        let parent = folder.deletingLastPathComponent()
        if parent.path == folder.path {
            throw CommandError.badInput(
                "no chapters/ folder here or above; run inside the repository or pass --book DIR")
        }
        folder = parent
    }
}

/// Loads and tangles the book, printing diagnostics. Throws `.failure` on errors.
func loadAndTangle(_ root: URL, console: Console) throws -> TangleResult {
    let book: Book
    do {
        book = try Book.load(root: root, inlines: false)
    } catch {
        throw CommandError.badInput(error.description)
    }
    let result = Tangler.tangle(book)
    for diagnostic in result.diagnostics { console.error(diagnostic.description) }
    if result.hasErrors { throw CommandError.failure }
    return result
}
