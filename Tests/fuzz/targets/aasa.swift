import DeepLinkCore
import Foundation

/// The apple-app-site-association reader, linter and matcher: any bytes as the file, and the
/// first line of a file that decodes as the URL to match.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAASA(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let findings = AASALinter.lint(data)
    precondition(findings.allSatisfy { !$0.message.isEmpty })
    guard let file = try? AASAFile.decode(data) else { return 0 }
    let matcher = AASAMatcher(file)
    for path in ["/", "/buy/42?ref=mail#top", String(decoding: data.prefix(64), as: UTF8.self)] {
        if let url = URL(string: "https://example.com" + path) {
            _ = matcher.verdicts(for: url)
            _ = matcher.appIDs(opening: url)
        }
    }
    return 0
}
