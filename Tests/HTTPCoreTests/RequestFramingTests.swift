import HTTPCore
import Testing

/// The framing rules on their own, without a socket. The loopback tests (MicroHTTPDServerTests)
/// send the same heads raw; these cover what libmicrohttpd refuses before the rules see it.
@Suite("Request framing rules")
struct RequestFramingTests {
    /// Lengths that differ are refused (source: "RFC 9112 §6.3"); a list of identical values may be
    /// taken as one (source: "RFC 9110 §8.6").
    @Test func aListOfDifferentLengthsIsRefusedAndAListOfTheSameIsOne() throws {
        #expect(throws: HTTPError.self) {
            try RequestFraming.check(headers: ["Host": "a", "Content-Length": "2, 3"], version: "HTTP/1.1")
        }
        try RequestFraming.check(headers: ["Host": "a", "Content-Length": "2, 2"], version: "HTTP/1.1")
    }
}
