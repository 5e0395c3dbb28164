import Foundation
import Literate

/// One exercise: a folder `exercises/NN-slug/` holding `README.md` (the task), `HINTS.md` (its
/// hints, kept apart so that reading the task gives none away), `Starter/` (code that compiles and carries `// TODO` markers), `Solution/` (the reference
/// answer) and `Tests/` (Swift Testing tests that fail on the starter and pass on the solution).
///
/// The learner edits `Work/`, a copy of the starter that git ignores. The Swift module is named
/// after the slug (`01-parse-a-scheme-link` gives `ParseASchemeLink`), so the tests can
/// `@testable import` it whichever of the three folders is being built.
///
/// ```swift
/// let catalog = try ExerciseCatalog.load(root: repositoryRoot)
/// let first = try catalog.exercise(named: "1")   // 01-parse-a-scheme-link
/// first.moduleName                               // "ParseASchemeLink"
/// ```
package struct Exercise: Equatable, Sendable {
    /// The folder name, `01-parse-a-scheme-link`: the exercise's stable identifier.
    package var id: String
    /// The number in front of the slug.
    package var number: Int
    /// The folder name without its number: `parse-a-scheme-link`.
    var slug: String
    var folder: URL
    /// The README's first `# ` heading, or the slug when it has none.
    package var title: String
    /// The README's text, read once.
    var readmeText: String
    /// `HINTS.md`'s text, read once; nil when the exercise has none.
    var hintsText: String? = nil

    package var readme: URL { folder.appendingPathComponent("README.md") }
    package var hintsFile: URL { folder.appendingPathComponent("HINTS.md") }
    package var starter: URL { folder.appendingPathComponent("Starter") }
    package var solution: URL { folder.appendingPathComponent("Solution") }
    var tests: URL { folder.appendingPathComponent("Tests") }
    /// The learner's copy of the starter, ignored by git.
    package var work: URL { folder.appendingPathComponent("Work") }
    /// The book the exercise belongs to: the folder holding `exercises/`.
    package var bookRoot: URL { folder.deletingLastPathComponent().deletingLastPathComponent() }

    /// The two-digit number as written in the folder name.
    package var numberText: String { String(id.prefix { $0.isNumber }) }

    /// The module the starter, the solution and the learner's work are built as.
    var moduleName: String { Self.moduleName(forSlug: slug) }
    var testModuleName: String { moduleName + "Tests" }

    /// `parse-a-scheme-link` gives `ParseASchemeLink`: each word capitalised, dashes dropped.
    static func moduleName(forSlug slug: String) -> String {
        let words = slug.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
        let name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = name.first, first.isLetter else { return "Exercise" + name }
        return name
    }

    /// The hints of `HINTS.md`, in order (folded `<details>` blocks, see ``ExerciseReadme/hints(in:)``).
    package var hints: [String] { ExerciseReadme.hints(in: hintsText ?? "", titledAlso: hintTitle) }

    /// In a translation, how a hint's `<summary>` begins (`gợi ý` for `Hint 1` read as
    /// `Gợi ý 1`), lowercased; nil in English.
    var hintTitle: String?

    /// Hints written in the README itself, where any reader of the task sees them: `verify`
    /// reports them.
    var hintsInReadme: Int { ExerciseReadme.hints(in: readmeText).count }

    /// The text of the README's `## The task` section, for `next`.
    package var task: String? { ExerciseReadme.section(named: "The task", in: readmeText) }
}

/// Every exercise of a book, in folder-name order (which is book order).
package struct ExerciseCatalog: Sendable {
    var root: URL
    package var exercises: [Exercise]

    /// Reads `ROOT/exercises/NN-slug/` folders that have a README. Other entries (the folder's
    /// own README, INSTRUCTORS.md) are skipped.
    static func load(root: URL) throws -> ExerciseCatalog {
        let folder = root.appendingPathComponent("exercises")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            throw ExerciseError.noExercisesFolder(folder.path)
        }
        var exercises: [Exercise] = []
        for name in names.sorted() {
            guard let exercise = exercise(named: name, in: folder) else { continue }
            exercises.append(exercise)
        }
        return ExerciseCatalog(root: root, exercises: exercises)
    }

    static func exercise(named name: String, in folder: URL) -> Exercise? {
        let digits = name.prefix { $0.isNumber }
        guard !digits.isEmpty, let number = Int(digits), name.dropFirst(digits.count).first == "-" else {
            return nil
        }
        let exerciseFolder = folder.appendingPathComponent(name)
        guard
            let data = FileManager.default.contents(
                atPath: exerciseFolder.appendingPathComponent("README.md").path)
        else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        let hints = FileManager.default.contents(
            atPath: exerciseFolder.appendingPathComponent("HINTS.md").path
        )
        .map { String(decoding: $0, as: UTF8.self) }
        let slug = String(name.dropFirst(digits.count + 1))
        return Exercise(
            id: name, number: number, slug: slug, folder: exerciseFolder,
            title: ExerciseReadme.title(in: text) ?? slug, readmeText: text, hintsText: hints)
    }

    /// Finds an exercise by number (`1`, `01`), folder name (`01-parse-a-scheme-link`) or slug.
    package func exercise(named text: String) throws -> Exercise {
        let found = exercises.first { exercise in
            exercise.id == text || exercise.slug == text || Int(text) == exercise.number
        }
        guard let found else { throw ExerciseError.unknownExercise(text, known: exercises.map(\.id)) }
        return found
    }

    /// The exercise after `exercise` in book order, if any.
    func exercise(after exercise: Exercise) -> Exercise? {
        guard let index = exercises.firstIndex(of: exercise), index + 1 < exercises.count else { return nil }
        return exercises[index + 1]
    }
}

/// Reading the parts of an exercise README that the commands use.
package enum ExerciseReadme {
    /// The first level-one heading.
    static func title(in text: String) -> String? {
        headings(text).first { $0.hasPrefix("# ") }.map { String($0.dropFirst(2)).trimmed }
    }

    /// The hints, in order. A hint is folded, so that reading the README does not give it away:
    ///
    /// ```markdown
    /// <details>
    /// <summary>Hint 1</summary>
    ///
    /// The text, in Markdown.
    ///
    /// </details>
    /// ```
    ///
    /// The older form, a `### Hint N` section ending at the next heading, is read too.
    static func hints(in text: String, titledAlso translatedTitle: String? = nil) -> [String] {
        var hints: [String] = []
        var current: [String]?
        var folded = false
        func finish() {
            if let body = current { hints.append(body.joined(separator: "\n").trimmed) }
            current = nil
            folded = false
        }
        for (line, isHeading) in linesMarkingHeadings(text) {
            let lower = line.trimmed.lowercased()
            if folded {
                if lower.hasPrefix("</details>") { finish() } else { current?.append(line) }
                continue
            }
            if isHeading {
                finish()
                current = lower.hasPrefix("### hint") ? [] : nil
            } else if let summary = summaryText(line.trimmed)?.lowercased(),
                summary.hasPrefix("hint") || translatedTitle.map({ summary.hasPrefix($0) }) == true
            {
                finish()
                current = []
                folded = true
            } else if !lower.hasPrefix("<details") {
                current?.append(line)
            }
        }
        finish()
        return hints.filter { !$0.isEmpty }
    }

    /// `Hint 1` from `<summary>Hint 1</summary>` (after a `<details>` on the same line, too).
    private static func summaryText(_ line: String) -> String? {
        guard let open = line.range(of: "<summary>", options: .caseInsensitive),
            let close = line.range(
                of: "</summary>", options: .caseInsensitive, range: open.upperBound..<line.endIndex)
        else { return nil }
        return String(line[open.upperBound..<close.lowerBound]).trimmed
    }

    /// The body of the `## NAME` section, up to the next heading of level one or two.
    static func section(named name: String, in text: String) -> String? {
        var body: [String]?
        for (line, isHeading) in linesMarkingHeadings(text) {
            if isHeading, line.hasPrefix("## ") || line.hasPrefix("# ") {
                if let body { return body.joined(separator: "\n").trimmed }
                if line == "## \(name)" { body = [] }
                continue
            }
            body?.append(line)
        }
        return body.map { $0.joined(separator: "\n").trimmed }
    }

    /// Every line with a flag telling whether it starts an ATX heading, as CommonMark reads the
    /// text: a `#` line inside a code block, fenced or indented, is not one.
    private static func linesMarkingHeadings(_ text: String) -> [(String, Bool)] {
        var headingLines = Set<Int>()
        func collect(_ node: MarkdownNode) {
            if case .heading = node.kind { headingLines.insert(node.line) }
            node.children.forEach(collect)
        }
        collect(MarkdownParser.parse(text, inlines: false))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.enumerated().map { index, line in
            (String(line), line.hasPrefix("#") && headingLines.contains(index + 1))
        }
    }

    private static func headings(_ text: String) -> [String] {
        linesMarkingHeadings(text).filter(\.1).map(\.0)
    }
}

/// What can go wrong before any build runs; each becomes one line and exit status 2.
package enum ExerciseError: Error, Equatable, CustomStringConvertible {
    case noExercisesFolder(String)
    case unknownExercise(String, known: [String])
    case unreadableProgress(String, detail: String)
    /// A progress file that is not what this tool writes: `file:line:col: what is wrong`.
    case invalidProgress(String)
    case unwritableProgress(String, detail: String)
    case noSwift
    case missingFolder(String)
    /// A folder to grade that holds no exercise folder at all: most likely the wrong folder.
    case noExerciseFolders(String)

    package var description: String {
        switch self {
        case .noExercisesFolder(let path):
            return "no exercises folder at \(path)"
        case .unknownExercise(let text, let known):
            let list = known.isEmpty ? "there are none" : "try one of: \(known.joined(separator: ", "))"
            return "no exercise '\(text)'; \(list)"
        case .unreadableProgress(let path, let detail):
            return "cannot read the progress file \(path) (\(detail)); delete it to start over"
        case .invalidProgress(let text):
            return text
        case .unwritableProgress(let path, let detail):
            return "cannot write the progress file \(path) (\(detail)); nothing was changed"
        case .noSwift:
            return "swift not found on PATH: the exercises are built with the Swift toolchain"
        case .missingFolder(let path):
            return "no folder at \(path)"
        case .noExerciseFolders(let path):
            return "\(path) holds no exercise folder (NN-slug/, or exercises/NN-slug/): nothing to grade"
        }
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
