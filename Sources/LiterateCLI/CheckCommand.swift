import CommandLineKit
import Foundation
import Literate

/// `check`: tangle --check, then every snippet checker and every check of the book as a whole;
/// `--report` prints each block's status. `checkers` makes the snippet checkers for a book folder,
/// so that a checker can read that book's files; `bookChecks` the checks of the whole book.
public func checkCommand(
    checkers: @escaping @Sendable (URL) -> [any SnippetChecker],
    bookChecks: @escaping @Sendable (URL) -> [any BookCheck] = { _ in [] }
) -> Command {
    Command(
        CommandSpec(
            name: "check",
            abstract: "Check that the book is in sync and every snippet is valid.",
            discussion: """
                Runs 'tangle --check', then a checker for every block: json blocks must parse,
                check=NAME selects a named checker, and Apple-only Swift (canImport=MODULE) is
                parse-checked with swiftc. Every block gets one status: compiled, tangled,
                parse-checked, checked (by a checker), unused or display-only. Then the checks of
                the book as a whole run, each ending with a line of counts.
                """,
            options: [
                bookOption,
                OptionSpec("report", help: "Print every block with its status, and a count per status."),
            ])
    ) { arguments, console in
        let root = try bookRoot(arguments)
        let (book, result) = try loadBookAndTangle(root, console: console)
        let plan = TangleWriter.plan(result, root: root, force: false)
        let inSync = report(plan, files: result.files.count, console: console)
        let checker = BookChecker(checkers: checkers(root))
        var (reports, diagnostics) = checker.run(result)
        let wholeBook = bookChecks(root).map { $0.check(book) }
        diagnostics += wholeBook.flatMap(\.diagnostics)
        for diagnostic in diagnostics.sorted(by: Diagnostic.bookOrder) {
            console.error(diagnostic.description)
        }
        if arguments.flag("report") {
            printReport(reports, console: console)
        }
        for summary in wholeBook.compactMap(\.summary) { console.print(summary) }
        let errors = diagnostics.filter { $0.severity == .error }.count
        console.print(
            "check: \(reports.count) block\(reports.count == 1 ? "" : "s"), \(errors) error\(errors == 1 ? "" : "s")"
        )
        return inSync && errors == 0 ? .success : .failure
    }
}

func printReport(_ reports: [BlockReport], console: Console) {
    let rows = reports.map { report -> [String] in
        [
            report.block.chapter, String(report.block.location.line), report.block.attributes.language ?? "-",
            report.block.label, report.status.description,
        ]
    }
    let header = ["CHAPTER", "LINE", "LANGUAGE", "CHUNK OR FILE", "STATUS"]
    var widths = header.map(\.count)
    for row in rows {
        for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    func format(_ row: [String]) -> String {
        row.enumerated().map { index, cell in
            index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
        }.joined(separator: "  ")
    }
    console.print(format(header))
    for row in rows { console.print(format(row)) }
    console.print("")
    var counts: [String: Int] = [:]
    for report in reports { counts[report.status.key, default: 0] += 1 }
    let order = ["compiled", "tangled", "parse-checked", "checked", "unused", "display-only"]
    let summary = order.compactMap { key in counts[key].map { "\(key): \($0)" } }
    console.print("blocks by status: " + summary.joined(separator: ", "))
}
