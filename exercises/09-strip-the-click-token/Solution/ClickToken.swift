import Foundation

/// The destination the app navigates to: `url` without any `li2_cid` query item.
///
/// Every other item keeps its position and its exact percent-encoding, the fragment stays, and
/// the `?` goes when the last item goes.
///
/// ```swift
/// destination(removingClickTokenFrom: URL(string: "https://shop.example/p?li2_cid=Ab3&ref=mail")!)
/// // https://shop.example/p?ref=mail
/// ```
func destination(removingClickTokenFrom url: URL) -> URL {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
        let items = components.percentEncodedQueryItems,
        items.contains(where: { $0.name == "li2_cid" })
    else { return url }
    let kept = items.filter { $0.name != "li2_cid" }
    // nil, not [], so that the "?" goes with the last item.
    components.percentEncodedQueryItems = kept.isEmpty ? nil : kept
    return components.url ?? url
}

/// The link inside an Android install referrer: the value of `li2_dl`, percent-decoded exactly
/// once. `nil` when there is no `li2_dl`, when it is empty, or when it is not a link with a scheme
/// and a host.
///
/// ```swift
/// deepLink(fromInstallReferrer: "utm_source=li2&li2_dl=https%3A%2F%2Fgo.example%2Fspring%3Fli2_cid%3DAb3")
/// // https://go.example/spring?li2_cid=Ab3
/// ```
func deepLink(fromInstallReferrer referrer: String) -> URL? {
    for pair in referrer.split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "li2_dl" else { continue }
        // Once: a second decoding would turn the link's own %26 into a separator.
        guard let text = parts[1].removingPercentEncoding, !text.isEmpty,
            let url = URL(string: text), url.scheme != nil, url.host != nil
        else { return nil }
        return url
    }
    return nil
}

/// The click token of the referrer's link: its non-empty `li2_cid`, if it has one.
func clickToken(inInstallReferrer referrer: String) -> String? {
    guard let link = deepLink(fromInstallReferrer: referrer),
        let items = URLComponents(url: link, resolvingAgainstBaseURL: false)?.queryItems,
        let token = items.first(where: { $0.name == "li2_cid" })?.value, !token.isEmpty
    else { return nil }
    return token
}
