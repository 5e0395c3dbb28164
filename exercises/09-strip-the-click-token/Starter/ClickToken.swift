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
    // TODO: Work on URLComponents' percent-encoded query items, so that nothing you keep is
    //       decoded and encoded again. Names compare exactly: LI2_CID is not the token.
    return url
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
    // TODO: The referrer is `name=value` pairs joined by "&". Find the pair named exactly li2_dl
    //       and percent-decode its value once, no more: the link's own escapes (a `%26` inside it)
    //       must stay escaped. An empty value, or one without a scheme and a host, is no link.
    return nil
}

/// The click token of the referrer's link: its non-empty `li2_cid`, if it has one.
func clickToken(inInstallReferrer referrer: String) -> String? {
    // TODO: Read li2_cid from the link deepLink(fromInstallReferrer:) finds.
    return nil
}
