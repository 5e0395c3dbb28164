import Foundation
import Li2DeepLinks

/// One install of the demo app, played in a test: the SDK with its own test doubles for time,
/// storage and the clipboard, and the real network, `URLSession`, to the mock server.
///
/// Two phones that share `storage` are two launches of the same install.
@MainActor
final class Phone {
    let clock = Li2TestClock()
    let storage: Li2InMemoryStorage
    let clipboard = Li2TestPasteboard()
    let client: Li2Client
    let resolver: Li2DeepLinkResolver
    private let log: OutcomeLog

    /// The demo app, configured as `Li2.configure(...)` would be for the server: its
    /// publishable key, its link domains, and `apiBaseURL` on 127.0.0.1. `change` edits the
    /// configuration first, to play a misconfigured app.
    init(
        server: MockServerProcess, storage: Li2InMemoryStorage = Li2InMemoryStorage(),
        change: (inout Li2Configuration) -> Void = { _ in }
    ) {
        var configuration = Li2Configuration(
            publishableKey: server.workspace.keys.publishable, deepLinkDomains: server.workspace.linkDomains,
            apiBaseURL: server.apiBaseURL)
        change(&configuration)
        self.storage = storage
        let dependencies = Li2Dependencies(
            clock: clock.clock, storage: storage.storage, pasteboard: clipboard.pasteboard,
            transport: .urlSession(timeout: 5), random: .seeded(1))
        client = Li2Client(configuration: configuration, dependencies: dependencies)
        let log = OutcomeLog()
        self.log = log
        resolver = Li2DeepLinkResolver(client: client) { log.outcomes.append($0) }
    }

    /// Every outcome the resolver delivered, in order.
    var outcomes: [Li2DeepLinkOutcome] { log.outcomes }

    /// The first screen is up: `.li2DeepLink(using:)` asks for consent, and nothing arrives
    /// within the grace window.
    func launchAndWaitOutTheGraceWindow() {
        resolver.requestFirstLaunchConsentAfterGrace()
        clock.advance(by: client.configuration.firstLaunchGrace)
    }

    /// A tap on the paste control of the consent sheet: iOS hands over what the clipboard
    /// holds, without an alert (so the test clipboard counts no read).
    func tapPasteControl() {
        resolver.submitPasteControlResult(clipboard.text)
    }

    /// A whole first launch on iOS: `copied` is on the clipboard, the sheet opens after the
    /// grace window, the user taps the paste control, and the answer arrives.
    func firstLaunchPasting(_ copied: String?) async {
        clipboard.text = copied
        launchAndWaitOutTheGraceWindow()
        tapPasteControl()
        await resolver.settle()
    }
}

@MainActor
private final class OutcomeLog {
    var outcomes: [Li2DeepLinkOutcome] = []
}
