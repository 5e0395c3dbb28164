import Foundation
import TestSupport
import Testing

/// The fixture files of the subject commands, and a runner that starts in their folder so that
/// outputs name them the way a user would type them.
enum SubjectFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/subject")

    /// Runs `workbook` in the fixture folder (off the cooperative pool: see `CommandRunner.run`).
    static func run(_ arguments: [String]) async throws -> CommandRunner.Output {
        try await CommandRunner.run("workbook", arguments, in: folder)
    }

    static func contents(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }
}

/// `workbook aasa lint` and `workbook aasa match` as a user runs them.
struct AASACommandTests {
    @Test func lintPrintsNothingForACleanFile() async throws {
        let output = try await SubjectFixtures.run(["aasa", "lint", "apple-app-site-association"])
        #expect(output.status == 0)
        #expect(output.stdout == "")
        #expect(output.stderr == "")
    }

    @Test func lintPrintsOneLinePerFindingAndFailsOnErrors() async throws {
        let output = try await SubjectFixtures.run(["aasa", "lint", "aasa-errors.json"])
        #expect(output.status == 1)
        #expect(
            output.stdout == #"""
                aasa-errors.json: error aasa.appid-format applinks.details[0].appIDs[0]: "com.example.shop" is not TEAMID.bundle.id (a 10-character Team ID of upper-case letters and digits, a dot, then the bundle identifier)
                aasa-errors.json: warning aasa.path-no-leading-slash applinks.details[0].components[0]["/"]: write the leading "/": swcutil reads "product/*" as "/product/*", but Apple's examples always write it

                """#)
        #expect(output.stderr == "")
    }

    @Test func warningsAloneDoNotFailTheLint() async throws {
        let output = try await SubjectFixtures.run(["aasa", "lint", "aasa-warnings.json"])
        #expect(output.status == 0)
        #expect(
            output.stdout == """
                aasa-warnings.json: warning aasa.unknown-key applinks.details[0].components[0].commment: \
                unknown key "commment" is ignored; expected one of /, ?, #, exclude, comment, caseSensitive, \
                percentEncoded

                """)
    }

    @Test func aWrongShapeIsAFindingNotBadInput() async throws {
        let output = try await SubjectFixtures.run(["aasa", "lint", "aasa-wrong-shape.json"])
        #expect(output.status == 1)
        #expect(
            output.stdout
                == "aasa-wrong-shape.json: error aasa.type applinks.details: expected array, found string\n")
    }

    @Test func aMissingFileIsBadInput() async throws {
        let output = try await SubjectFixtures.run(["aasa", "lint", "no-such-file"])
        #expect(output.status == 2)
        #expect(output.stdout == "")
        #expect(output.stderr == "error: no-such-file: no such file\n")
    }

    @Test func invalidJSONIsBadInputNamingLineAndColumn() async throws {
        for command in [["aasa", "lint"], ["aasa", "match"]] {
            let arguments =
                command + ["aasa-not-json.json"] + (command[1] == "match" ? ["https://example.com/"] : [])
            let output = try await SubjectFixtures.run(arguments)
            #expect(output.status == 2)
            #expect(output.stdout == "")
            #expect(
                output.stderr
                    == "error: aasa-not-json.json:3:18: not valid JSON: a comma before '}': remove the trailing comma\n"
            )
        }
    }

    @Test func matchPrintsTheAppIDsInFileOrder() async throws {
        let output = try await SubjectFixtures.run([
            "aasa", "match", "apple-app-site-association", "https://example.com/product/42?ref=journal",
        ])
        #expect(output.status == 0)
        #expect(
            output.stdout == """
                ABCDE12345.com.example.shop
                ABCDE12345.com.example.shop.beta
                FGHIJ67890.com.example.journal

                """)
        #expect(output.stderr == "")
    }

    @Test func matchWithoutAnAppPrintsNothingAndExitsOne() async throws {
        let output = try await SubjectFixtures.run([
            "aasa", "match", "apple-app-site-association", "https://example.com/help/faq",
        ])
        #expect(output.status == 1)
        #expect(output.stdout == "")
        #expect(output.stderr == "no app opens https://example.com/help/faq; run with --explain to see why\n")
    }

    @Test func explainNamesTheDecidingRuleOfEveryEntry() async throws {
        let output = try await SubjectFixtures.run([
            "aasa", "match", "apple-app-site-association", "https://example.com/help/faq", "--explain",
        ])
        #expect(output.status == 1)
        #expect(
            output.stdout == """
                details[0] ABCDE12345.com.example.shop, ABCDE12345.com.example.shop.beta: keeps its apps out: \
                components[0] {"/":"/help/*","comment":"Help pages stay on the web.","exclude":true} \
                matches and excludes it
                details[1] FGHIJ67890.com.example.journal: decides nothing: no rule matches

                """)
        let opens = try await SubjectFixtures.run([
            "aasa", "match", "--explain", "apple-app-site-association", "https://example.com/product/1",
        ])
        #expect(opens.status == 0)
        #expect(
            opens.stdout == """
                details[0] ABCDE12345.com.example.shop, ABCDE12345.com.example.shop.beta: opens the URL: \
                components[1] {"/":"/product/*"} matches
                details[1] FGHIJ67890.com.example.journal: decides nothing: no rule matches

                """)
    }

    /// The first entry that decides for an app decides for good (source:
    /// "book-aasa-first-entry-decides"): compared with swcutil by st-tech/universal-links-test's
    /// CI for "matched, then excluded later"; the rest is that project's simulation.
    @Test func anAppExcludedByAnEarlierEntryStaysOutAndExplainSaysWhy() async throws {
        let plain = try await SubjectFixtures.run([
            "aasa", "match", "aasa-excluded-then-opened.json", "https://example.com/admin/users",
        ])
        #expect(plain.status == 0)
        #expect(plain.stdout == "FGHIJ67890.com.example.journal\n")
        let explained = try await SubjectFixtures.run([
            "aasa", "match", "aasa-excluded-then-opened.json", "https://example.com/admin/users", "--explain",
        ])
        #expect(
            explained.stdout == """
                details[0] ABCDE12345.com.example.shop: keeps its apps out: components[0] \
                {"/":"/admin/*","exclude":true} matches and excludes it
                details[1] ABCDE12345.com.example.shop, FGHIJ67890.com.example.journal: opens the URL: \
                components[0] {"/":"*"} matches (not for ABCDE12345.com.example.shop: details[0] decided first)

                """)
    }

    @Test func explainQuotesALegacyPath() async throws {
        let output = try await SubjectFixtures.run([
            "aasa", "match", "aasa-legacy.json", "https://example.com/help/faq", "--explain",
        ])
        #expect(output.status == 1)
        #expect(
            output.stdout == """
                details[0] ABCDE12345.com.example.shop: keeps its apps out: paths[0] "NOT /help/*" matches \
                and excludes it

                """)
    }

    @Test func aFileIOSCannotReadIsBadInputForMatch() async throws {
        let output = try await SubjectFixtures.run([
            "aasa", "match", "aasa-wrong-shape.json", "https://example.com/",
        ])
        #expect(output.status == 2)
        #expect(
            output.stderr == """
                error: aasa-wrong-shape.json: iOS cannot read this file as an apple-app-site-association file; \
                run 'workbook aasa lint aasa-wrong-shape.json' to see why

                """)
    }

    @Test(arguments: [
        ("https://exa mple.com/", "error: 'https://exa mple.com/' is not a URL\n"),
        (
            "product/42",
            "error: 'product/42' is not an absolute URL; write it with its scheme, as in https://example.com/path\n"
        ),
        (
            "shop://product/42",
            "error: 'shop://product/42' is not a web URL; Universal Links are http or https URLs on an associated domain\n"
        ),
    ])
    func aURLThatIsNotAWebLinkIsBadInput(url: String, message: String) async throws {
        let output = try await SubjectFixtures.run(["aasa", "match", "apple-app-site-association", url])
        #expect(output.status == 2)
        #expect(output.stdout == "")
        #expect(output.stderr == message)
    }

    @Test func anUnknownOptionIsAUsageError() async throws {
        let output = try await SubjectFixtures.run(["aasa", "lint", "--strict", "apple-app-site-association"])
        #expect(output.status == 64)
        #expect(
            output.stderr == """
                error: unknown option '--strict'

                USAGE:
                  workbook aasa lint <FILE>

                See 'workbook aasa lint --help'.

                """)
    }

    @Test func aMissingArgumentIsAUsageError() async throws {
        let output = try await SubjectFixtures.run(["aasa", "match", "apple-app-site-association"])
        #expect(output.status == 64)
        #expect(
            output.stderr == """
                error: missing argument URL

                USAGE:
                  workbook aasa match [--explain] <FILE> <URL>

                See 'workbook aasa match --help'.

                """)
    }

    @Test func matchHelpExplainsTheQuestionAndTheExitStatus() async throws {
        let output = try await SubjectFixtures.run(["aasa", "match", "--help"])
        #expect(output.status == 0)
        #expect(
            output.stdout == """
                OVERVIEW: Print the app IDs an apple-app-site-association file lets open a URL.

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

                USAGE:
                  workbook aasa match [--explain] <FILE> <URL>

                ARGUMENTS:
                  <FILE>  The apple-app-site-association file.
                  <URL>   The link to ask about, such as https://example.com/product/42.

                OPTIONS:
                  --explain   Print the deciding rule of every details entry instead of the app IDs.
                  -h, --help  Show this help.

                """)
    }

    @Test func lintWithoutAFileIsAUsageError() async throws {
        let output = try await SubjectFixtures.run(["aasa", "lint"])
        #expect(output.status == 64)
        #expect(
            output.stderr.hasPrefix("error: missing argument FILE\n\nUSAGE:\n  workbook aasa lint <FILE>\n"))
    }

    /// Every subject command answers --help for a newcomer: what it answers, an example, and
    /// what its exit status means.
    @Test(arguments: [
        ["aasa", "lint"], ["aasa", "match"], ["assetlinks", "lint"], ["assetlinks", "verify"],
        ["applinks", "match"], ["doctor"],
    ])
    func everySubjectCommandExplainsItself(_ command: [String]) async throws {
        let output = try await SubjectFixtures.run(command + ["--help"])
        #expect(output.status == 0)
        #expect(output.stderr == "")
        #expect(output.stdout.hasPrefix("OVERVIEW: "))
        #expect(output.stdout.contains("\n\nAnswers"))
        #expect(output.stdout.contains("\nExample"))
        #expect(output.stdout.contains("\nExit status: 0 when"))
        #expect(output.stdout.contains("\nUSAGE:\n  workbook \(command.joined(separator: " ")) "))
    }

    @Test func groupHelpListsLintAndMatch() async throws {
        let output = try await SubjectFixtures.run(["help", "aasa"])
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("OVERVIEW: Ask questions of an apple-app-site-association file.\n"))
        #expect(
            output.stdout.contains(
                """
                SUBCOMMANDS:
                  lint   Check an apple-app-site-association file and print every problem.
                  match  Print the app IDs an apple-app-site-association file lets open a URL.
                """))
    }
}
