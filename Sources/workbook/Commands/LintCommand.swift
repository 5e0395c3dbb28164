import CommandLineKit
import DeepLinkCore
import Doctor
import Foundation

/// A `lint FILE` subcommand for a JSON file that a linter of DeepLinkCore judges: `aasa lint` and
/// `assetlinks lint` read their file, print their findings and exit the same way, and their help
/// says so in the same words.
///
/// ```swift
/// jsonLintCommand(
///     file: "assetlinks.json", question: "can Android's verifier use this file…?",
///     pathExample: "[0].target.package_name", codeExample: "assetlinks.missing-field", chapter: 4,
///     example: ("workbook assetlinks lint assetlinks.json", "assetlinks.json: error …"),
///     lint: AssetLinksLinter.lint)
/// ```
func jsonLintCommand(
    file: String, question: String, pathExample: String, codeExample: String, chapter: Int,
    example: (command: String, output: String), lint: @escaping @Sendable (Data) -> [LintFinding]
) -> Command {
    Command(
        CommandSpec(
            name: "lint",
            abstract: "Check an \(file) file and print every problem.",
            discussion: """
                Answers: \(question)
                Each finding is one line, FILE: severity code json.path: message. The JSON path
                (such as \(pathExample)) stands in for a column;
                the code (\(codeExample)) is stable, and chapter \(chapter) explains each one.
                Prints nothing for a clean file.

                Exit status: 0 when there is no error (warnings alone pass), 1 when there is at least
                one error, 2 when the file is missing or is not JSON.

                Example:
                  $ \(example.command)
                  \(example.output)
                """,
            arguments: [ArgumentSpec("FILE", help: "The \(file) file to check.")])
    ) { arguments, console in
        let path = arguments[0] ?? ""
        return CommandInput.report(lint(try CommandInput.readJSON(path)), file: path, console: console)
    }
}
