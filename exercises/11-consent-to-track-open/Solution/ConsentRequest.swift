import Foundation

/// What the user's answer on the consent screen gave the app (chapter 06).
enum ConsentAnswer: Equatable, Sendable {
    /// The paste control (or a direct read) delivered this text. It may be anything.
    case pasted(String)
    /// There was nothing to paste, and the user continued.
    case clipboardEmpty
    /// The user skipped the screen.
    case optedOut
    /// The system refused a direct read.
    case denied
}

/// `clipboardStatus`, spelled as the service spells it.
enum ClipboardStatus: String, Codable, Equatable, Sendable {
    case read
    case empty
    case denied
    case optout
}

/// The body of `POST /api/v1/track/open`. Absent fields stay out of the JSON (the synthesized
/// `Encodable` conformance skips `nil` optionals).
struct TrackOpenRequest: Codable, Equatable, Sendable {
    var deepLink: String?
    var li2Domains: [String]?
    var clipboardStatus: ClipboardStatus?
    var installReferrer: String?
}

/// Whether `text` is exactly a web link (`https` or `http`, with a host) whose query has a
/// non-empty `li2_cid`: the link the interstitial page copied. Text around a link does not count.
func carriesClickToken(_ text: String) -> Bool {
    guard !text.contains(where: \.isWhitespace), let url = URL(string: text),
        let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil,
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems,
        let token = items.first(where: { $0.name == "li2_cid" })?.value
    else { return false }
    return !token.isEmpty
}

/// The one `track/open` body for a consent answer. Every body without a `deepLink` carries the
/// app's domains, so the service knows which app is asking.
///
/// ```swift
/// trackOpenRequest(for: .pasted("https://go.example/spring?li2_cid=Ab3"), li2Domains: ["go.example"])
/// // {"clipboardStatus":"read","deepLink":"https://go.example/spring?li2_cid=Ab3"}
/// ```
func trackOpenRequest(for answer: ConsentAnswer, li2Domains: [String]) -> TrackOpenRequest {
    switch answer {
    case .pasted(let text):
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty {
            return TrackOpenRequest(li2Domains: li2Domains, clipboardStatus: .empty)
        }
        if carriesClickToken(trimmed) {
            return TrackOpenRequest(deepLink: trimmed, clipboardStatus: .read)
        }
        // Whatever else the user copied is none of the service's business: say "read", send domains.
        return TrackOpenRequest(li2Domains: li2Domains, clipboardStatus: .read)
    case .clipboardEmpty:
        return TrackOpenRequest(li2Domains: li2Domains, clipboardStatus: .empty)
    case .optedOut:
        return TrackOpenRequest(li2Domains: li2Domains, clipboardStatus: .optout)
    case .denied:
        return TrackOpenRequest(li2Domains: li2Domains, clipboardStatus: .denied)
    }
}
