// Every declaration of Li2SDK 0.2.0, called the way 0.2.0's README calls it: defaults left out,
// payloads matched by position, errors caught by type. This file is the test: a change to the
// book's SDK that would break a 0.2.0 caller stops it from compiling, and so fails `./wb test`.
// The listing test (`PublicAPIListingTests`) checks names and types; this file checks what a
// listing cannot show: default values, `async`, `throws`, payload labels and trailing closures.
import Foundation
import Li2SDK
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The README's set-up, in an app's launch code.
func readmeConfigure() {
    Li2.configure(publishableKey: "li2_pk_your_key", deepLinkDomains: ["app.example.com"])
    Li2.configure(
        publishableKey: "li2_pk_your_key", deepLinkDomains: ["app.example.com"],
        apiBaseURL: "https://api.li2.ai/api/v1", clickIdExpiryDays: 30,
        firstLaunchGraceNanoseconds: 250_000_000)
    _ = Li2.lastClickId
    Li2.resetFirstLaunchConsent()
}

/// The README's resolver owner, with its outcome switch.
@MainActor
final class ReadmeDeepLinkModel {
    var route: URL?
    var log: [String] = []

    private(set) lazy var resolver = Li2DeepLinkResolver { [weak self] outcome in
        self?.received(outcome)
    }

    func received(_ outcome: Li2DeepLinkOutcome) {
        // The README's spelling, `case let`, on purpose: it must compile as written there.
        // swift-format-ignore: UseLetInEveryBoundCaseVariable
        switch outcome {
        case let .matched(destination, clickId):
            route = destination
            log.append("matched clickId=\(clickId)")
        case let .missed(reason):
            log.append("miss: \(reason ?? "no match")")
        case let .failed(error):
            log.append("failed: \(error.localizedDescription)")
        }
    }

    /// The scene delegate's and the consent sheet's calls.
    func wire(_ url: URL) {
        resolver.handle(url: url)
        resolver.requestFirstLaunchConsentAfterGrace()
        resolver.submitPasteControlResult("https://app.example.com/x?li2_cid=abc")
        resolver.submitPasteControlResult(nil)
        resolver.submitPasteControlEmpty()
        resolver.submitOptOut()
        resolver.beginRawProbeOptIn()
        _ = resolver.isConsentPending
    }
}

/// The README's conversion calls, each as written there.
func readmeConversions() async throws {
    let r = try await Li2.trackDirectLead(externalId: "user_42", eventName: "signup", email: "a@b.com")
    print(r.customerId ?? "—")
    try await Li2.trackAnonymousLead(eventName: "viewed_pricing")
    try await Li2.trackAttributedLead(externalId: "user_42", eventName: "signup")
    let s = try await Li2.trackDirectSale(externalId: "user_42", amount: 4999)
    print(s.saleEventId ?? "—")
    try await Li2.trackAttributedSale(externalId: "user_42", amount: 4999, currency: "vnd")
    try await Li2.identify(externalId: "user_42", email: "a@b.com")
}

/// The README's error handling, by type.
func readmeErrorHandling(_ error: Error) -> String {
    if let e = error as? Li2ConversionError {
        switch e {
        case .noClickIdAvailable: return "fire a deep-link match first"
        case .missingExternalId: return "pass the user's stable id"
        case .httpError(let status, let message): return "HTTP \(status): \(message)"
        case .decodeError(let detail, let raw): return "decode: \(detail) \(raw)"
        case .network(let underlying): return "network: \(underlying.localizedDescription)"
        case .invalidURL: return "invalid URL"
        }
    }
    if let e = error as? TrackOpenError {
        switch e {
        case .invalidURL: return "invalid URL"
        case .emptyRequest: return "empty request"
        case .httpError(let status, let body): return "HTTP \(status): \(body)"
        case .decodeError(let detail, let raw): return "decode: \(detail) \(raw)"
        }
    }
    if case Li2Error.unparsableDestination(let raw)? = error as? Li2Error {
        return "unparsable: \(raw)"
    }
    return error.localizedDescription
}

/// The wire types and the two clients, as the README's manual integration and 0.2.0's own tests
/// use them.
func readmeWireTypes() async throws {
    let request = TrackOpenRequest(deepLink: "https://app.example.com/x")
    _ = TrackOpenRequest(li2Domains: ["app.example.com"], clipboardStatus: ClipboardStatus.empty.rawValue)
    let client: any TrackOpenCalling = TrackOpenClient(
        baseURL: "https://api.li2.ai/api/v1", publishableKey: "li2_pk_your_key")
    let result: TrackOpenClient.OpenResult = try await client.open(request)
    let link: TrackOpenResponse.LinkDTO? = result.response.link
    print(
        result.statusCode, link?.url ?? "", result.response.matchMethod ?? "",
        result.response.missReason ?? "")
    let conversions: any ConversionCalling = ConversionClient(
        baseURL: "https://api.li2.ai/api/v1", publishableKey: "li2_pk_your_key")
    let lead: LeadData = try await conversions.lead(LeadRequest(clickId: "", externalId: "user_42"))
    let sale: SaleData = try await conversions.sale(
        SaleRequest(clickId: "", externalId: "user_42", amount: 4999))
    print(lead.success, lead.customerId ?? "", sale.saleEventId ?? "")
    _ = ClickIdStore.shared.currentClickId
    _ = ClipboardStatus(rawValue: "read")
    _ = Li2Config(publishableKey: "li2_pk_your_key", deepLinkDomains: ["app.example.com"])
}

/// A pasteboard double written as 0.2.0's tests write theirs.
struct ReadmePasteboard: PasteboardReading {
    var hasContent: Bool { true }
    func readString() -> String? { "https://app.example.com/x?li2_cid=abc" }
}

/// The patterns above, run: the outcome switch and the error handling give what the README says.
@MainActor
@Test func theReadmesSwitchAndErrorHandlingReadEveryOutcomeAndError() {
    let model = ReadmeDeepLinkModel()
    model.received(.matched(destination: URL(string: "https://shop.example/p/42")!, clickId: "c1"))
    model.received(.missed(reason: nil))
    model.received(.missed(reason: "no_candidate"))
    model.received(.failed(TrackOpenError.httpError(401, "bad key")))
    #expect(model.route == URL(string: "https://shop.example/p/42"))
    #expect(
        model.log == [
            "matched clickId=c1", "miss: no match", "miss: no_candidate",
            "failed: the service answered HTTP 401: bad key",
        ])
    #expect(
        [
            readmeErrorHandling(Li2ConversionError.noClickIdAvailable),
            readmeErrorHandling(Li2ConversionError.httpError(403, "conversion tracking is off")),
            readmeErrorHandling(TrackOpenError.emptyRequest),
            readmeErrorHandling(Li2Error.unparsableDestination(raw: "::")),
        ] == [
            "fire a deep-link match first", "HTTP 403: conversion tracking is off", "empty request",
            "unparsable: ::",
        ])
    #expect(ReadmePasteboard().hasContent)
}
