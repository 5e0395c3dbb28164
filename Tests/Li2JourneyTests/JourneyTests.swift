import Foundation
import Li2DeepLinks
import Testing

@MainActor
@Suite(.serialized, .timeLimit(.minutes(1)))
struct JourneyTests {
    @Test func anInstalledAppOpenedByAUniversalLinkMatchesAsUniversalLink() async throws {
        try await withMockServer { server in
            let summer = try #require(server.workspace.link("summer"))
            let phone = Phone(server: server)
            phone.resolver.requestFirstLaunchConsentAfterGrace()
            phone.clock.advance(by: .milliseconds(100))
            #expect(phone.resolver.handle(url: URL(string: "https://go.example/summer")!))
            await phone.resolver.settle()

            let clickId = try #require(phone.resolver.lastResponse?.clickId)
            #expect(
                phone.resolver.lastResponse
                    == TrackOpenResponse(clickId: clickId, link: summer, matchMethod: "universal_link", platform: "ios"))
            #expect(phone.outcomes == [.matched(destination: URL(string: summer.url)!, clickId: clickId)])
            #expect(phone.resolver.isConsentPending == false)
            #expect(phone.clock.pendingSleeps == [])
            #expect(
                try await server.events() == [
                    try canonicalJSON(
                        text: #"""
                            {"id": 1, "type": "open", "clickId": "\#(clickId)", "linkId": "link_summer",
                             "matchMethod": "universal_link", "platform": "ios"}
                            """#)
                ])
        }
    }

    @Test func aFirstLaunchOnAnIPhoneFindsTheLinkTheInterstitialCopied() async throws {
        try await withMockServer { server in
            let summer = try #require(server.workspace.link("summer"))
            // Before the install: Safari on an iPhone without the app, and the page's button.
            let copied = try await server.linkCopiedByTheInterstitial("summer")
            #expect(copied.wholeMatch(of: #/https://go\.example/summer\?li2_cid=[A-Za-z0-9]{16}/#) != nil)

            // The first launch: the sheet opens after the grace window, the user taps Paste.
            let phone = Phone(server: server)
            phone.clipboard.text = copied
            phone.resolver.requestFirstLaunchConsentAfterGrace()
            #expect(phone.resolver.isConsentPending == false)
            phone.clock.advance(by: .milliseconds(250))
            #expect(phone.resolver.isConsentPending)
            phone.tapPasteControl()
            #expect(phone.resolver.isConsentPending == false)
            await phone.resolver.settle()

            let clickId = try #require(phone.resolver.lastResponse?.clickId)
            #expect(
                phone.resolver.lastResponse
                    == TrackOpenResponse(clickId: clickId, link: summer, matchMethod: "clipboard", platform: "ios"))
            #expect(phone.outcomes == [.matched(destination: URL(string: summer.url)!, clickId: clickId)])
            #expect(phone.client.lastClickId == clickId)
            #expect(phone.clipboard.reads == 0, "the paste control shows no alert")

            // The next launch of the same install asks for nothing and sends nothing.
            let nextLaunch = Phone(server: server, storage: phone.storage)
            nextLaunch.resolver.requestFirstLaunchConsentAfterGrace()
            #expect(nextLaunch.clock.pendingSleeps == [])
            #expect(try await server.events().count == 1)
        }
    }

    struct ConsentCase: Sendable, CustomTestStringConvertible {
        enum Answer: Sendable {
            case continueWithNothingToPaste
            case notNow
            case directReadRefused
        }

        let id: String
        let source: String
        let clipboard: String?
        let answer: Answer
        let reason: Li2MissReason
        var testDescription: String { id }
    }

    nonisolated static let consentCases: [ConsentCase] = [
        ConsentCase(
            id: "empty", source: "chapter 06: the empty-clipboard affordance", clipboard: nil,
            answer: .continueWithNothingToPaste, reason: .clipboardEmpty),
        ConsentCase(
            id: "optout", source: "chapter 06: Not now", clipboard: "https://go.example/summer?li2_cid=Ab3dE5fG7hJ9kL1m",
            answer: .notNow, reason: .optedOut),
        ConsentCase(
            id: "denied", source: "chapter 06: iOS 15's direct read, refused",
            clipboard: "https://go.example/summer?li2_cid=Ab3dE5fG7hJ9kL1m", answer: .directReadRefused,
            reason: .clipboardDenied),
    ]

    @Test(arguments: consentCases)
    func aConsentAnswerWithoutALinkMissesForItsReason(_ testCase: ConsentCase) async throws {
        try await withMockServer { server in
            let phone = Phone(server: server)
            phone.clipboard.text = testCase.clipboard
            phone.launchAndWaitOutTheGraceWindow()
            switch testCase.answer {
            case .continueWithNothingToPaste: phone.resolver.submitPasteControlEmpty()
            case .notNow: phone.resolver.submitOptOut()
            case .directReadRefused:
                phone.clipboard.refusesReads = true
                phone.resolver.beginRawProbeOptIn()
            }
            await phone.resolver.settle()

            let clickId = try #require(phone.resolver.lastResponse?.clickId)
            #expect(
                phone.resolver.lastResponse
                    == TrackOpenResponse(clickId: clickId, missReason: testCase.reason.rawValue, platform: "ios"))
            #expect(phone.outcomes == [.missed(reason: testCase.reason)])
            #expect(phone.client.lastClickId == nil)
            #expect(
                try await server.events() == [
                    try canonicalJSON(
                        text: #"""
                            {"id": 1, "type": "open", "clickId": "\#(clickId)", "missReason": "\#(testCase.reason)",
                             "platform": "ios"}
                            """#)
                ])
        }
    }

    @Test func aFirstLaunchOnAndroidFindsTheLinkInTheInstallReferrer() async throws {
        try await withMockServer { server in
            let winter = try #require(server.workspace.link("winter"))
            let referrer = try await server.installReferrerPlantedBy("winter")
            #expect(Li2InstallReferrer(referrer).deepLink?.absoluteString.hasPrefix("https://go.example/winter?li2_cid=") == true)

            let phone = Phone(server: server)
            phone.resolver.handleFirstLaunchDeferred(referrer: referrer)
            phone.clock.advance(by: .milliseconds(250))
            await phone.resolver.settle()

            let clickId = try #require(phone.resolver.lastResponse?.clickId)
            #expect(
                phone.resolver.lastResponse
                    == TrackOpenResponse(
                        clickId: clickId, link: winter, matchMethod: "install_referrer", platform: "android"))
            #expect(phone.outcomes == [.matched(destination: URL(string: winter.url)!, clickId: clickId)])
        }
    }

    @Test func aDeferredRecordPastItsTimeToLiveMissesAsExpired() async throws {
        try await withMockServer { server in
            let copied = try await server.linkCopiedByTheInterstitial("summer")
            // The user opens the app an hour after the record's time to live: the service's
            // clock moves, nobody waits.
            try await server.advanceClock(bySeconds: server.workspace.deferredRecordTTLSeconds + 3_600)
            let phone = Phone(server: server)
            await phone.firstLaunchPasting(copied)
            #expect(phone.outcomes == [.missed(reason: .expired)])
            #expect(phone.client.lastClickId == nil)
        }
    }

    @Test func aLeadAndASaleAfterTheMatchAreAttributedToItsClick() async throws {
        try await withMockServer { server in
            let phone = Phone(server: server)
            await phone.firstLaunchPasting(try await server.linkCopiedByTheInterstitial("p42"))
            let clickId = try #require(phone.client.lastClickId)

            let lead = try await phone.client.trackLead(externalId: "user_42")
            let sale = try await phone.client.trackSale(externalId: "user_42", amount: 4_900, invoiceId: "inv_42")
            #expect(lead == Li2LeadResult(customerId: "user_42"))
            #expect(sale.customerId == "user_42")
            #expect(
                try await server.events() == [
                    try canonicalJSON(
                        text: #"""
                            {"id": 1, "type": "open", "clickId": "\#(clickId)", "linkId": "link_p42",
                             "matchMethod": "clipboard", "platform": "ios"}
                            """#),
                    try canonicalJSON(
                        text: #"""
                            {"id": 2, "type": "lead", "clickId": "\#(clickId)", "attribution": "attributed",
                             "customerId": "user_42", "externalId": "user_42", "eventName": "Sign up"}
                            """#),
                    try canonicalJSON(
                        text: #"""
                            {"id": 3, "type": "sale", "clickId": "\#(clickId)", "attribution": "attributed",
                             "customerId": "user_42", "externalId": "user_42", "eventName": "Purchase",
                             "saleEventId": "\#(sale.saleEventId)", "amount": 4900, "currency": "usd",
                             "invoiceId": "inv_42"}
                            """#),
                ])
        }
    }
}
