import Foundation
import Literate
import TestSupport
import Testing

@testable import BookChecks

/// The `swift-sample` checker: each sample type-checked against the SDK module of a build in the
/// book folder, its messages at chapter lines.
struct SwiftSampleCheckerTests {
    /// The SDK module, as the samples import it.
    static let sdk = SnippetCheckers.sdkModule

    /// The module folder of the build these tests run in (the test binary sits beside it).
    static let builtModules = CommandRunner.productsDirectory.appendingPathComponent("Modules")

    /// A throwaway book with one chapter; `built` links the running build's modules in where
    /// `./wb test` puts them.
    final class SampleBook {
        let root: URL

        init(chapter: String, built: Bool) throws {
            root = FileManager.default.temporaryDirectory
                .appendingPathComponent("swift-sample-test-\(UUID().uuidString)").resolvingSymlinksInPath()
            let chapters = root.appendingPathComponent("chapters")
            try FileManager.default.createDirectory(at: chapters, withIntermediateDirectories: true)
            try Data(chapter.utf8).write(to: chapters.appendingPathComponent("01-samples.md"))
            if built {
                let debug = root.appendingPathComponent(".build/test/debug")
                try FileManager.default.createDirectory(at: debug, withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(
                    at: debug.appendingPathComponent("Modules"),
                    withDestinationURL: SwiftSampleCheckerTests.builtModules)
            }
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        /// Every block's status and every diagnostic line, as `workbook check` finds them. The
        /// compiler runs block a thread each, so the check runs off the cooperative pool.
        func check() async throws -> (statuses: [String], diagnostics: [String]) {
            let result = Tangler.tangle(try Book.load(root: root))
            let checker = BookChecker(checkers: SnippetCheckers.all(book: root))
            let (reports, diagnostics) = await withCheckedContinuation { continuation in
                DispatchQueue(label: "swift-sample-test").async {
                    continuation.resume(returning: checker.run(result))
                }
            }
            return (reports.map(\.status.description), diagnostics.map(\.description))
        }
    }

    static let twoSamples = """
        # Samples

        ```swift {check=swift-sample}
        import \(sdk)

        Li2.configure(publishableKey: "li2_pk_x", deepLinkDomains: ["go.example"])
        let lead = try await Li2.trackDirectLead(externalId: "user_42")
        print(lead)
        ```

        A wrong argument label:

        ```swift {check=swift-sample}
        import \(sdk)

        Li2.configure(publishableKey: "li2_pk_x", deepLinkDomain: ["go.example"])
        ```
        """

    @Test func aSampleThatCompilesPassesAndAWrongLabelIsAnErrorAtItsChapterPosition() async throws {
        let book = try SampleBook(chapter: Self.twoSamples, built: true)
        let (statuses, diagnostics) = try await book.check()
        #expect(statuses == ["checked (swift-sample)", "checked (swift-sample)"])
        #expect(
            diagnostics == [
                "chapters/01-samples.md:16:14: error: incorrect argument label in call "
                    + "(have 'publishableKey:deepLinkDomain:', expected 'publishableKey:deepLinkDomains:')"
            ])
    }

    @Test func withoutABuiltModuleEverySampleIsAnErrorThatSaysWhatToRun() async throws {
        let book = try SampleBook(chapter: Self.twoSamples, built: false)
        let (_, diagnostics) = try await book.check()
        let message =
            "error: no built \(Self.sdk) module to type-check this sample against (looked for "
            + "\(Self.sdk).swiftmodule in .build/test/debug/Modules and .build/debug/Modules): run ./wb test, "
            + "or swift build --scratch-path .build/test -Xswiftc -warnings-as-errors --enable-code-coverage "
            + "--target \(Self.sdk)"
        #expect(
            diagnostics == [
                "chapters/01-samples.md:3:1: \(message)", "chapters/01-samples.md:13:1: \(message)",
            ])
    }

    @Test func aCompilerWarningIsAWarningAndAnIndentedSampleKeepsItsColumn() async throws {
        let chapter = """
            1. Configure the SDK:

               ```swift {check=swift-sample}
               import \(Self.sdk)

               do { let unused = Li2.lastClickId }
               ```
            """
        let book = try SampleBook(chapter: chapter, built: true)
        let (_, diagnostics) = try await book.check()
        #expect(
            diagnostics == [
                "chapters/01-samples.md:6:13: warning: initialization of immutable value 'unused' was never used; "
                    + "consider replacing with assignment to '_' or removing it [#no-usage]"
            ])
    }

    @Test func theTestBuildsModulesComeBeforeTheServeBuilds() throws {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-sample-search-\(UUID().uuidString)").resolvingSymlinksInPath()
        defer { try? FileManager.default.removeItem(at: root) }
        func build(_ folder: String, module: String) throws {
            let url = root.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try Data().write(to: url.appendingPathComponent("\(module).swiftmodule"))
        }
        let checker = SwiftSampleChecker(bookFolder: root, module: "SDK")
        #expect(checker.modulesFolder == nil)
        try build(".build/debug/Modules", module: "SDK")
        try build(".build/test/debug/Modules", module: "Other")
        #expect(checker.modulesFolder?.path == root.path + "/.build/debug/Modules")
        try build(".build/test/debug/Modules", module: "SDK")
        #expect(checker.modulesFolder?.path == root.path + "/.build/test/debug/Modules")
    }
}
