/// Renders help in the sections OVERVIEW / USAGE / ARGUMENTS / OPTIONS / SUBCOMMANDS.
public enum HelpFormatter {
    public static func help(for command: Command, path: [String]) -> String {
        let spec = command.spec
        var lines: [String] = []
        lines.append("OVERVIEW: \(spec.abstract)")
        if let discussion = spec.discussion {
            lines.append("")
            lines.append(discussion)
        }
        lines.append("")
        lines.append("USAGE:")
        lines += usageLines(for: command, path: path).map { "  " + $0 }
        if !spec.arguments.isEmpty {
            lines.append("")
            lines.append("ARGUMENTS:")
            lines += table(spec.arguments.map { ("<\($0.name)>", $0.help) })
        }
        lines.append("")
        lines.append("OPTIONS:")
        var options = spec.options.map { ($0.label, $0.help) }
        options.append(("-h, --help", "Show this help."))
        if path.count == 1 { options.append(("--version", "Show the version.")) }
        lines += table(options)
        if !command.subcommands.isEmpty {
            lines.append("")
            lines.append("SUBCOMMANDS:")
            lines += table(command.subcommands.map { ($0.spec.name, $0.spec.abstract) })
            lines.append("")
            lines.append("  See '\(path.joined(separator: " ")) help <subcommand>' for a subcommand's help.")
        }
        return lines.joined(separator: "\n")
    }

    public static func usageLines(for command: Command, path: [String]) -> [String] {
        let spec = command.spec
        let name = path.joined(separator: " ")
        if let usage = spec.usage { return usage.map { "\(name) \($0)" } }
        if command.run == nil, !command.subcommands.isEmpty {
            return ["\(name) <subcommand>"]
        }
        var words = [name]
        for option in spec.options {
            words.append(option.valueName.map { "[--\(option.name) \($0)]" } ?? "[--\(option.name)]")
        }
        for argument in spec.arguments {
            var word = "<\(argument.name)>"
            if argument.variadic { word += " ..." }
            words.append(argument.optional ? "[\(word)]" : word)
        }
        return [words.joined(separator: " ")]
    }

    private static func table(_ rows: [(String, String)]) -> [String] {
        let width = min(28, (rows.map { $0.0.count }.max() ?? 0) + 2)
        return rows.map { label, text in
            if label.count + 2 > width {
                return "  \(label)\n" + String(repeating: " ", count: width + 2) + text
            }
            return "  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + text
        }
    }
}
