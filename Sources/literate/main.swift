// The engine's own executable: it links only the literate engine, so the book can be re-tangled
// even when the tangled modules do not compile.
import CommandLineKit
import Foundation
import LiterateCLI

let tool = CommandLineTool(
    root: Command(
        CommandSpec(
            name: "literate",
            abstract: "Tangle and check the book without building the tangled modules.",
            discussion: "Use it when the package does not build: './wb tangle' runs it for you."),
        subcommands: [tangleCommand, checkCommand { _ in [] }, lintCommand]),
    version: workbookVersion)
exit(tool.run(Array(CommandLine.arguments.dropFirst()), console: .standard).rawValue)
