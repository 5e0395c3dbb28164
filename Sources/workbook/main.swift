// `workbook`: the command-line front door to the book, its checks and (later) its server.
import CommandLineKit
import Foundation
import LiterateCLI

let tool = CommandLineTool(
    root: Command(
        CommandSpec(
            name: "workbook",
            abstract: "Deep Link Workbook: tangle, check and serve the book on mobile deep linking.",
            discussion: """
                The chapters in chapters/ are the source of truth. 'workbook tangle' writes the
                Swift they define; 'workbook check' proves every snippet; 'workbook lint' runs
                swift-format with findings mapped to chapter lines.
                """),
        subcommands: WorkbookCommands.all),
    version: workbookVersion)
exit(tool.run(Array(CommandLine.arguments.dropFirst()), console: .standard).rawValue)
