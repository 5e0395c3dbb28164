import AttributionService
import Foundation
import HTTPCore

/// The two JSON texts every `track/open` call produces, its answer and its analytics event,
/// written directly.
///
/// `JSONEncoder` first builds a tree of boxed values through `Codable`, then serializes it;
/// for these two small, flat objects that was the largest single cost of a call. The bytes are
/// exactly what `HTTPResponse.json(_:)` and ``AnalyticsEvent/fieldsJSON()`` write (keys sorted,
/// slashes unescaped), which the tests pin for every match and miss. A value holding a control
/// character, which no configured link should, goes through `JSONEncoder` instead of being
/// escaped here.
///
/// ```swift
/// TrackOpenJSON.response(answer.body)  // {"clickId":"…","link":null,"missReason":"expired","platform":"ios"}
/// ```
public enum TrackOpenJSON {
    /// The body of a `track/open` answer.
    public static func response(_ body: TrackOpenResponse) -> Data {
        var writer = Writer()
        writer.raw("{")
        writer.member("clickId", body.clickId, first: true)
        if let link = body.link {
            writer.raw(",\"link\":{")
            writer.member("domain", link.domain, first: true)
            writer.member("id", link.id)
            writer.member("key", link.key)
            writer.member("url", link.url)
            writer.raw("}")
        } else {
            writer.raw(",\"link\":null")
        }
        if let method = body.matchMethod { writer.member("matchMethod", method.rawValue) }
        if let reason = body.missReason { writer.member("missReason", reason.rawValue) }
        if let platform = body.platform { writer.member("platform", platform.rawValue) }
        writer.raw("}")
        guard !writer.needsEncoder, let data = writer.data else {
            return (try? HTTPResponse.json(body).body) ?? Data()
        }
        return data
    }

    /// The stored fields of an `open` event.
    public static func event(_ event: OpenEvent, at date: Date) throws -> Data {
        var writer = Writer()
        writer.raw("{")
        writer.member("clickId", event.clickId, first: true)
        if let link = event.linkId { writer.member("linkId", link) }
        if let method = event.matchMethod { writer.member("matchMethod", method.rawValue) }
        if let reason = event.missReason { writer.member("missReason", reason.rawValue) }
        writer.member("platform", event.platform.rawValue)
        writer.raw("}")
        guard !writer.needsEncoder, let data = writer.data else {
            return try AnalyticsEvent.open(event, at: date).fieldsJSON()
        }
        return data
    }

    struct Writer {
        private var bytes: [UInt8] = []
        /// A string held a character this writer does not escape.
        private(set) var needsEncoder = false

        init() { bytes.reserveCapacity(256) }

        var data: Data? { Data(bytes) }

        mutating func raw(_ text: StaticString) {
            text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }

        mutating func member(_ name: StaticString, _ value: String, first: Bool = false) {
            if !first { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":"), UInt8(ascii: "\"")])
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(byte)
                case 0..<0x20:
                    needsEncoder = true
                default:
                    bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }
}
