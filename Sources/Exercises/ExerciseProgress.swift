import Foundation

/// A learner's progress, kept in `.exercises-state.json` at the repository root (git ignores it,
/// so each learner has their own).
///
/// ```json
/// {"current":"02-validate-a-scheme-registration","done":["01-parse-a-scheme-link"],"hintsShown":{"01-parse-a-scheme-link":1},"version":1}
/// ```
package struct ExerciseProgress: Codable, Equatable, Sendable {
    static let fileName = ".exercises-state.json"

    var version = 1
    /// The exercise the learner works on; `nil` means the first one not done.
    package var current: String?
    /// Exercises whose check passed, in the order they were done.
    package var done: [String] = []
    /// How many hints of each exercise `hint` has revealed.
    package var hintsShown: [String: Int] = [:]
    /// The language the tasks and hints are read in (`vi`), nil for the book's own (English).
    package var language: String?

    init() {}

    /// Every key is optional, so a file written by hand (or by an older version) still reads.
    /// ``ProgressFile`` checks a file before it gets here.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
        current = try container.decodeIfPresent(String.self, forKey: .current)
        done = try container.decodeIfPresent([String].self, forKey: .done) ?? []
        hintsShown = try container.decodeIfPresent([String: Int].self, forKey: .hintsShown) ?? [:]
        language = try container.decodeIfPresent(String.self, forKey: .language)
    }

    /// The file as this tool writes it: sorted keys, one line.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var data = try encoder.encode(self)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    package func isDone(_ exercise: Exercise) -> Bool { done.contains(exercise.id) }

    /// A code such as `vi` or `pt-BR`: letters, then optionally a dash and letters.
    package static func isLanguageCode(_ code: String) -> Bool {
        let parts = code.split(separator: "-", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count)
            && parts.allSatisfy { part in
                (2...8).contains(part.count) && part.allSatisfy { $0.isASCII && $0.isLetter }
            }
    }

    /// The exercise to work on: the chosen one, else the first one not done, else `nil` (all done).
    package func currentExercise(in catalog: ExerciseCatalog) -> Exercise? {
        if let current, let exercise = catalog.exercises.first(where: { $0.id == current }) {
            return exercise
        }
        return catalog.exercises.first { !isDone($0) }
    }

    /// The first exercise not done after `exercise`, wrapping around to the start of the book.
    package func nextToDo(after exercise: Exercise?, in catalog: ExerciseCatalog) -> Exercise? {
        let all = catalog.exercises
        let start = exercise.flatMap { all.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        let order = all[min(start, all.count)...] + all[..<min(start, all.count)]
        return order.first { !isDone($0) && $0 != exercise }
    }

    /// Records a passing check. When it was the current exercise, the next one not done becomes
    /// current. Returns that next exercise, if any.
    @discardableResult
    package mutating func markDone(_ exercise: Exercise, in catalog: ExerciseCatalog) -> Exercise? {
        let wasCurrent = currentExercise(in: catalog) == exercise
        if !done.contains(exercise.id) { done.append(exercise.id) }
        guard wasCurrent else { return nil }
        let next = nextToDo(after: exercise, in: catalog)
        current = next?.id
        return next
    }
}
