import AttributionService
import Foundation
import HTTPCore
import MockServer
import Testing

/// The hand-written JSON of the `track/open` hot path must be exactly what `JSONEncoder` writes.
struct TrackOpenJSONTests {
    static let summer = Link(
        id: "link_summer", domain: "go.example", key: "summer",
        url: "https://shop.example/sale?campaign=summer")

    /// Every match method and every miss reason, on every platform: the answers the server gives.
    static var answers: [TrackOpenResponse] {
        var answers: [TrackOpenResponse] = []
        for method in MatchMethod.allCases {
            for platform in Platform.allCases {
                answers.append(
                    TrackOpenResponse(
                        clickId: "Ab3dEf6hIj9kLm2n", link: summer, matchMethod: method, platform: platform))
            }
        }
        for reason in MissReason.allCases {
            answers.append(
                TrackOpenResponse(clickId: "Ab3dEf6hIj9kLm2n", link: nil, missReason: reason, platform: .ios))
        }
        answers.append(TrackOpenResponse(clickId: "Ab3dEf6hIj9kLm2n", link: nil, platform: nil))
        // Characters JSON escapes, and ones it must leave alone (slashes, non-ASCII).
        let odd = Link(
            id: "link_odd", domain: "go.example", key: "odd",
            url: #"https://shop.example/a/b?q="quoted"&p=back\slash&é=ü"#)
        answers.append(
            TrackOpenResponse(
                clickId: "Ab3dEf6hIj9kLm2n", link: odd, matchMethod: .immediate, platform: .unknown))
        return answers
    }

    @Test(arguments: answers)
    func theAnswerIsByteForByteWhatJSONEncoderWrites(_ answer: TrackOpenResponse) throws {
        #expect(
            String(decoding: TrackOpenJSON.response(answer), as: UTF8.self)
                == String(decoding: try HTTPResponse.json(answer).body, as: UTF8.self))
    }

    @Test(arguments: answers)
    func theEventIsByteForByteWhatFieldsJSONWrites(_ answer: TrackOpenResponse) throws {
        let at = Date(timeIntervalSince1970: 1_750_000_000)
        let event = OpenEvent(
            clickId: answer.clickId, matchMethod: answer.matchMethod, missReason: answer.missReason,
            platform: answer.platform ?? .unknown, linkId: answer.link?.id)
        #expect(
            String(decoding: try TrackOpenJSON.event(event, at: at), as: UTF8.self)
                == String(decoding: try AnalyticsEvent.open(event, at: at).fieldsJSON(), as: UTF8.self))
    }

    @Test func aControlCharacterFallsBackToTheEncoder() throws {
        let tabbed = Link(id: "link_tab", domain: "go.example", key: "tab", url: "https://shop.example/\tx")
        let answer = TrackOpenResponse(
            clickId: "Ab3dEf6hIj9kLm2n", link: tabbed, matchMethod: .immediate, platform: .unknown)
        #expect(TrackOpenJSON.response(answer) == (try HTTPResponse.json(answer).body))
        #expect(String(decoding: TrackOpenJSON.response(answer), as: UTF8.self).contains(#"\t"#))
    }
}

/// The interstitial page is filled slot by slot; every value is escaped.
struct InterstitialTemplateTests {
    @Test func everySlotIsFilledAndEscapedAndUnknownSlotsStay() {
        let link = Link(id: "link_x", domain: "go.example", key: "x", url: "https://shop.example/?a=1&b=<2>")
        let page = Interstitial(
            link: link, token: "Ab3dEf6hIj9kLm2n",
            clipboardLink: "https://go.example/x?li2_cid=Ab3dEf6hIj9kLm2n",
            appStoreURL: "https://apps.apple.com/app/id1234567890")
        let template = "<p>{{clipboardLink}}</p><a href=\"{{appStoreURL}}\">{{destination}}</a>{{other}}{{"
        #expect(
            InterstitialPage.render(page, template: template)
                == "<p>https://go.example/x?li2_cid=Ab3dEf6hIj9kLm2n</p>"
                + "<a href=\"https://apps.apple.com/app/id1234567890\">https://shop.example/?a=1&amp;b=&lt;2&gt;</a>"
                + "{{other}}{{")
    }
}
