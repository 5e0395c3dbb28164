import Foundation
import StrictJSON
import SystemErrors

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `.exercises-state.json` as a file a learner can edit by hand: read as bad input, never
/// trusted, and written so that no failure leaves half a file.
///
/// Reading refuses what this tool did not write: a key it does not know (a misspelled `hintShown`
/// would otherwise read as no progress and be overwritten), a newer `version`, a value of the
/// wrong type, a negative hint count. Each refusal names the file, the line and column, and the
/// key, and nothing is rewritten. A hint count past an exercise's hints is read as the last
/// hint, with a warning. Writing goes to a temporary file beside the real one, then a rename;
/// when the progress file is a symbolic link, the file it points to is the one replaced, so the
/// link stays.
///
/// ```swift
/// let file = ProgressFile(root: root)
/// let (progress, warnings) = try file.read(catalog: catalog)
/// try file.write(progress)
/// ```
package struct ProgressFile {
    package let url: URL
    /// How the file is named in messages (relative to the book).
    let displayName: String

    /// The version this tool reads and writes.
    static let version = 1
    static let keys = ["current", "done", "hintsShown", "language", "version"]

    package init(root: URL) {
        url = root.appendingPathComponent(ExerciseProgress.fileName)
        displayName = ExerciseProgress.fileName
    }

    /// The progress, and a warning for each value it had to bring into range; a fresh progress
    /// when there is no file.
    package func read(catalog: ExerciseCatalog) throws(ExerciseError) -> (
        ExerciseProgress, warnings: [String]
    ) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            return (ExerciseProgress(), [])
        }
        if isFolder.boolValue {
            throw .invalidProgress(
                "\(displayName): a folder stands where the progress file belongs; move it away or delete it")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadableProgress(displayName, detail: SystemError.describe(error))
        }
        if let problem = JSONSyntax.firstProblem(in: data) {
            throw invalid(problem.line, problem.column, "not valid JSON: \(problem.message)")
        }
        guard let positions = JSONSyntax.valuePositions(in: data), let document = try? JSONValue(data: data),
            case .object(let members) = document
        else {
            throw invalid(1, 1, "expected an object such as {\"version\":1}")
        }
        func at(_ path: String) -> (Int, Int) {
            let position = positions[path] ?? JSONSyntax.Position(line: 1, column: 1)
            return (position.line, position.column)
        }
        /// A value as it is written in the file (a number keeps all its digits).
        func written(_ path: String, _ value: JSONValue) -> String {
            guard case .number = value, let position = positions[path] else { return Self.describe(value) }
            return Self.token(in: data, line: position.line, column: position.column) ?? Self.describe(value)
        }
        for key in members.keys.sorted() where !Self.keys.contains(key) {
            let (line, column) = at(JSONSyntax.path("$", member: key))
            throw invalid(
                line, column,
                "unknown key '\(key)' (known: \(Self.keys.joined(separator: ", "))); the file is left as it is"
            )
        }
        var progress = ExerciseProgress()
        var warnings: [String] = []
        switch members["version"] {
        case nil:
            break
        case .number(let value) where value == Double(Self.version):
            break
        case .number(let value) where value.rounded() == value && value > Double(Self.version):
            let (line, column) = at("version")
            throw invalid(
                line, column,
                "version \(written("version", .number(value))) was written by a newer workbook; this one reads "
                    + "version \(Self.version) (update the workbook, or delete the file to start over)")
        case let other?:
            let (line, column) = at("version")
            throw invalid(line, column, "version is \(written("version", other)); expected \(Self.version)")
        }
        switch members["current"] {
        case nil, .null?:
            break
        case .string(let name)?:
            progress.current = name
        case let other?:
            let (line, column) = at("current")
            throw invalid(
                line, column, "current is \(Self.describe(other)); expected an exercise name or null")
        }
        switch members["language"] {
        case nil, .null?:
            break
        case .string(let code)? where ExerciseProgress.isLanguageCode(code):
            progress.language = code == "en" ? nil : code
        case let other?:
            let (line, column) = at("language")
            throw invalid(
                line, column,
                "language is \(Self.describe(other)); expected a language code such as \"vi\", or null")
        }
        switch members["done"] {
        case nil:
            break
        case .array(let names)?:
            for (index, name) in names.enumerated() {
                guard case .string(let id) = name else {
                    let (line, column) = at(JSONSyntax.path("done", index: index))
                    throw invalid(
                        line, column, "done[\(index)] is \(Self.describe(name)); expected an exercise name")
                }
                if !progress.done.contains(id) { progress.done.append(id) }
            }
        case let other?:
            let (line, column) = at("done")
            throw invalid(line, column, "done is \(Self.describe(other)); expected a list of exercise names")
        }
        switch members["hintsShown"] {
        case nil:
            break
        case .object(let counts)?:
            for (id, value) in counts.sorted(by: { $0.key < $1.key }) {
                let path = JSONSyntax.path("hintsShown", member: id)
                let (line, column) = at(path)
                let hints = catalog.exercises.first { $0.id == id }?.hints.count
                guard case .number(let count) = value, count.rounded() == count, count >= 0 else {
                    throw invalid(
                        line, column,
                        "\(path) is \(written(path, value)); it counts the hints shown, a whole number from 0"
                            + (hints.map { " to \($0)" } ?? ""))
                }
                // An exercise this book no longer has keeps its count, bounded like any other.
                let limit = hints ?? Self.unknownExerciseLimit
                if count > Double(limit) {
                    warnings.append(
                        "\(displayName):\(line):\(column): \(path) is \(written(path, value)), more than the "
                            + "\(limit) hints there are; read as \(limit)")
                    progress.hintsShown[id] = limit
                } else {
                    progress.hintsShown[id] = Int(count)
                }
            }
        case let other?:
            let (line, column) = at("hintsShown")
            throw invalid(line, column, "hintsShown is \(Self.describe(other)); expected an object of counts")
        }
        return (progress, warnings)
    }

    /// A count kept for an exercise the book does not have (renamed, or from another branch).
    static let unknownExerciseLimit = 100

    /// Writes the progress through a temporary file and a rename, to the file the path names
    /// (through a symbolic link, if it is one).
    package func write(_ progress: ExerciseProgress) throws(ExerciseError) {
        let target: URL
        let data: Data
        do {
            target = try Self.finalTarget(of: url)
            data = try progress.encoded()
        } catch {
            throw .unwritableProgress(displayName, detail: SystemError.describe(error))
        }
        let folder = target.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(
            ".\(target.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .unwritableProgress(displayName, detail: SystemError.describe(SystemError.current()))
        }
        var failure: POSIXError? =
            writeAll(data, to: descriptor) && fsync(descriptor) == 0 ? nil : SystemError.current()
        close(descriptor)
        if failure == nil, rename(temporary.path, target.path) != 0 { failure = SystemError.current() }
        guard let failure else { return }
        unlink(temporary.path)
        throw .unwritableProgress(displayName, detail: SystemError.describe(failure))
    }

    /// The file a path finally names, following symbolic links (at most 32: a loop is an error).
    static func finalTarget(of url: URL) throws -> URL {
        var current = url
        for _ in 0..<32 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path)
            else {
                return current
            }
            current =
                URL(fileURLWithPath: destination, relativeTo: current.deletingLastPathComponent())
                .standardizedFileURL
        }
        throw POSIXError(.ELOOP)
    }

    private func invalid(_ line: Int, _ column: Int, _ message: String) -> ExerciseError {
        .invalidProgress("\(displayName):\(line):\(column): \(message)")
    }

    /// The number that starts at a line and column of the file, as written.
    static func token(in data: Data, line: Int, column: Int) -> String? {
        let bytes = [UInt8](data)
        var index = 0
        var currentLine = 1
        while currentLine < line, index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") { currentLine += 1 }
            index += 1
        }
        index += column - 1
        var end = index
        while end < bytes.count, end - index < 64, "-+.eE0123456789".utf8.contains(bytes[end]) { end += 1 }
        guard end > index, index < bytes.count else { return nil }
        return String(decoding: bytes[index..<end], as: UTF8.self)
    }

    /// A value as a message shows it: `-5`, `"two"`, `a list`.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number):
            if number.rounded() == number, abs(number) < 1e18 { return String(Int64(number)) }
            return number.rounded() == number ? String(format: "%.0f", number) : String(number)
        case .string(let text): return "\"\(text)\""
        case .array: return "a list"
        case .object: return "an object"
        }
    }
}

/// Writes every byte of `data`, retrying after a signal; false on an error (in `errno`).
private func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
    data.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
}
