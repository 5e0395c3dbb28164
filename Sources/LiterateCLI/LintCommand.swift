import CommandLineKit
import Foundation
import Literate
import ProcessRunner

/// `lint`: `swift format lint --strict` over the package, with findings in generated files
/// mapped back to the chapter lines they come from.
public let lintCommand = Command(
    CommandSpec(
        name: "lint",
        abstract: "Lint the Swift sources with swift-format; findings in tangled files name chapter lines.",
        discussion: """
            Runs 'swift format lint --strict' with the book's .swift-format configuration over
            Sources, Tests and Package.swift. Tangled files are linted as generated, and each
            finding in them is reported at the chapter line it comes from: fix it there.
            """,
        options: [bookOption])
) { arguments, console in
    let root = try bookRoot(arguments)
    let result = try loadAndTangle(root, console: console)
    let files = Dictionary(uniqueKeysWithValues: result.files.map { ($0.path, $0) })
    let fileManager = FileManager.default
    let targets = ["Sources", "Tests", "Examples", "Package.swift"].filter {
        fileManager.fileExists(atPath: root.appendingPathComponent($0).path)
    }
    guard !targets.isEmpty else {
        console.print("lint: nothing to lint")
        return .success
    }
    let command: (String, [String])
    if let swiftFormat = BookChecker.findExecutable("swift-format") {
        command = (swiftFormat, ["lint"])
    } else if let swift = BookChecker.findExecutable("swift") {
        command = (swift, ["format", "lint"])
    } else {
        throw CommandError.badInput("swift-format not found on PATH (it ships with the Swift toolchain)")
    }
    var options = ["--strict", "--recursive", "--parallel"]
    let configuration = root.appendingPathComponent(".swift-format")
    if fileManager.fileExists(atPath: configuration.path) {
        options += ["--configuration", configuration.path]
    }
    let run = Subprocess.run(command.0, command.1 + options + targets, in: root, timeout: 600)
    guard !run.timedOut else {
        console.error("error: swift-format did not finish within 600 s")
        return .failure
    }
    var findings = 0
    let rootPrefix = root.path + "/"
    for line in run.output.split(separator: "\n").map(String.init) {
        guard var message = CompilerMessage(line) else {
            if !line.isEmpty { console.error(line) }
            continue
        }
        findings += 1
        if message.path.hasPrefix(rootPrefix) {
            message.path = String(message.path.dropFirst(rootPrefix.count))
        }
        if let file = files[message.path],
            let location = file.chapterLocation(ofLine: message.line, column: message.column)
        {
            console.error(
                "\(location): \(message.severity.rawValue): \(message.message) "
                    + "(generated \(message.path):\(message.line))")
        } else {
            console.error(
                "\(message.path):\(message.line):\(message.column): \(message.severity.rawValue): \(message.message)"
            )
        }
    }
    if run.status != 0, findings == 0 {
        console.error("error: swift-format failed (exit \(run.status))")
        return .failure
    }
    console.print("lint: \(findings) findings")
    return findings == 0 ? .success : .failure
}
