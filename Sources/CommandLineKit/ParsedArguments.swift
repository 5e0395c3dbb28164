/// The result of parsing one command's arguments against its `CommandSpec`.
public struct ParsedArguments: Sendable, Equatable {
    public var positionals: [String] = []
    public var flags: Set<String> = []
    public var values: [String: [String]] = [:]

    public init() {}

    public func flag(_ name: String) -> Bool { flags.contains(name) }

    public func value(_ name: String) -> String? { values[name]?.last }

    public func allValues(_ name: String) -> [String] { values[name] ?? [] }

    /// A positional argument by index (in declaration order).
    public subscript(position: Int) -> String? {
        positionals.indices.contains(position) ? positionals[position] : nil
    }
}

extension CommandSpec {
    /// Parses `arguments` (the words after the command's name).
    ///
    /// Throws `CommandError.usage` for an unknown option, a missing value, a missing argument or
    /// one argument too many. `--` ends the options.
    public func parse(_ arguments: [String], commandPath: [String]) throws -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        func usageError(_ message: String) -> CommandError {
            .usage(message, command: commandPath)
        }
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if optionsEnded || !word.hasPrefix("-") || word == "-" {
                result.positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            var name: Substring
            var inlineValue: String?
            if word.hasPrefix("--") {
                name = word.dropFirst(2)
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = name[..<equals]
                }
            } else {
                name = word.dropFirst()
            }
            let spec =
                word.hasPrefix("--")
                ? options.first { $0.name == name }
                : options.first { name.count == 1 && $0.short == name.first }
            guard let spec else {
                throw usageError("unknown option '\(word)'")
            }
            if spec.valueName == nil {
                if inlineValue != nil {
                    throw usageError("option '--\(spec.name)' takes no value")
                }
                result.flags.insert(spec.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw usageError("option '--\(spec.name)' needs a value (\(spec.valueName ?? ""))")
            }
            if !spec.repeatable, result.values[spec.name] != nil {
                throw usageError("option '--\(spec.name)' given more than once")
            }
            result.values[spec.name, default: []].append(value)
        }
        let required = self.arguments.filter { !$0.optional }.count
        if result.positionals.count < required {
            let missing = self.arguments[result.positionals.count]
            throw usageError("missing argument \(missing.name)")
        }
        let variadic = self.arguments.contains { $0.variadic }
        if !variadic, result.positionals.count > self.arguments.count {
            let extra = result.positionals[self.arguments.count]
            throw usageError("unexpected argument '\(extra)'")
        }
        return result
    }
}
