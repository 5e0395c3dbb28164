import HTTPCore
import Testing

/// The request-head limits on their own; the loopback tests send the same heads raw.
@Suite("Request head limits")
struct RequestHeadLimitsTests {
    @Test func theTargetLengthCountsThePathTheQuestionMarkAndEveryItemAsSent() {
        #expect(RequestHeadLimits.targetLength(path: "/a", query: []) == 2)
        // "/a?x=1&flag&y=" is 14 bytes.
        #expect(
            RequestHeadLimits.targetLength(path: "/a", query: [("x", "1"), ("flag", nil), ("y", "")]) == 14)
        #expect(RequestHeadLimits.targetLength(path: "/é", query: []) == 3, "bytes, not characters")
    }

    @Test func theHeaderLengthCountsEachFieldAsALine() {
        // "Host: a\r\n" and "X-Y: bc\r\n": 9 + 9.
        #expect(RequestHeadLimits.headerLength(["Host": "a", "X-Y": "bc"]) == 18)
    }

    @Test func aHeadAtTheLimitsPassesAndOneByteMoreIsRefused() throws {
        let limits = RequestHeadLimits(targetBytes: 10, headerBytes: 9)
        try limits.check(targetLength: 10, headers: ["Host": "a"])
        #expect(throws: HTTPError.uriTooLong(limit: 10)) {
            try limits.check(targetLength: 11, headers: ["Host": "a"])
        }
        #expect(throws: HTTPError.headerFieldsTooLarge(limit: 9)) {
            try limits.check(targetLength: 1, headers: ["Host": "ab"])
        }
    }

    @Test func theRefusalsUseTheOneErrorShape() {
        let uri = HTTPError.uriTooLong(limit: 8_192).response
        #expect(uri.status == .uriTooLong)
        #expect(
            uri.bodyText
                == #"{"error":{"code":"uri_too_long","message":"the request target (path and query) is longer than 8192 bytes"}}"#
        )
        let fields = HTTPError.headerFieldsTooLarge(limit: 32_768).response
        #expect(fields.status == .requestHeaderFieldsTooLarge)
        #expect(
            fields.bodyText
                == #"{"error":{"code":"header_fields_too_large","message":"the header fields take more than 32768 bytes"}}"#
        )
    }
}
