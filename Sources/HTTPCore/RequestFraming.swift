import Foundation

/// The message-framing rules of RFC 9112 the server enforces before any handler runs, because
/// libmicrohttpd lets these requests through: a server and a proxy in front of it that read
/// the length of a request differently can be made to see two requests in one (request
/// smuggling), so every doubtful length is refused. The rules are HTTP's, not the engine's, so
/// they live here, as values a test or a fuzzer checks without a socket; the engine adapter
/// applies them to every request head.
///
/// ```swift
/// try RequestFraming.check(headers: ["Content-Length": "5", "content-length": "6"], version: "HTTP/1.1")
/// // throws 400 conflicting_content_length
/// ```
public enum RequestFraming {
    /// Whether a request of `version` follows HTTP/1.1's rules: 1.1 itself, and 1.2 to 1.9, which a
    /// recipient processes as the highest minor version it implements (RFC 9110 §2.5), as
    /// libmicrohttpd does (it passes them on as 1.x; only 0.x and 2.x and later get its 505).
    public static func isHTTP11(_ version: String) -> Bool {
        let bytes = Array(version.utf8)
        guard bytes.count == 8, version.hasPrefix("HTTP/1.") else { return false }
        return (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[7])
    }

    /// Throws the refusal for a request whose head breaks a framing rule; returns for any other.
    public static func check(headers: HTTPHeaders, version: String) throws(HTTPError) {
        let hosts = headers.values(for: "Host")
        if isHTTP11(version), hosts.count != 1 {
            throw HTTPError(
                .badRequest, code: "invalid_host",
                message: hosts.isEmpty
                    ? "an HTTP/1.1 request needs a Host header (RFC 9112 §3.2)"
                    : "the Host header is given more than once (RFC 9112 §3.2)")
        }
        let lengths = Set(listMembers(headers.values(for: "Content-Length")))
        if lengths.count > 1 {
            throw HTTPError(
                .badRequest, code: "conflicting_content_length",
                message: "Content-Length is given more than once with different values (RFC 9112 §6.3)")
        }
        let codings = listMembers(headers.values(for: "Transfer-Encoding")).map { $0.lowercased() }
        guard !codings.isEmpty else { return }
        if version == "HTTP/1.0" {
            throw HTTPError(
                .badRequest, code: "invalid_transfer_encoding",
                message: "an HTTP/1.0 request cannot use Transfer-Encoding (RFC 9112 §6.1)")
        }
        if !lengths.isEmpty {
            throw HTTPError(
                .badRequest, code: "invalid_transfer_encoding",
                message: "a request cannot have both Transfer-Encoding and Content-Length (RFC 9112 §6.1)")
        }
        guard codings.last == "chunked", codings.dropLast().allSatisfy({ $0 != "chunked" }) else {
            throw HTTPError(
                .badRequest, code: "invalid_transfer_encoding",
                message: "Transfer-Encoding must end with chunked, once (RFC 9112 §6.3)")
        }
        if let unknown = codings.dropLast().first {
            throw HTTPError(
                HTTPStatus(501), code: "unsupported_transfer_encoding",
                message:
                    "this server decodes only the chunked transfer coding, not \(unknown) (RFC 9112 §6.1)")
        }
    }

    /// The members of comma-separated list headers (RFC 9110 §5.6.1), spaces trimmed, empty
    /// members dropped.
    static func listMembers(_ values: [String]) -> [String] {
        values.flatMap { value in
            value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }
}
