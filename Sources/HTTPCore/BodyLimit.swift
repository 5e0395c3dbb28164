import Foundation

/// The request body size rule (64 KiB by default), applied while the body is still arriving.
///
/// Every body the API accepts is a small JSON object, so a larger one is a mistake or an
/// attack. The server checks a declared `Content-Length` before reading a single body byte
/// (``admit(declaredLength:)``), and counts the pieces of a chunked body as they arrive
/// (``BodyAccumulator``), so it never buffers more than the limit.
///
/// ```swift
/// let limit = BodyLimit(maxBytes: 65_536)
/// try limit.admit(declaredLength: 70_000)  // throws HTTPError 413
/// ```
public struct BodyLimit: Equatable, Sendable {
    public var maxBytes: Int

    public init(maxBytes: Int = 65_536) {
        self.maxBytes = maxBytes
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
