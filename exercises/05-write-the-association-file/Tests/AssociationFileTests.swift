import DeepLinkCore
import Foundation
import Testing

@testable import WriteTheAssociationFile

/// A URL on example.com and whether the file must let the shop open it.
struct OpenCase: CustomTestStringConvertible, Sendable {
    var id: String
    var source: String
    var url: String
    var opens: Bool
    var rule: String

    var testDescription: String { "\(id): \(url)" }
}

struct AssociationFileTests {
    static let appID = "ABCDE12345.com.example.shop"

    static let cases: [OpenCase] = [
        OpenCase(
            id: "product", source: "this book: chapter 03, The pattern language",
            url: "https://example.com/product/42",
            opens: true, rule: "/product/<id> opens the app"),
        OpenCase(
            id: "order", source: "this book: chapter 03, The pattern language",
            url: "https://example.com/order/A-17",
            opens: true, rule: "/order/<id> opens the app"),
        OpenCase(
            id: "profile", source: "this book: chapter 03, The pattern language",
            url: "https://example.com/profile",
            opens: true, rule: "/profile opens the app"),
        OpenCase(
            id: "promo", source: "this book: chapter 03, The association file",
            url: "https://example.com/promo/SPRING?ref=mail",
            opens: true, rule: "/promo/<code> opens the app, whatever the query"),
        OpenCase(
            id: "case-insensitive", source: "this book: chapter 03, The association file",
            url: "https://example.com/Product/42",
            opens: true, rule: "paths match in any case: set caseSensitive to false in the defaults"),
        OpenCase(
            id: "promo-internal", source: "this book: chapter 03, Which app opens this URL",
            url: "https://example.com/promo/internal/draft", opens: false,
            rule: "/promo/internal/... stays in Safari: an exclude rule must come before the /promo rule"),
        OpenCase(
            id: "opt-out-fragment", source: "this book: chapter 03, The association file",
            url: "https://example.com/product/42#no_universal_links", opens: false,
            rule: "a URL with the fragment no_universal_links stays in Safari: exclude it first"),
        OpenCase(
            id: "home", source: "this book: chapter 03, The pattern language", url: "https://example.com/",
            opens: false,
            rule: "the home page stays in Safari: do not use a catch-all rule"),
        OpenCase(
            id: "help", source: "this book: chapter 03, The pattern language",
            url: "https://example.com/help/returns",
            opens: false, rule: "/help/... is web only"),
        OpenCase(
            id: "profile-prefix", source: "this book: chapter 03, The pattern language",
            url: "https://example.com/profiles",
            opens: false, rule: "/profile is one exact path: /profiles is another page"),
        OpenCase(
            id: "product-without-id", source: "this book: chapter 03, The pattern language",
            url: "https://example.com/product",
            opens: false,
            rule: "/product alone is the web catalogue, and /product/* takes it too: ask for an ID with ?*"),
    ]

    static func lintedFile() throws -> AASAFile {
        let data = Data(associationFile.utf8)
        let findings = AASALinter.lint(data)
        try #require(
            findings.isEmpty,
            "the file must lint clean; the linter says:\n\(findings.map(\.description).joined(separator: "\n"))"
        )
        return try AASAFile.decode(data)
    }

    /// Read: chapters/03-universal-links.md#linting-the-file
    @Test func theFileLintsClean() throws {
        _ = try Self.lintedFile()
    }

    /// Read: chapters/03-universal-links.md#the-association-file
    @Test func theFileUsesTheModernFormat() throws {
        let file = try Self.lintedFile()
        let details = try #require(file.applinks?.details, "the file needs applinks.details")
        #expect(details.count == 1, "one details entry is enough for one app")
        for detail in details {
            #expect(detail.paths == nil, "use components (iOS 13 and later), not the legacy paths")
            #expect(
                detail.appIDs == [Self.appID], "appIDs must be [\"\(Self.appID)\"]: Team ID, a dot, bundle ID"
            )
        }
    }

    /// Read: chapters/03-universal-links.md#which-app-opens-this-url
    /// Read: chapters/03-universal-links.md#the-pattern-language
    @Test(arguments: cases)
    func eachURLOpensTheAppOrStaysInSafari(_ testCase: OpenCase) throws {
        let file = try Self.lintedFile()
        let url = try #require(URL(string: testCase.url))
        let opening = AASAMatcher(file).appIDs(opening: url)
        let expected = testCase.opens ? [Self.appID] : []
        #expect(
            opening == expected,
            "\(testCase.url) must \(testCase.opens ? "open the app" : "stay in Safari"): \(testCase.rule)")
    }
}
