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
    try loadBookAndTangle(root, console: console).result
}

/// As ``loadAndTangle(_:console:)``, with the book it read (for checks of the book as a whole).
func loadBookAndTangle(_ root: URL, console: Console) throws -> (book: Book, result: TangleResult) {
    let book: Book
    do {
        book = try Book.load(root: root, inlines: false)
    } catch {
        throw commandFailure(error, console: console)
    }
    let result = Tangler.tangle(book)
    ExitLifetime.keep(book)
    ExitLifetime.keep(result)
    for diagnostic in result.diagnostics { console.error(diagnostic.description) }
    if result.hasErrors { throw CommandError.failure }
    return (book, result)
}

/// What a command ends with when it stops on `diagnostic` (the book could not be loaded): a
/// finding at a place in the book, such as a chapter that is not UTF-8, is printed as its
/// diagnostic line and exits 1, as other findings do; one without a place (no `chapters/`
/// folder) is bad input. Either way `error:` is printed once.
public func commandFailure(_ diagnostic: Diagnostic, console: Console) -> CommandError {
    guard diagnostic.location != nil else { return .badInput(diagnostic.message) }
    console.error(diagnostic.description)
    return .failure
}

/// Keeps a command's large values until the process exits. A book is tens of thousands of small
/// strings and arrays: releasing them one by one when the command returns costs more than some
/// of its real work, and the process ends right after, which frees everything at once.
enum ExitLifetime {
    nonisolated(unsafe) private static var kept: [Any] = []

    /// Call from the command's own thread only.
    static func keep(_ value: Any) { kept.append(value) }
}
