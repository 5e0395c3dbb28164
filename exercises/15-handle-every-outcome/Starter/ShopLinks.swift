import DeepLinkCore
import Foundation
import Li2SDK

/// A set-up mistake the app refuses to start with, so that the developer who made it finds out
/// at launch instead of in the dashboard a week later.
enum SetupError: Error, Equatable {
    /// The publishable key is empty: every call would be answered 401.
    case emptyPublishableKey
    /// A secret key (`li2_sk_…`) where the publishable key (`li2_pk_…`) belongs: every call would
    /// be answered 401, and anyone who unpacks the app could read the key.
    case secretKeyInApp
    /// The entitlement lists no `applinks:` domain: the resolver would ignore every link.
    case noLinkDomains
}

/// The shop's launch-time set-up of the SDK.
enum ShopSetup {
    /// The domains of the app's links: each `applinks:` entry of the associated-domains
    /// entitlement, without its `?mode=` suffix, once each, in the entitlement's order.
    ///
    /// ```swift
    /// ShopSetup.linkDomains(fromEntitlement: ["applinks:go.example", "webcredentials:example.com"])
    /// // ["go.example"]
    /// ```
    static func linkDomains(fromEntitlement entries: [String]) -> [String] {
        // TODO: Keep the applinks: entries only; drop the service prefix and any ?mode= suffix;
        //       keep each domain once, in the entitlement's order.
        return []
    }

    /// Checks the key and the entitlement, then configures the SDK with
    /// `Li2.configure(publishableKey:deepLinkDomains:)`, every other setting left at its default.
    /// A refused set-up configures nothing.
    static func configure(publishableKey: String, entitlement: [String]) throws(SetupError) {
        // TODO: Throw the SetupError that fits, in the order the enum lists them, before anything
        //       is configured. Then call Li2.configure(publishableKey:deepLinkDomains:).
    }
}

/// What the app writes to its log for its developers. None of these is shown to the user.
enum Notice: Equatable {
    /// The service answered, and no link matched: not an error. `reason` is its `missReason`.
    case noDeferredLink(reason: String?)
    /// The service answered 401: the publishable key is missing or wrong. The service's body.
    case checkPublishableKey(serviceSaid: String)
    /// The API root is wrong: it makes no URL, or the service has no such route (404).
    case checkAPIBaseURL
    /// The SDK was used before `Li2.configure(...)`.
    case configureFirst
    /// Any other failure: no answer at all, or one the SDK could not use.
    case lookupFailed
}

/// Which form of a conversion the checkout sends (chapter 10).
enum Checkout: Equatable {
    /// A recent link brought this user: the sale is attributed to its click.
    case attributed(clickId: String)
    /// No link, or one too old: the direct form, without a click id.
    case direct
}

/// The shop's half of the integration: every URL the app receives comes to `open(_:)`, every
/// outcome of the resolver to `handle(_:)`, and the shop decides where to go.
@MainActor
final class ShopLinkHandler {
    /// The screen on display; nil is the home screen.
    private(set) var route: Route?
    /// The pages handed to the browser, in order.
    private(set) var openedInBrowser: [URL] = []
    /// The log, in order.
    private(set) var notices: [Notice] = []

    /// The runtime the resolver runs on: nil in the app (the one `Li2.configure` made), the
    /// SDK's test doubles in the tests.
    let runtime: Li2Runtime?
    private(set) lazy var resolver = Li2DeepLinkResolver(runtime: runtime) { [weak self] outcome in
        self?.handle(outcome)
    }
    /// The shop's own router (chapter 2): `myapp://` and its website's hosts.
    let router = Router.demo

    init(runtime: Li2Runtime? = nil) {
        self.runtime = runtime
    }

    /// Every URL the app receives: the resolver's when it is on a link domain, the shop's own
    /// router's otherwise.
    func open(_ url: URL) {
        // TODO: Hand the URL to the resolver when it can handle it; else decide it with `router`
        //       and follow the decision: navigate, open in the browser, or ignore.
    }

    /// What the shop does with each outcome.
    func handle(_ outcome: Li2DeepLinkOutcome) {
        // TODO: .matched: follow the router's decision for the destination (li2_cid is gone).
        // TODO: .missed: stay, and log .noDeferredLink with the service's reason.
        // TODO: .failed: stay, and log the Notice that names the mistake (see Notice's cases).
    }

    /// The form the checkout sends: attributed to the click id the SDK keeps, while it has one.
    var checkout: Checkout {
        // TODO: Attribute to the click id the SDK keeps (not to one the handler remembers).
        return .direct
    }
}
