import CommandLineKit
import DeepLinkCore
import Foundation
import Literate
import StrictJSON

/// What the subject commands (`aasa`, `assetlinks`, `applinks`, `doctor`) are given: files,
/// JSON, manifests and URLs, read the same way everywhere.
///
/// Every failure is a `CommandError.badInput` whose one line names the input (exit 2), so a
/// script can tell "the answer is no" (exit 1) from "the question could not be asked".
///
/// ```swift
/// let data = try CommandInput.readJSON("apple-app-site-association")
/// // error: apple-app-site-association:3:17: not valid JSON: a comma before '}': ...
/// ```
package enum CommandInput {
    /// The bytes of the file at `path` (relative to the current folder).
    static func read(_ path: String) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandError.badInput("\(path): no such file")
        }
        guard !isDirectory.boolValue else {
            throw CommandError.badInput("\(path): is a folder, not a file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandError.badInput("\(path): cannot be read")
        }
        return data
    }

    /// The bytes of a JSON file. A file that is not JSON at all is bad input, reported at the
    /// line and column of its first syntax error; a file that is JSON but not the right shape
    /// is for the linters to judge.
    package static func readJSON(_ path: String) throws -> Data {
        let data = try read(path)
        if let problem = jsonProblem(data) {
            throw CommandError.badInput("\(path)\(problem)")
        }
        return data
    }

    /// `nil` for valid JSON (any top-level value), otherwise `:LINE:COL: not valid JSON: why`
    /// (or `: not valid JSON` when the position is unknown), to follow a file name.
    ///
    /// Valid means RFC 8259: ``JSONSyntax`` must accept the text, and so must Foundation's
    /// parser (which, on Linux, alone would let a trailing comma through).
    static func jsonProblem(_ data: Data) -> String? {
        if let problem = JSONSyntax.firstProblem(in: data) {
            return ":\(problem.line):\(problem.column): not valid JSON: \(problem.message)"
        }
        guard (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) == nil else {
            return nil
        }
        return ": not valid JSON"
    }

    /// A source `AndroidManifest.xml`; malformed XML and manifests Android would refuse are bad
    /// input, reported at their line and column.
    package static func readManifest(_ path: String) throws -> AndroidManifest {
        let data = try read(path)
        do {
            return try AndroidManifestReader.read(data)
        } catch {
            throw CommandError.badInput("\(path):\(error.line):\(error.column): \(error.message)")
        }
    }

    /// An absolute URL with a scheme, such as `https://example.com/a` or `shop://product/42`.
    ///
    /// Parsing is strict (`URLComponents`, not the forgiving `URL(string:)` that percent-encodes
    /// a stray space), because a URL the tool quietly repaired is not the URL the user asked about.
    package static func url(_ text: String) throws -> URL {
        guard let components = URLComponents(string: text), let url = components.url else {
            throw CommandError.badInput("'\(text)' is not a URL")
        }
        guard let scheme = components.scheme, !scheme.isEmpty else {
            throw CommandError.badInput(
                "'\(text)' is not an absolute URL; write it with its scheme, as in https://example.com/path")
        }
        return url
    }

    /// An `http` or `https` URL with a host: the only kind of URL a Universal Link can be.
    package static func webURL(_ text: String) throws -> URL {
        let url = try url(text)
        let scheme = url.scheme?.lowercased()
        guard scheme == "https" || scheme == "http" else {
            throw CommandError.badInput(
                "'\(text)' is not a web URL; Universal Links are http or https URLs on an associated domain")
        }
        guard let host = url.host, !host.isEmpty else {
            throw CommandError.badInput("'\(text)' has no host")
        }
        return url
    }

    /// Prints findings as `FILE: severity code json.path: message`, one per line, and maps
    /// them to an exit code: 1 when any is an error, 0 otherwise (warnings alone pass).
    package static func report(_ findings: [LintFinding], file: String, console: Console) -> ExitCode {
        for finding in findings {
            console.print("\(file): \(finding)")
        }
        return findings.hasErrors ? .failure : .success
    }

    /// The value of a required option (`--package P`): missing is a usage error, exit 64.
    package static func requiredValue(
        _ name: String, in arguments: ParsedArguments, command: [String]
    ) throws -> String {
        guard let value = arguments.value(name) else {
            throw CommandError.usage("missing option --\(name)", command: command)
        }
        return value
    }
}
