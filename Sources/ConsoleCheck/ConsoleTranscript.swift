import Foundation

/// A terminal session as a chapter shows it: commands after `$ `, each followed by the output it
/// printed.
///
/// A line that starts with `$ ` is a command; a command whose line ends in `\` continues on the
/// next line, exactly as in a shell. Every line after a command, up to the next `$ `, is the
/// output that command is expected to print.
///
/// ```swift
/// let transcript = try ConsoleTranscript.parse(["$ echo hi", "hi"]).get()
/// transcript.commands[0].text      // "echo hi"
/// transcript.commands[0].expected  // ["hi"]
/// ```
package struct ConsoleTranscript: Equatable {
    struct Command: Equatable {
        /// The command as given to `/bin/sh -c`, continuation lines included (their `\` and line
        /// breaks are the shell's to read).
        var text: String
        /// The 0-based line of the block where the command starts.
        var line: Int
        /// The output the transcript shows, one element per line.
        var expected: [String]
    }

    /// Why a block is not a transcript, with the 0-based line at fault.
    struct ParseError: Error, Equatable {
        var line: Int
        var message: String
    }

    var commands: [Command]

    static let prompt = "$ "

    /// Reads a block's lines; a block whose first line is not a command is not a transcript.
    static func parse(_ lines: [String]) -> Result<ConsoleTranscript, ParseError> {
        var commands: [Command] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            guard line.hasPrefix(prompt) else {
                guard commands.isEmpty else {
                    commands[commands.count - 1].expected.append(line)
                    index += 1
                    continue
                }
                return .failure(ParseError(line: index, message: ConsoleMessage.noCommandFirst))
            }
            let start = index
            var text = String(line.dropFirst(prompt.count))
            while text.hasSuffix("\\") && index + 1 < lines.count {
                index += 1
                text += "\n" + lines[index]
            }
            if text.hasSuffix("\\") {
                return .failure(ParseError(line: index, message: ConsoleMessage.danglingContinuation))
            }
            commands.append(Command(text: text, line: start, expected: []))
            index += 1
        }
        guard !commands.isEmpty else {
            return .failure(ParseError(line: 0, message: ConsoleMessage.noCommandFirst))
        }
        return .success(ConsoleTranscript(commands: commands))
    }
}
