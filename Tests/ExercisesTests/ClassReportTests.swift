import Foundation
import Testing

@testable import Exercises

/// The class report links each learner's row to the report the grade command wrote in a folder
/// of the learner's name; any name a folder can have must keep that link and its table row whole.
struct ClassReportTests {
    static let exercise = Exercise(
        id: "01-first", number: 1, slug: "first", folder: URL(fileURLWithPath: "/nonexistent/01-first"),
        title: "First", readmeText: "# First\n")
    static let catalog = ExerciseCatalog(root: URL(fileURLWithPath: "/nonexistent"), exercises: [exercise])

    static func row(named name: String) -> String? {
        var learner = ClassReport.Learner(name: name, folder: "/nonexistent/" + name)
        learner.hintsShown = [:]
        learner.report = GradeReport(
            learnerFolder: name, generatedAt: Date(timeIntervalSince1970: 0), catalog: catalog, outcomes: [:])
        let report = ClassReport(
            generatedAt: Date(timeIntervalSince1970: 0), catalog: catalog, learners: [learner])
        return report.markdown().split(separator: "\n").first { $0.hasPrefix("| [") }.map(String.init)
    }

    @Test func aPlainNameLinksAsItIs() {
        #expect(Self.row(named: "morning-ada") == "| [morning-ada](morning-ada/report.md) | — | 0 of 1 | 0 |")
    }

    @Test func aNameWithSpacesParenthesesAndABarStillLinksToItsFolder() {
        #expect(
            Self.row(named: "Lan Anh (B) | 2")
                == #"| [Lan Anh (B) \| 2](Lan%20Anh%20%28B%29%20%7C%202/report.md) | — | 0 of 1 | 0 |"#)
    }

    @Test func aVietnameseNameIsEncodedAsUTF8() {
        #expect(Self.row(named: "Nguyễn") == "| [Nguyễn](Nguy%E1%BB%85n/report.md) | — | 0 of 1 | 0 |")
    }

    /// The encoded path names the folder: decoding it gives the name back, for every name tried.
    @Test(arguments: ["a b", "a(b", "a)b", "a|b", "a#b", "a?b", "a%b", "a<b>", "Đặng Thị", "x [1]"])
    func theLinkDecodesToTheFolderName(name: String) {
        let path = ClassReport.pathInLink(name)
        #expect(path.removingPercentEncoding == name)
        #expect(!path.contains { " ()|<>[]#?".contains($0) })
    }
}
