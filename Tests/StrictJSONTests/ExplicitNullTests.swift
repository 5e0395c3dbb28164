import Foundation
import StrictJSON
import Testing

/// The server's answers keep every member, null when it does not apply
/// (source: "this book: chapter 08, Matches and misses") (source: "book-miss-answers-link-null").
struct ExplicitNullTests {
    struct Outcome: Codable, Equatable {
        var kind: String
        @ExplicitNull var clickId: String?
        var note: String?
    }

    static func encoded(_ outcome: Outcome) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(outcome), as: UTF8.self)
    }

    @Test func aMissingValueIsWrittenAsNullWhereAPlainOptionalIsLeftOut() throws {
        #expect(try Self.encoded(Outcome(kind: "missed")) == #"{"clickId":null,"kind":"missed"}"#)
        #expect(
            try Self.encoded(Outcome(kind: "matched", clickId: "c1", note: "n"))
                == #"{"clickId":"c1","kind":"matched","note":"n"}"#)
    }

    @Test func decodingAcceptsTheMemberNullOrMissing() throws {
        for text in [#"{"kind":"missed","clickId":null}"#, #"{"kind":"missed"}"#] {
            #expect(try JSONDecoder().decode(Outcome.self, from: Data(text.utf8)) == Outcome(kind: "missed"))
        }
        let matched = try JSONDecoder().decode(Outcome.self, from: Data(#"{"kind":"m","clickId":"c1"}"#.utf8))
        #expect(matched == Outcome(kind: "m", clickId: "c1"))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Outcome.self, from: Data(#"{"kind":"m","clickId":1}"#.utf8))
        }
    }
}
