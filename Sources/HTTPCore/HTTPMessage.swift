import Foundation

/// An HTTP method, kept as its wire spelling so that unusual methods still reach the router.
///
/// ```swift
/// let method: HTTPMethod = .post
/// method.rawValue  // "POST"
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue.uppercased()
    }

    public static let get = HTTPMethod(rawValue: "GET")
    public static let head = HTTPMethod(rawValue: "HEAD")
    public static let post = HTTPMethod(rawValue: "POST")
    public static let put = HTTPMethod(rawValue: "PUT")
    public static let patch = HTTPMethod(rawValue: "PATCH")
    public static let delete = HTTPMethod(rawValue: "DELETE")
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    public var description: String { rawValue }
}

/// An HTTP status code. The reason phrase is written by the server library, so only the
/// number travels through the HTTP core.
///
/// ```swift
/// HTTPStatus.notFound.code  // 404
/// ```
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    public let code: Int

    public init(_ code: Int) {
        self.code = code
    }

    public static let ok = HTTPStatus(200)
    public static let created = HTTPStatus(201)
    public static let noContent = HTTPStatus(204)
    public static let badRequest = HTTPStatus(400)
    public static let unauthorized = HTTPStatus(401)
    public static let forbidden = HTTPStatus(403)
    public static let notFound = HTTPStatus(404)
    public static let methodNotAllowed = HTTPStatus(405)
    public static let requestTimeout = HTTPStatus(408)
    public static let payloadTooLarge = HTTPStatus(413)
    public static let uriTooLong = HTTPStatus(414)
    public static let unsupportedMediaType = HTTPStatus(415)
    public static let requestHeaderFieldsTooLarge = HTTPStatus(431)
    public static let internalServerError = HTTPStatus(500)
    public static let serviceUnavailable = HTTPStatus(503)

    public var description: String { String(code) }
}

/// Header fields in arrival order, looked up without regard to case (RFC 9110 §5.1 makes
/// field names case-insensitive, and clients really do send `content-type` and `Content-Type`).
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers["content-type"]  // "application/json"
/// headers["X-Li2-Key"] = "li2_pk_demo"
/// ```
public struct HTTPHeaders: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Field: Hashable, Sendable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            (self.name, self.value) = (name, value)
        }
    }

    public private(set) var fields: [Field]

    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value for `name`; setting replaces every field of that name (nil removes them).
    public subscript(name: String) -> String? {
        get { fields.first { Self.sameName($0.name, name) }?.value }
        set {
            let index = fields.firstIndex { Self.sameName($0.name, name) }
            fields.removeAll { Self.sameName($0.name, name) }
            if let newValue {
                fields.insert(
                    Field(name: name, value: newValue), at: Swift.min(index ?? fields.count, fields.count))
            }
        }
    }

    /// Every value for `name`, in arrival order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Whether two field names are equal ignoring ASCII case. Field names are ASCII tokens
    /// (RFC 9110 §5.1), so a byte comparison is exact; Foundation's `caseInsensitiveCompare`
    /// goes through `NSString` on Linux and was the largest cost of a small request.
    static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8
        let right = rhs.utf8
        guard left.count == right.count else { return false }
        for (a, b) in zip(left, right) where a != b {
            // Only letters differ by case, and only by the 0x20 bit.
            guard a ^ b == 0x20, (0x41...0x5A).contains(a & ~0x20) else { return false }
        }
        return true
    }

    /// Adds a field even if one of that name exists (for example a second `Vary`).
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// Two header lists are equal when they hold the same fields, names compared without
    /// case; only the order of fields sharing a name matters (RFC 9110 §5.3).
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.normalized == rhs.normalized
    }

    public func hash(into hasher: inout Hasher) {
        for field in normalized {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }

    private var normalized: [Field] {
        fields.enumerated()
            .map {
                (offset: $0.offset, field: Field(name: $0.element.name.lowercased(), value: $0.element.value))
            }
            .sorted { ($0.field.name, $0.offset) < ($1.field.name, $1.offset) }
            .map(\.field)
    }
}

/// One decoded `name=value` pair of a query string. A bare `flag` has a nil value.
public struct QueryItem: Hashable, Sendable {
    public var name: String
    public var value: String?

    public init(name: String, value: String?) {
        (self.name, self.value) = (name, value)
    }
}

/// A complete HTTP request as the responder sees it: the body has been read in full (and
/// checked against the body limit) before the responder runs.
///
/// `path` stays percent-encoded, exactly as sent, so that `%2F` inside a segment does not
/// become a separator; the router decodes segment by segment. Query items are decoded.
///
/// ```swift
/// let request = HTTPRequest(method: .get, target: "/api/v1/links/summer%20sale?utm=mail")
/// request.path                     // "/api/v1/links/summer%20sale"
/// request.queryValue(for: "utm")   // "mail"
/// ```
public struct HTTPRequest: Sendable, Equatable {
    public var method: HTTPMethod
    public var path: String
    public var query: [QueryItem]
    public var headers: HTTPHeaders
    public var body: Data
    public var remoteAddress: String?

    public init(
        method: HTTPMethod, path: String, query: [QueryItem] = [], headers: HTTPHeaders = [:],
        body: Data = Data(), remoteAddress: String? = nil
    ) {
        (self.method, self.path, self.query, self.headers, self.body, self.remoteAddress) = (
            method, path, query, headers, body, remoteAddress
        )
    }

    /// Builds a request from a request target such as `/path?a=1&b=two+words`, decoding the
    /// query the way HTML forms encode it (`+` is a space, then `%HH` escapes).
    public init(
        method: HTTPMethod, target: String, headers: HTTPHeaders = [:], body: Data = Data(),
        remoteAddress: String? = nil
    ) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let query = parts.count > 1 ? Self.parseQuery(String(parts[1])) : []
        self.init(
            method: method, path: String(parts[0]), query: query, headers: headers, body: body,
            remoteAddress: remoteAddress)
    }

    /// The first value of the query item `name`, if present.
    public func queryValue(for name: String) -> String? {
        query.first { $0.name == name }?.value ?? nil
    }

    /// Splits and decodes a raw query string. Malformed escapes are kept as written rather
    /// than dropped, so a handler can still report them.
    public static func parseQuery(_ raw: String) -> [QueryItem] {
        raw.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decodeFormComponent(String(halves[0]))
            let value = halves.count > 1 ? decodeFormComponent(String(halves[1])) : nil
            return QueryItem(name: name, value: value)
        }
    }

    /// Decodes one form-encoded component: `+` to space, then percent escapes.
    public static func decodeFormComponent(_ raw: String) -> String {
        let spaced = raw.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}

/// A complete HTTP response: status, headers and body bytes.
///
/// ```swift
/// let response = try HTTPResponse.json(["status": "ok"])
/// response.headers["Content-Type"]  // "application/json; charset=utf-8"
/// ```
public struct HTTPResponse: Sendable, Equatable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: Data
    /// A body written over time (Server-Sent Events); when set, `body` is ignored and the
    /// server writes whatever the stream is sent until it is finished.
    public var stream: HTTPStream?

    public init(
        status: HTTPStatus, headers: HTTPHeaders = [:], body: Data = Data(), stream: HTTPStream? = nil
    ) {
        (self.status, self.headers, self.body, self.stream) = (status, headers, body, stream)
    }

    /// The content type every JSON body carries.
    public static let jsonContentType = "application/json; charset=utf-8"

    /// A JSON response. Keys are sorted so that the same value always yields the same
    /// bytes, which keeps tests and caches honest.
    public static func json<Value: Encodable>(
        _ value: Value, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]
    ) throws -> HTTPResponse {
        var allHeaders = headers
        allHeaders["Content-Type"] = jsonContentType
        return HTTPResponse(status: status, headers: allHeaders, body: try jsonEncoder.encode(value))
    }

    /// A plain-text response (UTF-8).
    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }

    /// The body read as UTF-8, for tests and logs.
    public var bodyText: String {
        String(decoding: body, as: UTF8.self)
    }

    static var jsonEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
