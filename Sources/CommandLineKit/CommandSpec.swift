/// One option of a command, such as `--book DIR` or the flag `--check`.
public struct OptionSpec: Sendable {
    /// The long name without dashes, for example `book`.
    public var name: String
    /// A one-letter alias without the dash, if any.
    public var short: Character?
    /// The value's placeholder (`DIR`); nil for a flag.
    public var valueName: String?
    public var help: String
    /// May the option be given more than once?
    public var repeatable: Bool

    public init(
        _ name: String, short: Character? = nil, value: String? = nil, repeatable: Bool = false,
        help: String
    ) {
        (self.name, self.short, self.valueName, self.repeatable, self.help) = (
            name, short, value, repeatable, help
        )
    }

    var label: String {
        var text = short.map { "-\($0), " } ?? ""
        text += "--\(name)"
        if let valueName { text += " \(valueName)" }
        return text
    }
}

/// A positional argument of a command, such as `FILE`.
public struct ArgumentSpec: Sendable {
    public var name: String
    public var help: String
    public var optional: Bool
    /// Takes every remaining positional argument.
    public var variadic: Bool

    public init(_ name: String, optional: Bool = false, variadic: Bool = false, help: String) {
        (self.name, self.help, self.optional, self.variadic) = (name, help, optional, variadic)
    }
}

/// What a command's help says about it and what its parser accepts.
public struct CommandSpec: Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String?
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]
    /// Extra usage lines; by default one is built from the arguments and options.
    public var usage: [String]?

    public init(
        name: String, abstract: String, discussion: String? = nil, arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [], usage: [String]? = nil
    ) {
        (self.name, self.abstract, self.discussion, self.arguments, self.options, self.usage) = (
            name, abstract, discussion, arguments, options, usage
        )
    }
}
