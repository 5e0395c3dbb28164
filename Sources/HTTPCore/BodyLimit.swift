import Foundation

/// The request body size rule (64 KiB by default), applied while the body is still arriving.
///
/// Every body the API accepts is a small JSON object, so a larger one is a mistake or an
/// attack. The server checks a declared `Content-Length` before reading a single body byte
/// (``admit(declaredLength:)``), and counts the pieces of a chunked body as they arrive
/// (``BodyAccumulator``), so it never buffers more than the limit.
///
/// A few routes take files rather than small objects (the Link Lab's): an ``Override`` gives the
/// paths under a prefix a limit of their own, and ``forPath(_:)`` picks the one a request gets.
///
/// ```swift
/// let limit = BodyLimit(maxBytes: 65_536)
/// try limit.admit(declaredLength: 70_000)  // throws HTTPError 413
/// let lab = BodyLimit(overrides: [.init(pathPrefix: "/api/v1/lab/", maxBytes: 1_572_864)])
/// lab.forPath("/api/v1/lab/aasa").maxBytes  // 1572864
/// ```
public struct BodyLimit: Equatable, Sendable {
    public var maxBytes: Int
    /// Other limits for the paths under some prefixes; the longest matching prefix wins.
    public var overrides: [Override]

    /// A limit for the paths that start with `pathPrefix`.
    public struct Override: Equatable, Sendable {
        public var pathPrefix: String
        public var maxBytes: Int

        public init(pathPrefix: String, maxBytes: Int) {
            (self.pathPrefix, self.maxBytes) = (pathPrefix, maxBytes)
        }
    }

    public init(maxBytes: Int = 65_536, overrides: [Override] = []) {
        self.maxBytes = maxBytes
        self.overrides = overrides
    }

    /// The limit for a request to `path`: the longest override whose prefix it starts with,
    /// otherwise ``maxBytes``.
    public func forPath(_ path: String) -> BodyLimit {
        guard
            let match = overrides.filter({ path.hasPrefix($0.pathPrefix) }).max(by: {
                $0.pathPrefix.count < $1.pathPrefix.count
            })
        else { return BodyLimit(maxBytes: maxBytes) }
        return BodyLimit(maxBytes: match.maxBytes)
    }

    /// Checks the `Content-Length` a client declared, before reading the body.
    public func admit(declaredLength: Int?) throws(HTTPError) {
        if let declaredLength, declaredLength > maxBytes {
            throw HTTPError.payloadTooLarge(limit: maxBytes)
        }
    }

    /// Checks the `Content-Length` header of `headers`; an unreadable value is a 400.
    public func admit(headers: HTTPHeaders) throws(HTTPError) {
        guard let raw = headers["Content-Length"] else { return }
        // Spaces and tabs trimmed by hand: Foundation's trimming bridges through NSString on
        // Linux, a real cost on a header every POST carries.
        var digits = Substring(raw)
        while digits.first == " " || digits.first == "\t" { digits.removeFirst() }
        while digits.last == " " || digits.last == "\t" { digits.removeLast() }
        guard let length = Int(digits), length >= 0 else {
            throw HTTPError(
                .badRequest, code: "invalid_content_length", message: "Content-Length is not a number")
        }
        try admit(declaredLength: length)
    }
}

/// Collects a request body piece by piece and refuses to grow past its ``BodyLimit``.
///
/// ```swift
/// var body = BodyAccumulator(limit: BodyLimit(maxBytes: 4))
/// try body.append(Data("abc".utf8))
/// try body.append(Data("de".utf8))  // throws 413; `body.data` still holds "abc"
/// ```
public struct BodyAccumulator: Sendable {
    public let limit: BodyLimit
    public private(set) var data = Data()

    public init(limit: BodyLimit) {
        self.limit = limit
    }

    public mutating func append(_ piece: Data) throws(HTTPError) {
        guard data.count + piece.count <= limit.maxBytes else {
            throw HTTPError.payloadTooLarge(limit: limit.maxBytes)
        }
        data.append(piece)
    }
}
