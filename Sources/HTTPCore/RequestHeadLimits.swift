/// How large a request head the server reads before any handler runs: a request target (the
/// path and the query) of at most 8 KiB and header fields of at most 32 KiB, the sizes common
/// servers hold by default (Apache's request line is 8,190 bytes). Past them the answer is
/// `414 uri_too_long` or `431 header_fields_too_large`, in the one JSON error shape.
///
/// ```swift
/// try RequestHeadLimits().check(targetLength: 9_000, headers: [:])   // throws 414 uri_too_long
/// ```
public struct RequestHeadLimits: Equatable, Sendable {
    public var targetBytes: Int
    public var headerBytes: Int

    public init(targetBytes: Int = 8 << 10, headerBytes: Int = 32 << 10) {
        (self.targetBytes, self.headerBytes) = (targetBytes, headerBytes)
    }

    /// The bytes of a request target as sent: the path, then `?` and the query's items joined
    /// with `&`, each `name` or `name=value` as it was received (still percent-encoded).
    public static func targetLength(path: String, query: [(name: String, value: String?)]) -> Int {
        guard !query.isEmpty else { return path.utf8.count }
        let items = query.reduce(0) { total, item in
            total + item.name.utf8.count + (item.value.map { 1 + $0.utf8.count } ?? 0)
        }
        return path.utf8.count + 1 + items + (query.count - 1)
    }

    /// The bytes of the header fields as sent: `Name: value` and a line break each.
    public static func headerLength(_ headers: HTTPHeaders) -> Int {
        headers.reduce(0) { $0 + $1.name.utf8.count + 2 + $1.value.utf8.count + 2 }
    }

    public func check(targetLength: Int, headers: HTTPHeaders) throws(HTTPError) {
        if targetLength > targetBytes { throw HTTPError.uriTooLong(limit: targetBytes) }
        if Self.headerLength(headers) > headerBytes {
            throw HTTPError.headerFieldsTooLarge(limit: headerBytes)
        }
    }
}
