import CommandLineKit
import DeepLinkCore
import Doctor
import Foundation
import Lab

/// `workbook aasa`: questions about an `apple-app-site-association` file (chapter 3).
let aasaCommand = Command(
    CommandSpec(
        name: "aasa",
        abstract: "Ask questions of an apple-app-site-association file.",
        discussion: """
            The apple-app-site-association (AASA) file is the website's half of a Universal Link:
            it names the apps that may open the site's URLs, and which URLs. 'lint' checks the file
            the way iOS reads it; 'match' says which apps would open a given URL, and why.
            """),
    subcommands: [aasaLintCommand, aasaMatchCommand])

/// `workbook aasa lint FILE`
let aasaLintCommand = jsonLintCommand(
    file: "apple-app-site-association",
    question: "will iOS accept this file, and does every rule say what its author meant?",
    pathExample: "applinks.details[0].appIDs[0]", codeExample: "aasa.appid-format", chapter: 3,
    example: (
        "workbook aasa lint apple-app-site-association",
        """
        apple-app-site-association: warning aasa.path-no-leading-slash \
        applinks.details[0].components[0]["/"]: URL paths start with "/", so "product/*" never matches
        """
    ),
    lint: AASALinter.lint)

/// `workbook aasa match FILE URL [--explain]`
let aasaMatchCommand = Command(
    CommandSpec(
        name: "match",
        abstract: "Print the app IDs an apple-app-site-association file lets open a URL.",
        discussion: """
            Answers the question iOS asks when someone taps URL on the domain that serves FILE:
            which apps open it? Prints each app ID on its own line, in file order. When no app
            opens the URL (Safari does), prints nothing and exits 1. Only the path, query and
            fragment of URL count: the file speaks for whichever domain serves it.

            With --explain, prints instead one line per applinks.details entry, saying what it
            decides and which rule decided: the first rule that matches wins, and an exclude rule
            (or a legacy "NOT " path) keeps the entry's apps out. For each app, the first entry
            that decides wins, so a later entry cannot open the URL for an app an earlier one
            excluded.

            Exit status: 0 when at least one app opens the URL, 1 when none does, 2 when the file
            is missing or unreadable or the URL cannot be parsed.

            Example:
              $ workbook aasa match apple-app-site-association https://example.com/product/42
              ABCDE12345.com.example.shop
            """,
        arguments: [
            ArgumentSpec("FILE", help: "The apple-app-site-association file."),
            ArgumentSpec("URL", help: "The link to ask about, such as https://example.com/product/42."),
        ],
        options: [
            OptionSpec(
                "explain", help: "Print the deciding rule of every details entry instead of the app IDs.")
        ])
) { arguments, console in
    let path = arguments[0] ?? ""
    let data = try CommandInput.readJSON(path)
    let file: AASAFile
    do {
        file = try AASAFile.decode(data)
    } catch {
        throw CommandError.badInput(
            "\(path): iOS cannot read this file as an apple-app-site-association file; "
                + "run 'workbook aasa lint \(path)' to see why")
    }
    let url = try CommandInput.webURL(arguments[1] ?? "")
    let matcher = AASAMatcher(file)
    let appIDs = matcher.appIDs(opening: url)
    if arguments.flag("explain") {
        for line in AASAExplanation.lines(matcher, url: url) { console.print(line) }
    } else {
        for appID in appIDs { console.print(appID) }
        if appIDs.isEmpty {
            console.error("no app opens \(url.absoluteString); run with --explain to see why")
        }
    }
    return appIDs.isEmpty ? .failure : .success
}
