import Foundation
import HTTPCore
import Li2SDK
import StrictJSON

/// What a simulated user can do, as the events route names it.
public enum SimulatorEvent: String, CaseIterable, Sendable {
    /// Tap the short link in a message: the browser visits it, or the system opens the app.
    case tapLink
    /// Install the app from the store page.
    case install
    /// Start the app: the SDK's first launch (or a later one).
    case launch
    /// Let time pass on the phone's and the service's clocks (`seconds`).
    case advanceClock
    /// Consent screen: tap the paste control, which pastes the clipboard.
    case paste
    /// Consent screen: nothing to paste; continue without it.
    case pasteEmpty
    /// Consent screen: skip.
    case optOut
    /// Consent screen: read the clipboard directly, and refuse iOS's paste alert.
    case deny
    /// Turn the phone (Android): the running activity is destroyed and created again with its
    /// saved state and the intent it held (chapter 2).
    case rotate
}

/// Where a session's journey stands. The raw values are the session JSON's `state`.
public enum SimulatorState: String, Sendable {
    /// The link sits in a message; nothing has happened.
    case linkReady
    /// Android: the app is open and its first launch is long past; a link tapped now arrives as
    /// a new intent.
    case appRunning
    /// Not installed: the browser took the user to the store, carrying the click token.
    case inStore
    /// Installed from the store, not started yet.
    case installed
    /// iOS first launch: the grace window is over and the consent screen is up.
    case consentPending
    /// Installed: the system opened the app with the link (Universal Link or App Link).
    case appOpened
    /// The SDK reported an outcome.
    case resolved
    /// A later launch after the outcome: the once-per-install gate keeps the SDK quiet.
    case relaunched
}

/// How one session reaches "its" server: the responder, and its clock.
struct SimulatorServer: Sendable {
    var responder: any HTTPResponder
    var now: @Sendable () -> Date
    var advance: @Sendable (TimeInterval) -> Void
}

/// The short link a session follows.
struct SimulatorLink: Sendable {
    var domain: String
    var key: String
    /// `https://{domain}/{key}`.
    var shortLink: String
}

/// The phone a session plays.
enum SimulatedPlatform: String, Sendable {
    case ios
    case android

    /// What the phone's HTTP client sends as its User-Agent: URLSession on an iPhone
    /// (`… CFNetwork/… Darwin/…`), OkHttp on Android. The SDK sets no User-Agent of its own, and
    /// the service reads the platform from this header when the body does not say it (chapter 8).
    var appUserAgent: String {
        switch self {
        case .ios: return "ShopApp/1.0 CFNetwork/1494.0.7 Darwin/23.4.0"
        case .android: return "okhttp/4.12.0"
        }
    }
}

/// One link the simulated app's router decided (chapter 2's ``Router`` on the destination).
public struct SimulatorRoutedLink: Equatable, Sendable, Encodable {
    /// The event that delivered it.
    public var step: String
    /// The door it came through: `onCreate` or `onNewIntent` (Android), `sceneWillConnect`
    /// (iOS), or `firstLaunch` for a deferred match.
    public var via: String
    /// The destination the SDK handed the app.
    public var url: String
    /// `navigate`, `openInBrowser` or `ignore`.
    public var decision: String
    /// The screen, for `navigate` (`product(id: "42")`); null otherwise.
    @ExplicitNull public var route: String?
}
