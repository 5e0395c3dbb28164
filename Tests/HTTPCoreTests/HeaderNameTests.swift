import HTTPCore
import Testing

/// Header names compare without ASCII case, and only ASCII letters fold.
struct HeaderNameTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var source: String
        var stored: String
        var asked: String
        var found: Bool
        var testDescription: String { id }
    }

    static let cases: [Case] = [
        Case(id: "same", source: "RFC 9110 §5.1", stored: "Content-Type", asked: "Content-Type", found: true),
        Case(
            id: "lower", source: "RFC 9110 §5.1", stored: "Content-Type", asked: "content-type", found: true),
        Case(id: "upper", source: "RFC 9110 §5.1", stored: "x-li2-key", asked: "X-LI2-KEY", found: true),
        Case(
            id: "other-name", source: "RFC 9110 §5.1", stored: "Content-Type", asked: "Content-Typf",
            found: false),
        Case(
            id: "prefix", source: "RFC 9110 §5.1", stored: "Content-Type", asked: "Content-Typ", found: false),
        // '@' and '`' differ by the case bit too, but they are not letters.
        Case(
            id: "not-letters", source: "RFC 9110 §5.6.2", stored: "X-@", asked: "X-`", found: false),
        Case(
            id: "digits", source: "RFC 9110 §5.6.2", stored: "X-1", asked: "X-\u{11}", found: false),
    ]

    @Test(arguments: cases)
    func aNameIsFoundWhateverItsLetterCase(_ testCase: Case) {
        let headers = HTTPHeaders([.init(name: testCase.stored, value: "v")])
        #expect((headers[testCase.asked] != nil) == testCase.found)
    }
}
