import Foundation
import TestSupport
import Testing

@testable import Exercises

/// `.exercises-state.json` read as bad input: a value out of range, a key or version this tool
/// does not write, a folder where the file belongs; and written so that it is never half a file
/// and a symbolic link stays a link.
struct ProgressFileTests {
    static let readme = """
        # Hints: Add two numbers

        <details>
        <summary>Hint 1</summary>

        Use `+`.

        </details>

        <details>
        <summary>Hint 2</summary>

        `a + b`.

        </details>
        """

    static let catalog = ExerciseCatalog(
        root: URL(fileURLWithPath: "/nonexistent"),
        exercises: [
            Exercise(
                id: "01-add-two", number: 1, slug: "add-two",
                folder: URL(fileURLWithPath: "/nonexistent/01-add-two"),
                title: "Add two numbers", readmeText: "# Add two numbers\n", hintsText: readme)
        ])

    struct BadCase: CustomTestStringConvertible, Sendable {
        var id: String
        var text: String
        var error: String
        var testDescription: String { id }
    }

    static let badCases: [BadCase] = [
        BadCase(
            id: "negative-count", text: #"{"version":1,"hintsShown":{"01-add-two":-5}}"#,
            error: #".exercises-state.json:1:41: hintsShown["01-add-two"] is -5; it counts the hints shown, "#
                + "a whole number from 0 to 2"),
        BadCase(
            id: "fractional-count", text: #"{"hintsShown":{"01-add-two":1.5}}"#,
            error:
                #".exercises-state.json:1:29: hintsShown["01-add-two"] is 1.5; it counts the hints shown, "#
                + "a whole number from 0 to 2"),
        BadCase(
            id: "count-as-text", text: #"{"hintsShown":{"01-add-two":"two"}}"#,
            error:
                #".exercises-state.json:1:29: hintsShown["01-add-two"] is "two"; it counts the hints shown, "#
                + "a whole number from 0 to 2"),
        BadCase(
            id: "misspelled-key", text: #"{"version":1,"hintShown":{}}"#,
            error: ".exercises-state.json:1:26: unknown key 'hintShown' (known: current, done, hintsShown, "
                + "language, version); the file is left as it is"),
        BadCase(
            id: "language-not-a-code", text: #"{"version":1,"language":"Tiếng Việt"}"#,
            error: ".exercises-state.json:1:25: language is \"Tiếng Việt\"; expected a language code such as "
                + "\"vi\", or null"),
        BadCase(
            id: "newer-version", text: "{\n  \"version\": 2\n}",
            error: ".exercises-state.json:2:14: version 2 was written by a newer workbook; this one reads "
                + "version 1 (update the workbook, or delete the file to start over)"),
        BadCase(
            id: "version-as-text", text: #"{"version":"1"}"#,
            error: #".exercises-state.json:1:12: version is "1"; expected 1"#),
        BadCase(
            id: "not-an-object", text: "[1]",
            error: #".exercises-state.json:1:1: expected an object such as {"version":1}"#),
        BadCase(
            id: "not-json", text: #"{"done":[}"#,
            error:
                ".exercises-state.json:1:10: not valid JSON: expected a value (an object, array, string, number, "
                + "true, false or null)"),
        BadCase(
            id: "done-not-a-list", text: #"{"done":"01-add-two"}"#,
            error: #".exercises-state.json:1:9: done is "01-add-two"; expected a list of exercise names"#),
        BadCase(
            id: "done-item-not-a-name", text: #"{"done":[1]}"#,
            error: ".exercises-state.json:1:10: done[0] is 1; expected an exercise name"),
        BadCase(
            id: "current-not-a-name", text: #"{"current":true}"#,
            error: ".exercises-state.json:1:12: current is true; expected an exercise name or null"),
    ]

    @Test(arguments: badCases)
    func aFileThisToolDidNotWriteIsRefusedWhereItIsWrongAndLeftAlone(_ testCase: BadCase) throws {
        let folder = try TemporaryFolder()
        try folder.write(".exercises-state.json", testCase.text)
        let file = ProgressFile(root: folder.url)
        #expect(throws: ExerciseError.invalidProgress(testCase.error)) {
            try file.read(catalog: Self.catalog)
        }
        #expect(folder.read(".exercises-state.json") == testCase.text)
    }

    /// 9223372036854775807 once trapped on `+ 1`; past the hints, the count reads as the last one.
    @Test func aCountPastTheHintsIsReadAsTheLastWithAWarning() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            ".exercises-state.json", #"{"hintsShown":{"01-add-two":9223372036854775807,"99-gone":3}}"#)
        let (progress, warnings) = try ProgressFile(root: folder.url).read(catalog: Self.catalog)
        #expect(progress.hintsShown == ["01-add-two": 2, "99-gone": 3], "a renamed exercise keeps its count")
        #expect(
            warnings == [
                #".exercises-state.json:1:29: hintsShown["01-add-two"] is 9223372036854775807, more than the 2 "#
                    + "hints there are; read as 2"
            ])
    }

    @Test func noFileIsAFreshStartAndAFolderIsAnError() throws {
        let folder = try TemporaryFolder()
        let file = ProgressFile(root: folder.url)
        let (fresh, warnings) = try file.read(catalog: Self.catalog)
        #expect(fresh == ExerciseProgress())
        #expect(warnings.isEmpty)
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent(".exercises-state.json"), withIntermediateDirectories: false
        )
        let error = ExerciseError.invalidProgress(
            ".exercises-state.json: a folder stands where the progress file belongs; move it away or delete it"
        )
        #expect(throws: error) { try file.read(catalog: Self.catalog) }
        #expect(throws: ExerciseError.self) { try file.write(fresh) }
    }

    @Test func writingLeavesTheWholeFileAndNoTemporaryFile() throws {
        let folder = try TemporaryFolder()
        var progress = ExerciseProgress()
        progress.done = ["01-add-two"]
        progress.hintsShown = ["01-add-two": 1]
        try ProgressFile(root: folder.url).write(progress)
        #expect(
            folder.read(".exercises-state.json")
                == #"{"done":["01-add-two"],"hintsShown":{"01-add-two":1},"version":1}"# + "\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [".exercises-state.json"])
        #expect(try ProgressFile(root: folder.url).read(catalog: Self.catalog).0 == progress)
    }

    /// A learner who keeps the file elsewhere (a dotfiles repository) keeps the link.
    @Test func aSymbolicLinkIsWrittenThroughNotReplaced() throws {
        let folder = try TemporaryFolder()
        try folder.write("kept/progress.json", "{}")
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent(".exercises-state.json").path,
            withDestinationPath: "kept/progress.json")
        var progress = ExerciseProgress()
        progress.current = "01-add-two"
        try ProgressFile(root: folder.url).write(progress)
        let link = try FileManager.default.destinationOfSymbolicLink(
            atPath: folder.url.appendingPathComponent(".exercises-state.json").path)
        #expect(link == "kept/progress.json")
        #expect(
            folder.read("kept/progress.json")
                == #"{"current":"01-add-two","done":[],"hintsShown":{},"version":1}"# + "\n")
    }
}
