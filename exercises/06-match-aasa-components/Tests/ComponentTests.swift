import Dispatch
import Foundation
import Testing

@testable import MatchAasaComponents

/// A pattern, a text, and whether the whole text matches.
struct PatternCase: CustomTestStringConvertible, Sendable {
    var id: String
    var source: String
    var pattern: String
    var text: String
    var caseSensitive = true
    var matches: Bool
    var rule: String

    var testDescription: String { "\(id): \"\(pattern)\" vs \"\(text)\"" }
}

/// A URL's path and fragment, a rule list, and the decision.
struct DecisionCase: CustomTestStringConvertible, Sendable {
    var id: String
    var source: String
    var components: [Component]
    var path: String
    var fragment: String?
    var expected: Decision
    var rule: String

    var testDescription: String { id }
}

struct ComponentTests {
    static let patterns: [PatternCase] = [
        PatternCase(
            id: "literal", source: "this book: chapter 03, The pattern language", pattern: "/about",
            text: "/about",
            matches: true, rule: "a literal matches itself"),
        PatternCase(
            id: "literal-whole", source: "this book: chapter 03, The pattern language", pattern: "/about",
            text: "/aboutus",
            matches: false, rule: "a pattern must match the whole text, not a prefix"),
        PatternCase(
            id: "star-empty", source: "this book: chapter 03, The pattern language", pattern: "/buy/*",
            text: "/buy/",
            matches: true, rule: "* matches zero characters too"),
        PatternCase(
            id: "star-slashes", source: "this book: chapter 03, The pattern language", pattern: "/buy/*",
            text: "/buy/a/b",
            matches: true, rule: "* crosses slashes"),
        PatternCase(
            id: "star-needs-the-literal", source: "this book: chapter 03, The pattern language",
            pattern: "/buy/*", text: "/buyer",
            matches: false, rule: "/buy/* needs all of /buy/ before the star"),
        PatternCase(
            id: "question-one", source: "this book: chapter 03, The pattern language", pattern: "/item/?",
            text: "/item/7",
            matches: true, rule: "? matches exactly one character"),
        PatternCase(
            id: "question-not-two", source: "this book: chapter 03, The pattern language", pattern: "/item/?",
            text: "/item/42", matches: false, rule: "? does not match two characters"),
        PatternCase(
            id: "question-star-empty", source: "this book: chapter 03, The pattern language",
            pattern: "/item/?*",
            text: "/item/", matches: false, rule: "?* needs one character at least"),
        PatternCase(
            id: "question-star-many", source: "this book: chapter 03, The pattern language",
            pattern: "/item/?*",
            text: "/item/42", matches: true, rule: "?* takes one or more characters"),
        PatternCase(
            id: "star-in-middle", source: "this book: chapter 03, The pattern language", pattern: "/*/detail",
            text: "/en/shop/detail", matches: true,
            rule: "a * in the middle can stretch over several segments"),
        PatternCase(
            id: "star-must-backtrack", source: "this book: chapter 03, The pattern language", pattern: "*a",
            text: "banana", matches: true, rule: "* must be able to stop before the last a"),
        PatternCase(
            id: "empty-text", source: "this book: chapter 03, The pattern language", pattern: "*", text: "",
            matches: true, rule: "* matches the empty string: an absent part"),
        PatternCase(
            id: "empty-text-question", source: "this book: chapter 03, The pattern language", pattern: "?*",
            text: "",
            matches: false, rule: "?* rejects the empty string"),
        PatternCase(
            id: "case-sensitive", source: "this book: chapter 03, The association file", pattern: "/Buy/*",
            text: "/buy/1",
            matches: false, rule: "matching is case-sensitive by default"),
        PatternCase(
            id: "case-insensitive", source: "this book: chapter 03, Which app opens this URL",
            pattern: "/Buy/*", text: "/buy/1",
            caseSensitive: false, matches: true, rule: "with caseSensitive false, case is ignored"),
    ]

    static let decisions: [DecisionCase] = [
        DecisionCase(
            id: "first-match-opens", source: "this book: chapter 03, Which app opens this URL",
            components: [Component(path: "/buy/*"), Component(path: "/*")], path: "/buy/42",
            expected: .opens(rule: 0), rule: "the first rule that matches decides"),
        DecisionCase(
            id: "later-rule", source: "this book: chapter 03, Which app opens this URL",
            components: [Component(path: "/buy/*"), Component(path: "/sell/*")], path: "/sell/7",
            expected: .opens(rule: 1), rule: "rules are tried in order until one matches"),
        DecisionCase(
            id: "exclude-stops-scan", source: "this book: chapter 03, Which app opens this URL",
            components: [Component(path: "/help/*", exclude: true), Component(path: "/*")], path: "/help/faq",
            expected: .excluded(rule: 0),
            rule: "an exclude rule stops the scan, even when a later rule matches"),
        DecisionCase(
            id: "exclude-after-match", source: "this book: chapter 03, Which app opens this URL",
            components: [Component(path: "/*"), Component(path: "/help/*", exclude: true)], path: "/help/faq",
            expected: .opens(rule: 0), rule: "an exclude rule after a matching rule is never reached"),
        DecisionCase(
            id: "no-match", source: "this book: chapter 03, Which app opens this URL",
            components: [Component(path: "/buy/*")], path: "/about",
            expected: .noMatch, rule: "when no rule matches, the entry does not open the URL"),
        DecisionCase(
            id: "absent-path-matches", source: "this book: chapter 03, The association file",
            components: [Component(fragment: "no_universal_links", exclude: true), Component()],
            path: "/anything", expected: .opens(rule: 1), rule: "a rule without / matches every path"),
        DecisionCase(
            id: "fragment-exclude", source: "this book: chapter 03, The association file",
            components: [Component(fragment: "no_universal_links", exclude: true), Component(path: "/*")],
            path: "/buy/1", fragment: "no_universal_links", expected: .excluded(rule: 0),
            rule: "the fragment no_universal_links lets a page ask to stay in Safari"),
        DecisionCase(
            id: "absent-fragment-is-empty", source: "this book: chapter 03, The pattern language",
            components: [Component(path: "/buy/*", fragment: "?*")], path: "/buy/1",
            expected: .noMatch, rule: "a URL without a fragment is matched as \"\", and ?* rejects \"\""),
        DecisionCase(
            id: "trailing-slash-counts-for-nothing", source: "this book: chapter 03, The pattern language",
            components: [Component(path: "/about")], path: "/about/", expected: .opens(rule: 0),
            rule: "trailing slashes are dropped from the path before matching"),
        DecisionCase(
            id: "pattern-trailing-slash-counts-for-nothing",
            source: "this book: chapter 03, The pattern language",
            components: [Component(path: "/about/")], path: "/about", expected: .opens(rule: 0),
            rule: "trailing slashes are dropped from the pattern too"),
        DecisionCase(
            id: "star-takes-the-parent-path", source: "this book: chapter 03, The pattern language",
            components: [Component(path: "/buy/*")], path: "/buy", expected: .opens(rule: 0),
            rule: "a pattern ending in /* also takes the path without that segment"),
        DecisionCase(
            id: "slashes-are-dropped-not-added", source: "this book: chapter 03, The pattern language",
            components: [Component(path: "/help/????")], path: "/help/123", expected: .noMatch,
            rule: "adding a slash would make 123/ four characters; swcutil drops slashes instead"),
        DecisionCase(
            id: "case-sensitive-by-default", source: "this book: chapter 03, The association file",
            components: [Component(path: "/Buy/*")], path: "/BUY/1",
            expected: .noMatch, rule: "case-sensitive by default, so /BUY/1 does not match /Buy/*"),
    ]

    /// Read: chapters/03-universal-links.md#the-pattern-language
    @Test(arguments: patterns)
    func aPatternMatchesTheWholeText(_ testCase: PatternCase) {
        let result = patternMatches(testCase.pattern, testCase.text, caseSensitive: testCase.caseSensitive)
        #expect(
            result == testCase.matches,
            "\"\(testCase.pattern)\" should \(testCase.matches ? "" : "not ")match \"\(testCase.text)\": \(testCase.rule)"
        )
    }

    /// Read: chapters/03-universal-links.md#which-app-opens-this-url
    @Test(arguments: decisions)
    func theFirstMatchingRuleDecides(_ testCase: DecisionCase) {
        let decision = decide(testCase.components, path: testCase.path, fragment: testCase.fragment)
        #expect(decision == testCase.expected, "\(testCase.id): \(testCase.rule)")
    }

    /// Read: chapters/03-universal-links.md#which-app-opens-this-url
    @Test func caseInsensitiveRulesIgnoreCaseEverywhere() {
        let components = [Component(path: "/Buy/*", fragment: "Top")]
        let decision = decide(components, path: "/BUY/1", fragment: "top", caseSensitive: false)
        #expect(decision == .opens(rule: 0), "with caseSensitive false, path and fragment both ignore case")
    }
    /// The one timed test of the project. A matcher that walks the text once takes microseconds
    /// here; one that backtracks tries every way to split 100 `a`s among nine stars, about 10^12
    /// ways, which takes hours. A deadline of 5 s sits six orders of magnitude from both, so no
    /// machine is slow enough to fail a linear matcher, nor fast enough to pass a backtracking
    /// one. The matcher runs on a thread of its own, so a test that gives up does not stop the
    /// others (the thread spins on until the run ends). Swift Testing's `.timeLimit` cannot do
    /// this: it counts whole minutes, and it cannot stop a loop that never awaits.
    /// Read: chapters/16-inside-universal-links.md#the-pattern-engine
    @Test func aPathologicalPatternFinishesInLinearTime() {
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox()
        let thread = Thread {
            result.value = patternMatches("*a*a*a*a*a*a*a*a*b", String(repeating: "a", count: 100))
            done.signal()
        }
        thread.start()
        let finished = done.wait(timeout: .now() + 5) == .success
        #expect(
            finished,
            "did not finish within 5 s: a backtracking matcher tries every split of the text among the stars; keep the set of pattern positions instead"
        )
        if finished { #expect(result.value == false, "the text has no b, so the pattern cannot match") }
    }
}

/// The matcher's answer, handed from its thread to the test.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool?
    var value: Bool? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
