import CommandLineKit
import Foundation
import Testing

/// How every `workbook` and `literate` command reads its words and reports
/// (source: "this book: every command reads its words alike and exits 0, 1, 2 or 64").
struct CommandLineToolTests {
    /// A console that keeps what is printed.
    final class Captured: @unchecked Sendable {
        private let lock = NSLock()
        private var outText = ""
        private var errText = ""
        var out: String { lock.withLock { outText } }
        var err: String { lock.withLock { errText } }

        lazy var console = Console(
            out: { [unowned self] text in lock.withLock { outText += text } },
            err: { [unowned self] text in lock.withLock { errText += text } })
    }

    static let greet = Command(
        CommandSpec(
            name: "greet", abstract: "Say hello.",
            arguments: [ArgumentSpec("name", help: "Who to greet.")],
            options: [
                OptionSpec("loud", short: "l", help: "Shout."),
                OptionSpec("times", value: "N", help: "How often."),
                OptionSpec("tag", value: "TAG", repeatable: true, help: "A tag; repeatable."),
            ])
    ) { arguments, console in
        let word = arguments.flag("loud") ? "HELLO" : "hello"
        let times = Int(arguments.value("times") ?? "1") ?? 1
        for _ in 0..<times { console.print("\(word) \(arguments[0] ?? "")") }
        let tags = arguments.allValues("tag")
        if !tags.isEmpty { console.print("tags: " + tags.joined(separator: ",")) }
        return .success
    }

    static let fail = Command(CommandSpec(name: "fail", abstract: "Fail as asked.")) { _, _ in
        throw CommandError.badInput("the input is wrong")
    }

    /// A command whose file-system call fails and which lets the error through.
    static let save = Command(CommandSpec(name: "save", abstract: "Save a file.")) { _, _ in
        throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: "out/report.md"])
    }

    static let tool = CommandLineTool(
        root: Command(CommandSpec(name: "demo", abstract: "A demo tool."), subcommands: [greet, fail, save]),
        version: "1.2.3")

    static func run(_ words: [String]) -> (code: ExitCode, out: String, err: String) {
        let captured = Captured()
        let code = tool.run(words, console: captured.console)
        return (code, captured.out, captured.err)
    }

    @Test func optionsFlagsAndArgumentsAreRead() throws {
        let parsed = try Self.greet.spec.parse(
            ["-l", "--times=2", "--tag", "a", "--tag", "b", "--", "--ada"], commandPath: ["demo", "greet"])
        var expected = ParsedArguments()
        expected.positionals = ["--ada"]
        expected.flags = ["loud"]
        expected.values = ["times": ["2"], "tag": ["a", "b"]]
        #expect(parsed == expected)
        let run = Self.run(["greet", "--loud", "--times", "2", "ada"])
        #expect(run.code == .success)
        #expect(run.out == "HELLO ada\nHELLO ada\n")
        #expect(run.err == "")
    }

    struct UsageCase: Sendable, CustomTestStringConvertible {
        var words: [String]
        var message: String
        var testDescription: String { words.joined(separator: " ") }
    }

    @Test(arguments: [
        UsageCase(words: ["greet", "--shout", "ada"], message: "unknown option '--shout'"),
        UsageCase(words: ["greet", "--loud=yes", "ada"], message: "option '--loud' takes no value"),
        UsageCase(words: ["greet", "ada", "--times"], message: "option '--times' needs a value (N)"),
        UsageCase(
            words: ["greet", "--times", "1", "--times", "2", "ada"],
            message: "option '--times' given more than once"),
    ])
    func wrongUsageNamesTheProblemAndShowsTheUsage(_ usage: UsageCase) {
        let run = Self.run(usage.words)
        #expect(run.code == .usage)
        #expect(run.out == "")
        #expect(
            run.err == """
                error: \(usage.message)

                USAGE:
                  demo greet [--loud] [--times N] [--tag TAG] <name>

                See 'demo greet --help'.

                """)
    }

    @Test func badInputIsOneLineAndExitTwo() {
        let run = Self.run(["fail"])
        #expect(run.code == .badInput)
        #expect(run.err == "error: the input is wrong\n")
    }

    /// A file-system failure is `file: what went wrong (errno text)`
    /// (source: "this book: a Foundation file error without an errno is told in the C library's words").
    @Test func anUnexpectedFileErrorIsOneLineNamingTheFile() {
        let run = Self.run(["save"])
        #expect(run.code == .badInput)
        #expect(run.err == "error: out/report.md: cannot write the file (Permission denied)\n")
    }

    @Test func helpAndVersion() {
        let help = Self.run(["greet", "--help"])
        #expect(help.code == .success)
        #expect(
            help.out == """
                OVERVIEW: Say hello.

                USAGE:
                  demo greet [--loud] [--times N] [--tag TAG] <name>

                ARGUMENTS:
                  <name>  Who to greet.

                OPTIONS:
                  -l, --loud  Shout.
                  --times N   How often.
                  --tag TAG   A tag; repeatable.
                  -h, --help  Show this help.

                """)
        #expect(Self.run(["help", "greet"]).out == help.out)
        #expect(Self.run(["--version"]).out == "demo 1.2.3\n")
        let unknown = Self.run(["wave"])
        #expect(unknown.code == .usage)
        #expect(unknown.err.hasPrefix("error: unknown command 'wave'\n"))
    }
}
