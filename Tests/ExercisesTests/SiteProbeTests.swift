import Foundation
import TestSupport
import Testing

@testable import Exercises

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The probe that decides whether a check's links carry the running site's origin.
@Suite struct SiteProbeTests {
    /// A book folder whose configuration names `origin` as its site.
    func book(origin: String) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("config/demo.json", #"{"siteOrigin": "\#(origin)"}"#)
        return folder
    }

    // The tool allows 200 ms; these listeners get 5 s, so that a busy machine cannot fail them.
    @Test func aServerAnsweringAtTheOriginIsFound() async throws {
        let listener = try OneRequestListener(statusLine: "HTTP/1.1 200 OK")
        let folder = try book(origin: "http://127.0.0.1:\(listener.port)")
        let root = folder.url
        let origin = await offPool { SiteProbe.origin(bookRoot: root, environment: [:], budget: 5_000) }
        #expect(origin == "http://127.0.0.1:\(listener.port)")
        #expect(await listener.request()?.hasPrefix("GET /_workbook/status HTTP/1.1\r\n") == true)
    }

    @Test func aServerAnsweringAnythingElseIsNotTheSite() async throws {
        let listener = try OneRequestListener(statusLine: "HTTP/1.1 404 Not Found")
        let folder = try book(origin: "http://localhost:\(listener.port)")
        let root = folder.url
        let origin = await offPool { SiteProbe.origin(bookRoot: root, environment: [:], budget: 5_000) }
        #expect(origin == nil)
    }

    @Test func nobodyListeningMeansNoOrigin() throws {
        let port = try OneRequestListener.freePort()
        let folder = try book(origin: "http://127.0.0.1:\(port)")
        #expect(SiteProbe.origin(bookRoot: folder.url, environment: [:]) == nil)
    }

    @Test func anotherHostIsNeverAskedAndOffMeansOff() throws {
        let elsewhere = try book(origin: "http://example.com:8080")
        #expect(SiteProbe.origin(bookRoot: elsewhere.url, environment: [:]) == nil)
        let listener = try OneRequestListener(statusLine: "HTTP/1.1 200 OK")
        let switchedOff = try book(origin: "http://127.0.0.1:\(listener.port)")
        #expect(
            SiteProbe.origin(bookRoot: switchedOff.url, environment: [SiteProbe.switchVariable: "off"]) == nil
        )
    }
}

/// A loopback listener on a free port that answers one request with `statusLine`, for at most
/// five seconds, and keeps the request it read.
final class OneRequestListener: @unchecked Sendable {
    let port: Int
    private let descriptor: Int32
    private let received = Mailbox<String>()

    init(statusLine: String) throws {
        (descriptor, port) = try Self.listening()
        let descriptor = descriptor
        let received = received
        Thread.detachNewThread {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 5_000) == 1 else { return }
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var request: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1024)
            while !String(decoding: request, as: UTF8.self).contains("\r\n\r\n"), request.count < 65_536 {
                let count = recv(connection, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                request += buffer[0..<count]
            }
            let answer = Array("\(statusLine)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
            _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            received.put(String(decoding: request, as: UTF8.self))
        }
    }

    deinit { close(descriptor) }

    /// The request the listener read, once it has answered it.
    func request() async -> String? { await received.take(timeout: .seconds(5)) }

    /// A port nothing listens on: bound, read, and closed again.
    static func freePort() throws -> Int {
        let (descriptor, port) = try listening()
        close(descriptor)
        return port
    }

    private static func listening() throws -> (Int32, Int) {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 4) == 0
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}
