import DeepLinkCore
import Foundation
import Testing

@testable import CatchABrokenRouter

extension Expected {
    /// What a decision promises, as a case states it.
    init(_ decision: RouteDecision) {
        switch decision {
        case .navigate(let route): self = .navigate(route)
        case .openInBrowser: self = .openInBrowser
        case .ignore: self = .ignore
        }
    }
}

/// The table is a test suite written by the learner. These tests grade it twice: it must hold
/// for the bookshop's router, and for each broken router at least one of its cases must fail.
struct TableTests {
    /// The cases that hold for the bookshop's router, with their links parsed.
    static var holdingCases: [(RouterCase, URL)] {
        routerCases.compactMap { testCase in
            guard let url = URL(string: testCase.link),
                Expected(Bookshop.router.decide(url)) == testCase.expected
            else { return nil }
            return (testCase, url)
        }
    }

    /// Checks that some case which holds for the bookshop's router fails for `mutant`.
    static func expectCaught(_ mutant: Mutant, sourceLocation: SourceLocation = #_sourceLocation) {
        let catching = holdingCases.filter { testCase, url in
            Expected(mutant.decide(url)) != testCase.expected
        }
        #expect(
            !catching.isEmpty,
            """
            no case catches a router that \(mutant.bug): every case passes for it. The rule it breaks: \
            \(mutant.rule). Add a link on which that rule decides.
            """, sourceLocation: sourceLocation)
    }

    /// Read: chapters/02-routing.md#deciding-what-to-do
    /// Read: chapters/02-routing.md#patterns
    /// Read: chapters/02-routing.md#the-route-table
    @Test func everyCaseHoldsForTheBookshopsRouter() {
        for testCase in routerCases {
            guard let url = URL(string: testCase.link) else {
                Issue.record("\(testCase.id): '\(testCase.link)' is not a URL")
                continue
            }
            let decided = Expected(Bookshop.router.decide(url))
            #expect(
                decided == testCase.expected,
                """
                \(testCase.id): the bookshop's router decides \(decided) for \(testCase.link), the case expects \
                \(testCase.expected). A case that fails for the right router tests nothing: its rule was \
                "\(testCase.rule)"
                """)
        }
    }

    /// Read: chapters/13-inside-the-book.md#proving-it
    @Test func everyCaseHasItsOwnNameAndSaysWhichRuleItPins() {
        let ids = routerCases.map(\.id)
        #expect(
            Set(ids).count == ids.count,
            "each case needs its own id, so that a failure names one case: \(ids)")
        for testCase in routerCases {
            #expect(!testCase.id.isEmpty, "every case has an id: \(testCase.link)")
            #expect(!testCase.rule.isEmpty, "\(testCase.id): say which rule the case pins down")
        }
    }

    /// Read: chapters/02-routing.md#deciding-what-to-do
    @Test func aRouterThatMatchesHostsBySuffixIsCaught() { Self.expectCaught(.matchesHostsBySuffix) }

    /// Read: chapters/02-routing.md#deciding-what-to-do
    @Test func aRouterThatReadsTheHostBeforeTheAtIsCaught() { Self.expectCaught(.readsTheHostBeforeTheAt) }

    /// Read: chapters/02-routing.md#patterns
    @Test func aRouterThatDecodesThePathBeforeSplittingIsCaught() {
        Self.expectCaught(.decodesThePathBeforeSplitting)
    }

    /// Read: chapters/02-routing.md#patterns
    @Test func aRouterThatRefusesATrailingSlashIsCaught() { Self.expectCaught(.refusesATrailingSlash) }

    /// Read: chapters/02-routing.md#deciding-what-to-do
    @Test func aRouterThatSendsUnknownSchemeLinksToTheBrowserIsCaught() {
        Self.expectCaught(.sendsUnknownSchemeLinksToTheBrowser)
    }

    /// Read: chapters/02-routing.md#deciding-what-to-do
    @Test func aRouterThatTreatsHTTPAsForeignIsCaught() { Self.expectCaught(.treatsHTTPAsForeign) }

    /// Read: chapters/02-routing.md#deciding-what-to-do
    @Test func aRouterThatIgnoresThePortIsCaught() { Self.expectCaught(.ignoresThePort) }

    /// Read: chapters/02-routing.md#the-route-table
    @Test func aRouterThatCountsAnEmptyQueryValueIsCaught() { Self.expectCaught(.countsAnEmptyQueryValue) }

    /// Read: chapters/02-routing.md#deciding-what-to-do
    @Test func aRouterThatForgetsTheWWWHostIsCaught() { Self.expectCaught(.forgetsTheWWWHost) }
}
