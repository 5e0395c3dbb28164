import Foundation

/// What a support engineer concludes from one `track/open` call: its HTTP status and body.
enum Diagnosis: Equatable, Sendable {
    /// The call matched a link; `matchMethod` says how (`universal_link`, `clipboard`, ...).
    case working(matchMethod: String)
    /// `no_candidate`: nothing to match on. Usually an organic install: nothing to fix.
    case organicInstall
    /// `clipboard_empty`: the user agreed, but there was nothing to paste.
    case interstitialCopyMissed
    /// `clipboard_denied`: the system refused to read the clipboard.
    case pastePermissionDenied
    /// `opted_out`: the user skipped the consent screen. Respect it.
    case userOptedOut
    /// `expired`: the click was real, but its record outlived its time to live.
    case tookTooLongToOpen
    /// `unknown_click`: a well-formed token that no visit created.
    case tokenFromElsewhere
    /// `unknown_link`: our domain, but no link has that key.
    case noSuchLink
    /// 401 `missing_key`: the request carried no API key.
    case missingKey
    /// 401 `invalid_key`: a key nobody issued.
    case wrongKey
    /// 400: the body is wrong; the service's message says what.
    case badRequest(message: String)
    /// Anything else, described.
    case unknown(String)

    /// What to look at next. Already written.
    var advice: String {
        switch self {
        case .working: return "nothing: the link matched"
        case .organicInstall: return "usually nothing: the user found the app without a link"
        case .interstitialCopyMissed:
            return "the interstitial's copy button, or a user who copied something else"
        case .pastePermissionDenied: return "the paste permission in the device's settings"
        case .userOptedOut: return "nothing: the user said no"
        case .tookTooLongToOpen: return "how long users take from the store to the first launch"
        case .tokenFromElsewhere: return "a token from another environment, or one forgotten long ago"
        case .noSuchLink: return "a typo in a hand-made link, or a deleted link"
        case .missingKey: return "send X-Li2-Key with the publishable key"
        case .wrongKey: return "the key: is it this environment's publishable key?"
        case .badRequest(let message): return "the request body: \(message)"
        case .unknown(let what): return "the service's logs: \(what)"
        }
    }
}

/// Reads one `track/open` answer like a support engineer.
///
/// A 200 answer is `{"clickId": …, "link": {…} or null, "matchMethod": …, "missReason": …}`; a
/// refusal is `{"error": {"code": …, "message": …}}` with a 4xx status.
///
/// ```swift
/// diagnose(status: 200, body: #"{"clickId":"x","link":null,"missReason":"expired"}"#.data(using: .utf8)!)
/// // .tookTooLongToOpen
/// ```
func diagnose(status: Int, body: Data) -> Diagnosis {
    // TODO: Decode the body with small Decodable structs of your own: one for an answer (link,
    //       matchMethod, missReason), one for a refusal (error.code, error.message).
    // TODO: 200 with a link: working, with its matchMethod. 200 without a link: map missReason
    //       to its case (the table in the README).
    // TODO: 401: missing_key or invalid_key. 400: badRequest with the service's message.
    //       Anything else: unknown, with the status.
    return .unknown("not diagnosed yet")
}
