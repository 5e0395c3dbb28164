import Foundation
import HTTPCore
import HTTPDemoApp
import TestSupport
import Testing

/// One request head sent raw over loopback, and the answer: the shell's refusal before any
/// handler runs, or the handler's answer.
struct FramingCase: Sendable, CustomTestStringConvertible {
    var id: String
    var source: String
    var head: String
    var body: String = ""
    var status: Int
    /// The whole body expected; nil where libmicrohttpd answers with its own HTML.
    var answer: String?
    var testDescription: String { id }
}

let framingCases: [FramingCase] = [
    // libmicrohttpd 0.9.75 answers these itself, with its own HTML (chapter 21, Refusals, says so).
    FramingCase(
        id: "libmicrohttpd-length-of-2^64", source: "this book: chapter 21, Refusals",
        head: "POST /api/v1/echo HTTP/1.1\r\nHost: a\r\nContent-Length: 18446744073709551616\r\n",
        status: 413),
    FramingCase(
        id: "long-target", source: "this book: chapter 21, Refusals",
        head: "GET /" + String(repeating: "a", count: 40_000) + " HTTP/1.1\r\nHost: a\r\n", status: 414,
        answer:
            #"{"error":{"code":"uri_too_long","message":"the request target (path and query) is longer than 8192 bytes"}}"#
    ),
    FramingCase(
        id: "big-header", source: "this book: chapter 21, Refusals",
        head: "GET /health HTTP/1.1\r\nHost: a\r\nX-Big: " + String(repeating: "b", count: 40_000) + "\r\n",
        status: 431,
        answer:
            #"{"error":{"code":"header_fields_too_large","message":"the header fields take more than 32768 bytes"}}"#
    ),
    // Past what libmicrohttpd reads into a connection's memory at all (2 MiB).
    FramingCase(
        id: "libmicrohttpd-target-past-its-memory", source: "this book: chapter 21, Refusals",
        head: "GET /" + String(repeating: "a", count: 3_000_000) + " HTTP/1.1\r\nHost: a\r\n", status: 414),
    FramingCase(
        id: "libmicrohttpd-header-past-its-memory", source: "this book: chapter 21, Refusals",
        head: "GET /health HTTP/1.1\r\nHost: a\r\nX-Big: " + String(repeating: "b", count: 3_000_000)
            + "\r\n",
        status: 431),
    FramingCase(
        id: "libmicrohttpd-http-2.0", source: "this book: chapter 21, Refusals",
        head: "GET /health HTTP/2.0\r\nHost: a\r\n", status: 505),
    FramingCase(
        id: "libmicrohttpd-bad-header-line", source: "this book: chapter 21, Refusals",
        head: "GET /health HTTP/1.1\r\nHost: a\r\nBad Header\r\n", status: 400),
    FramingCase(
        id: "two-different-lengths", source: "RFC 9112 §6.3",
        head: "POST /api/v1/echo HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 3\r\n",
        body: "{}x", status: 400,
        answer:
            #"{"error":{"code":"conflicting_content_length","message":"Content-Length is given more than once with different values (RFC 9112 §6.3)"}}"#
    ),
    FramingCase(
        // libmicrohttpd refuses a value it cannot read as one number itself, with its own HTML body.
        id: "a-list-of-different-lengths", source: "RFC 9112 §6.3",
        head: "POST /api/v1/echo HTTP/1.1\r\nHost: a\r\nContent-Length: 2, 3\r\n", body: "{}x", status: 400),
    FramingCase(
        id: "the-same-length-twice", source: "RFC 9110 §8.6",
        head: "POST /api/v1/size HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 2\r\n",
        body: "{}", status: 200, answer: #"{"bytes":2}"#),
    FramingCase(
        id: "http-1.1-without-host", source: "RFC 9112 §3.2",
        head: "GET /health HTTP/1.1\r\n", status: 400,
        answer:
            #"{"error":{"code":"invalid_host","message":"an HTTP/1.1 request needs a Host header (RFC 9112 §3.2)"}}"#
    ),
    FramingCase(
        id: "two-hosts", source: "RFC 9112 §3.2",
        head: "GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n", status: 400,
        answer:
            #"{"error":{"code":"invalid_host","message":"the Host header is given more than once (RFC 9112 §3.2)"}}"#
    ),
    FramingCase(
        // libmicrohttpd passes 1.2 to 1.9 on as 1.x; the shell applies HTTP/1.1's rules to them.
        id: "http-1.2-without-host", source: "RFC 9110 §2.5",
        head: "GET /health HTTP/1.2\r\n", status: 400,
        answer:
            #"{"error":{"code":"invalid_host","message":"an HTTP/1.1 request needs a Host header (RFC 9112 §3.2)"}}"#
    ),
    FramingCase(
        id: "http-1.9-with-host", source: "RFC 9110 §2.5",
        head: "GET /health HTTP/1.9\r\nHost: a\r\n", status: 200, answer: #"{"status":"ok"}"#),
    FramingCase(
        id: "libmicrohttpd-version-not-d.d", source: "this book: chapter 21, Refusals",
        head: "GET /health HTTP/1.10\r\nHost: a\r\n", status: 400),
    FramingCase(
        id: "libmicrohttpd-http-0.9", source: "this book: chapter 21, Refusals",
        head: "GET /health HTTP/0.9\r\nHost: a\r\n", status: 505),
    FramingCase(
        id: "http-1.0-without-host", source: "RFC 9112 §3.2",
        head: "GET /health HTTP/1.0\r\n", status: 200, answer: #"{"status":"ok"}"#),
    FramingCase(
        id: "identity-transfer-coding", source: "RFC 9112 §6.3",
        head: "POST /api/v1/echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: identity\r\n", body: "{}",
        status: 400,
        answer:
            #"{"error":{"code":"invalid_transfer_encoding","message":"Transfer-Encoding must end with chunked, once (RFC 9112 §6.3)"}}"#
    ),
    FramingCase(
        id: "chunked-twice", source: "RFC 9112 §6.1",
        head: "POST /api/v1/echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n",
        status: 400,
        answer:
            #"{"error":{"code":"invalid_transfer_encoding","message":"Transfer-Encoding must end with chunked, once (RFC 9112 §6.3)"}}"#
    ),
    FramingCase(
        id: "gzip-then-chunked", source: "RFC 9112 §6.1",
        head: "POST /api/v1/echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n", status: 501,
        answer:
            #"{"error":{"code":"unsupported_transfer_encoding","message":"this server decodes only the chunked transfer coding, not gzip (RFC 9112 §6.1)"}}"#
    ),
    FramingCase(
        id: "length-and-chunked", source: "RFC 9112 §6.1",
        head: "POST /api/v1/echo HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n",
        body: "2\r\n{}\r\n0\r\n\r\n", status: 400,
        answer:
            #"{"error":{"code":"invalid_transfer_encoding","message":"a request cannot have both Transfer-Encoding and Content-Length (RFC 9112 §6.1)"}}"#
    ),
    FramingCase(
        id: "plain-chunked", source: "RFC 9112 §7",
        head: "POST /api/v1/size HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n",
        body: "2\r\n{}\r\n0\r\n\r\n", status: 200, answer: #"{"bytes":2}"#),
]

@Suite("Request framing", .serialized)
struct FramingTests {
    /// Sends the head (and body, if any) raw and reads the whole answer: a refusal comes back
    /// at once and the server closes the connection, whatever the client still meant to send.
    @Test(arguments: framingCases)
    func theShellRefusesDoubtfulFramingBeforeAnyHandler(_ framing: FramingCase) async throws {
        try await withLoopbackServer(DemoApp.make()) { _, port in
            let client = try RawClient(port: port, receiveTimeoutSeconds: 10)
            let close = framing.status == 200 ? "Connection: close\r\n" : ""
            client.send(framing.head + close + "\r\n" + framing.body)
            let (text, end) = await client.readUntilClosed()
            #expect(statusCode(ofRawResponse: text) == framing.status, "\(text)")
            if let answer = framing.answer {
                #expect(body(ofRawResponse: text) == answer)
            } else {
                // Its page (after a second copy of the head, for a Content-Length it cannot use).
                #expect(text.contains("\r\n\r\n<html><head><title>") && text.hasSuffix("</html>"), "\(text)")
            }
            #expect(end == .closedByServer)
        }
    }
}
