import Foundation
import SystemErrors

/// Where a command writes: standard output for results, standard error for diagnostics.
/// Tests pass a capturing console; the executables use `Console.standard`.
public final class Console: @unchecked Sendable {
    private let lock = NSLock()
    private let writeOut: @Sendable (String) -> Void
    private let writeErr: @Sendable (String) -> Void
    /// Is standard error a terminal? Long work shows progress only then.
    public let isInteractive: Bool

    public init(
        isInteractive: Bool = false, out: @escaping @Sendable (String) -> Void,
        err: @escaping @Sendable (String) -> Void
    ) {
        (self.isInteractive, self.writeOut, self.writeErr) = (isInteractive, out, err)
    }

    public static let standard = Console(
        isInteractive: isatty(2) == 1 && ProcessInfo.processInfo.environment["CI"] == nil,
        out: { FileHandle.standardOutput.write(Data($0.utf8)) },
        err: { FileHandle.standardError.write(Data($0.utf8)) }
    )

    /// Prints one line (a newline is added) to standard output.
    public func print(_ line: String) {
        lock.withLock { writeOut(line + "\n") }
    }

    /// Prints one line to standard error.
    public func error(_ line: String) {
        lock.withLock { writeErr(line + "\n") }
    }
}

/// A node of the command tree: a command that runs, or a group of subcommands, or both.
public struct Command: Sendable {
    public typealias Run = @Sendable (ParsedArguments, Console) throws -> ExitCode

    public var spec: CommandSpec
    public var subcommands: [Command]
    public var run: Run?

    public init(_ spec: CommandSpec, subcommands: [Command] = [], run: Run? = nil) {
        (self.spec, self.subcommands, self.run) = (spec, subcommands, run)
    }
}

/// Runs a command tree: dispatch, help (`-h`, `--help`, `help CMD`), `--version`, and the one
/// place where errors become exit codes and messages.
public struct CommandLineTool: Sendable {
    public var root: Command
    public var version: String

    public init(root: Command, version: String) {
        (self.root, self.version) = (root, version)
    }

    /// Runs `arguments` (without the executable's name) and returns the exit code.
    public func run(_ arguments: [String], console: Console) -> ExitCode {
        var path = [root.spec.name]
        var node = root
        var rest = arguments[...]
        if rest.first == "--version" {
            console.print("\(root.spec.name) \(version)")
            return .success
        }
        while let word = rest.first, let next = node.subcommands.first(where: { $0.spec.name == word }) {
            node = next
            path.append(word)
            rest = rest.dropFirst()
        }
        // `help [SUBCOMMAND...]` at any level of a command that has subcommands, as
        // `SUBCOMMAND --help` does: `workbook help exercises`, `workbook exercises help check`.
        if rest.first == "help", !node.subcommands.isEmpty {
            var target = node
            var targetPath = path
            for word in rest.dropFirst() {
                guard let next = target.subcommands.first(where: { $0.spec.name == word }) else {
                    return report(
                        .usage("no command named '\(word)'", command: targetPath), root: root,
                        console: console)
                }
                target = next
                targetPath.append(word)
            }
            console.print(HelpFormatter.help(for: target, path: targetPath))
            return .success
        }
        if rest.contains("-h") || rest.contains("--help") {
            console.print(HelpFormatter.help(for: node, path: path))
            return .success
        }
        guard let run = node.run else {
            if let word = rest.first {
                return report(
                    .usage("unknown command '\(word)'", command: path), root: root, console: console)
            }
            console.error(HelpFormatter.help(for: node, path: path))
            return .usage
        }
        do {
            let parsed = try node.spec.parse(Array(rest), commandPath: path)
            return try run(parsed, console)
        } catch let error as CommandError {
            return report(error, root: root, console: console)
        } catch {
            // Never Foundation's dump of an error: `path: what went wrong (errno text)`.
            console.error("error: \(SystemError.message(for: error))")
            return .badInput
        }
    }

    private func report(_ error: CommandError, root: Command, console: Console) -> ExitCode {
        switch error {
        case .usage(let message, let commandPath):
            let node = Self.find(commandPath, in: root) ?? root
            console.error("error: \(message)")
            console.error("")
            console.error("USAGE:")
            for line in HelpFormatter.usageLines(for: node, path: commandPath) {
                console.error("  " + line)
            }
            console.error("")
            console.error("See '\(commandPath.joined(separator: " ")) --help'.")
            return .usage
        case .badInput(let message):
            console.error("error: \(message)")
            return .badInput
        case .failure:
            return .failure
        }
    }

    private static func find(_ path: [String], in root: Command) -> Command? {
        var node = root
        for word in path.dropFirst() {
            guard let next = node.subcommands.first(where: { $0.spec.name == word }) else { return nil }
            node = next
        }
        return node
    }
}
