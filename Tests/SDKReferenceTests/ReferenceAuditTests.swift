import Foundation
import Testing

@testable import SDKReference

/// `workbook reference` reports at chapter lines
/// (source: "this book: workbook reference reports at chapter lines and stops at a failing tool");
/// SymbolKit's symbol graph format and DocC's diagnostics file (`docc convert --diagnostics-file`)
/// are what it reads.
struct ReferenceAuditTests {
    static let book = URL(fileURLWithPath: "/book")

    /// One graph's symbols, written as `swift-symbolgraph-extract` writes them.
    static func graph(_ symbols: [String]) -> Data {
        Data(#"{"symbols": [\#(symbols.joined(separator: ","))]}"#.utf8)
    }

    static func symbol(
        _ id: String, kind: String, path: [String], line: Int? = nil, doc: [String]? = nil
    ) -> String {
        var fields = [
            #""kind": {"identifier": "swift.x", "displayName": "\#(kind)"}"#,
            #""identifier": {"precise": "\#(id)", "interfaceLanguage": "swift"}"#,
            #""pathComponents": [\#(path.map { "\"\($0)\"" }.joined(separator: ","))]"#,
        ]
        if let line {
            fields.append(
                #""location": {"uri": "file://chapters/19-inside-consent.md", "position": {"line": \#(line), "character": 4}}"#
            )
        }
        if let doc {
            fields.append(
                #""docComment": {"lines": [\#(doc.map { #"{"text": "\#($0)"}"# }.joined(separator: ","))]}"#)
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    @Test func undocumentedDeclarationsAreWarningsAtTheirChapterLines() throws {
        let main = Self.graph([
            Self.symbol(
                "s:consent", kind: "Structure", path: ["Li2Consent"], line: 10, doc: ["The consent."]),
            Self.symbol("s:text", kind: "Case", path: ["Li2PasteboardContent", "text(_:)"], line: 207),
            // A `///` with nothing after it documents nothing.
            Self.symbol(
                "s:blank", kind: "Instance Property", path: ["Li2Consent", "given"], line: 12, doc: [" "]),
            // From another module's protocol extension: no place, not this module's to document.
            Self.symbol("s:notEqual", kind: "Operator", path: ["Li2Consent", "!=(_:_:)"]),
        ])
        // An extension's graph repeats a symbol: it counts once.
        let extensions = Self.graph([
            Self.symbol("s:text", kind: "Case", path: ["Li2PasteboardContent", "text(_:)"], line: 207)
        ])
        let (count, findings) = try ReferenceAudit.undocumented(
            module: "Li2SDK", graphs: [main, extensions], bookRoot: Self.book)
        #expect(count == ReferenceAudit.ModuleCount(module: "Li2SDK", declarations: 3, undocumented: 2))
        #expect(
            findings.map(\.description) == [
                "chapters/19-inside-consent.md:13:5: warning: public instance property 'Li2Consent.given' has no doc comment",
                "chapters/19-inside-consent.md:208:5: warning: public case 'Li2PasteboardContent.text(_:)' has no doc comment",
            ])
    }

    @Test func doccFindingsKeepTheirSeverityPlaceAndFixes() throws {
        let file = Data(
            #"""
            {"diagnostics": [
              {"summary": "'Li2Config' doesn't exist at '/Li2SDK/Li2Config/missing'", "severity": "warning",
               "source": "file:///book/chapters/22-inside-the-sdk.md", "range": {"start": {"line": 41, "column": 9}},
               "solutions": [{"summary": "Replace 'missing' with 'publishableKey'"}, {"summary": ""}]},
              {"summary": "The catalog failed", "severity": "error"},
              {"summary": "Only a hint", "severity": "information"}
            ]}
            """#.utf8)
        let findings = try ReferenceAudit.doccFindings(file, bookRoot: Self.book)
        #expect(
            findings.map(\.description) == [
                "chapters/22-inside-the-sdk.md:41:9: warning: 'Li2Config' doesn't exist at '/Li2SDK/Li2Config/missing' "
                    + "(docc; Replace 'missing' with 'publishableKey')",
                "error: The catalog failed (docc)",
            ])
    }

    @Test func aPlaceIsRelativeToTheBookWhenItIsInside() {
        #expect(
            ReferenceAudit.bookPath(uri: "file:///book/chapters/a%20b.md", bookRoot: Self.book)
                == "chapters/a b.md")
        #expect(
            ReferenceAudit.bookPath(uri: "file://chapters/19.md", bookRoot: Self.book) == "chapters/19.md")
        #expect(
            ReferenceAudit.bookPath(uri: "file:///elsewhere/x.swift", bookRoot: Self.book)
                == "/elsewhere/x.swift")
    }
}
