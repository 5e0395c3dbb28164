import Foundation
import TestSupport
import Testing

@testable import BookChecks

/// The book's SDK against Li2SDK 0.2.0's public API (DESIGN: the SDK's module name and public API
/// follow Li2SDK 0.2.0, so that what a reader learns transfers to the real SDK unchanged).
struct Li2SDKAPITests {
    /// The module under test: the one the book's `swift-sample` blocks import.
    static let module = SnippetCheckers.sdkModule
    static let listingName = "li2sdk-0.2.0-api.txt"
    static let listing = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent(listingName)

    @Test func theSDKOffersEveryPublicDeclarationOfLi2SDK020() async throws {
        let expected = String(decoding: try Data(contentsOf: Self.listing), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        #expect(expected.count == 145, "the listing was cut short: \(expected.count) lines")
        // Waiting for the digester blocks a thread: off the cooperative pool the other suites share.
        let dump = await offPool {
            Result { () throws(APIDump.Failure) in try APIDump.surface(of: Self.module) }
        }
        switch dump {
        case .failure(let failure):
            Issue.record(Comment(rawValue: failure.description))
        case .success(let actual):
            let comparison = APIComparison(expected: expected, actual: actual)
            if let report = comparison.report(
                module: Self.module,
                listing: "Li2SDK 0.2.0's public API (Tests/Li2SDKAPITests/\(Self.listingName))")
            {
                Issue.record(Comment(rawValue: report))
            }
        }
    }
}
