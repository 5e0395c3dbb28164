import Foundation

/// A workshop at a glance: one row per learner, one column per exercise, the hints each learner
/// revealed, and per exercise how many passed, so that an instructor sees where the class is
/// stuck. Written by `workbook exercises grade` as `class.md`, `class.json` and `class.csv`.
package struct ClassReport: Codable, Sendable, JSONReport {
    /// One learner: their grade report, or why there is none.
    package struct Learner: Codable, Sendable {
        /// Unique in the report: the folder's name, with its parent's when two folders share one.
        package var name: String
        var folder: String
        /// Hints revealed per exercise, from the learner's `.exercises-state.json`; nil without one.
        package var hintsShown: [String: Int]?
        /// Why the progress file could not be read, when it could not.
        package var progressProblem: String?
        package var report: GradeReport?
        /// Why the folder could not be graded at all.
        package var problem: String?

        package init(name: String, folder: String) { (self.name, self.folder) = (name, folder) }

        var hintsTotal: Int? { hintsShown.map { $0.values.reduce(0, +) } }
    }

    /// How many learners passed an exercise, failed it, did not attempt it.
    package struct Total: Codable, Sendable {
        var id: String
        var passed: Int
        var failed: Int
        var notAttempted: Int
        /// Hints revealed for it, over the whole class.
        var hints: Int
    }

    var generatedAt: String
    var exercises: [String]
    package var learners: [Learner]
    var totals: [Total]

    package init(generatedAt: Date, catalog: ExerciseCatalog, learners: [Learner]) {
        self.generatedAt = ISO8601DateFormatter().string(from: generatedAt)
        exercises = catalog.exercises.map(\.id)
        self.learners = learners
        totals = catalog.exercises.map { exercise in
            let statuses = learners.compactMap { $0.report?.exercises.first { $0.id == exercise.id }?.status }
            return Total(
                id: exercise.id, passed: statuses.filter { $0 == "passed" }.count,
                failed: statuses.filter { $0 != "passed" && $0 != "not-attempted" }.count,
                notAttempted: statuses.filter { $0 == "not-attempted" }.count,
                hints: learners.reduce(0) { $0 + ($1.hintsShown?[exercise.id] ?? 0) })
        }
    }

    /// Learner names made unique: a folder's name, then `parent-name` for folders that share it,
    /// then a counter.
    package static func uniqueNames(_ folders: [URL]) -> [String] {
        let plain = folders.map(displayName)
        var names: [String] = []
        for (index, folder) in folders.enumerated() {
            var name = plain[index]
            if plain.filter({ $0 == name }).count > 1 {
                let named =
                    folder.lastPathComponent == "exercises" ? folder.deletingLastPathComponent() : folder
                name = named.deletingLastPathComponent().lastPathComponent + "-" + name
            }
            var unique = name
            var counter = 2
            while names.contains(unique) {
                unique = "\(name)-\(counter)"
                counter += 1
            }
            names.append(unique)
        }
        return names
    }

    /// A learner's folder as a name: the repository's, when the folder given is its `exercises/`.
    static func displayName(_ folder: URL) -> String {
        folder.lastPathComponent == "exercises"
            ? folder.deletingLastPathComponent().lastPathComponent : folder.lastPathComponent
    }

    /// A learner's folder name as a relative link's path: every character a URL path does not
    /// keep is percent-encoded, and so are `(`, `)` and `/`, so that a name with a space, a `)`
    /// or a `|` still links to its folder and leaves the table row whole.
    static func pathInLink(_ name: String) -> String {
        let kept = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "()/"))
        return name.addingPercentEncoding(withAllowedCharacters: kept) ?? name
    }

    /// One cell: `passed`, `failed (3)`, `—` (not attempted), `no build`…
    static func cell(_ report: GradeReport.ExerciseReport?) -> String {
        guard let report else { return "—" }
        switch report.status {
        case "passed": return "passed"
        case "failed": return "failed (\(report.failedTests))"
        case "stopped": return "stopped"
        case "does-not-compile": return "does not compile"
        case "not-run": return "not run"
        default: return "—"
        }
    }

    package func markdown() -> String {
        let graded = learners.filter { $0.report != nil }.count
        let notGraded = learners.count == graded ? "" : " (\(learners.count - graded) not graded)"
        var lines = [
            "# Class report", "",
            "\(learners.count) learner\(learners.count == 1 ? "" : "s")\(notGraded), graded \(generatedAt). A cell is the "
                + "exercise's result (failed, with its failing tests); — is not attempted.", "",
            "| Learner | " + exercises.map { "\($0.prefix(2))" }.joined(separator: " | ")
                + " | Passed | Hints |",
            "| --- | " + exercises.map { _ in "---" }.joined(separator: " | ") + " | --- | --- |",
        ]
        for learner in learners {
            let link = "[\(markdownLine(learner.name))](\(Self.pathInLink(learner.name))/report.md)"
            guard let report = learner.report else {
                lines.append(
                    "| \(markdownLine(learner.name)) | " + exercises.map { _ in "" }.joined(separator: " | ")
                        + " | not graded: \(markdownLine(learner.problem ?? "")) | |")
                continue
            }
            let cells = exercises.map { id in Self.cell(report.exercises.first { $0.id == id }) }
            lines.append(
                "| \(link) | " + cells.joined(separator: " | ")
                    + " | \(report.summary.passed) of \(report.summary.exercises) | \(learner.hintsTotal.map(String.init) ?? "?") |"
            )
        }
        lines.append(
            "| **Passed** | " + totals.map { "\($0.passed) of \(graded)" }.joined(separator: " | ")
                + " | | |")
        lines.append("| **Hints** | " + totals.map { String($0.hints) }.joined(separator: " | ") + " | | |")
        lines += ["", "Exercises:", ""]
        for (index, id) in exercises.enumerated() {
            let total = totals[index]
            lines.append(
                "- \(id.prefix(2)) `\(id)`: \(total.passed) passed, \(total.failed) failed, "
                    + "\(total.notAttempted) not attempted; \(total.hints) hints revealed")
        }
        let unread = learners.filter { $0.progressProblem != nil || $0.hintsShown == nil }
        if !unread.isEmpty {
            lines += [
                "",
                "Hints unknown (no readable `.exercises-state.json`): "
                    + unread.map {
                        "\(markdownLine($0.name))"
                            + ($0.progressProblem.map { " (\(markdownLine($0)))" } ?? "")
                    }
                    .joined(separator: ", ") + ".",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One row per learner: the status of each exercise (`failed:3` with its failing tests), the
    /// exercises passed, the hints revealed (empty when unknown), and why a folder was not graded.
    package func csv() -> String {
        var rows = [["learner"] + exercises + ["passed", "hints", "problem"]]
        for learner in learners {
            let statuses = exercises.map { id -> String in
                guard let exercise = learner.report?.exercises.first(where: { $0.id == id }) else {
                    return ""
                }
                return exercise.status == "failed" ? "failed:\(exercise.failedTests)" : exercise.status
            }
            rows.append(
                [learner.name] + statuses + [
                    learner.report.map { String($0.summary.passed) } ?? "",
                    learner.hintsTotal.map(String.init) ?? "", learner.problem ?? "",
                ])
        }
        return rows.map { $0.map(Self.csvField).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }

    /// RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
