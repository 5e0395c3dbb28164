import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking TCP client on raw sockets, for what URLSession will not do: send half a request,
/// announce a body it never sends, hold many connections, read an event stream piece by piece,
/// or read exactly what the server wrote. Shared by the HTTP shell's and the mock server's tests.
///
/// Its reads block. Called with `await` (from an async test), each runs on a thread of its own
/// instead, so that it never holds one of the few cooperative threads the server under test
/// answers on: on a 2-core machine, two blocked test threads would starve the server.
///
/// ```swift
/// let client = try RawClient(port: port)
/// client.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
/// client.readAll()   // "HTTP/1.1 200 OK\r\n..."
/// ```
public final class RawClient: @unchecked Sendable {
    /// How a read ended.
    public enum ReadEnd: Equatable, Sendable {
        case closedByServer
        case timedOut
    }

    public let descriptor: Int32

    /// Connects to 127.0.0.1:`port`; every read gives up after `receiveTimeoutSeconds` of silence.
    public init(port: Int, receiveTimeoutSeconds: Int = 5) throws {
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            let code = errno
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .ECONNREFUSED)
        }
    }

    deinit {
        close(descriptor)
    }

    /// Changes how long a read waits for the next bytes.
    public func setReceiveTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes all of `bytes`; false if the server closed the connection.
    @discardableResult
    public func send(_ bytes: Data) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                    Glibc.send(
                        descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                #else
                    Darwin.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, 0)
                #endif
            }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// Writes all of `text` as UTF-8; false if the server closed the connection.
    @discardableResult
    public func send(_ text: String) -> Bool {
        send(Data(text.utf8))
    }

    /// Reads until the server closes the connection or nothing arrives for the receive timeout,
    /// and says which of the two happened.
    public func readUntilClosed(maxBytes: Int = 1 << 20) -> (text: String, end: ReadEnd) {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while received.count < maxBytes {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno == ECONNRESET {
                return (String(decoding: received, as: UTF8.self), .closedByServer)
            } else {
                return (String(decoding: received, as: UTF8.self), .timedOut)
            }
        }
        return (String(decoding: received, as: UTF8.self), .timedOut)
    }

    /// Everything the server sends until it closes or the receive timeout passes.
    public func readAll(maxBytes: Int = 1 << 20) -> String {
        readUntilClosed(maxBytes: maxBytes).text
    }

    /// Reads until `marker` has arrived, the server closes, the receive timeout passes without
    /// a byte, or `seconds` have passed in all (a stream's heartbeats would keep it going):
    /// one event of a stream that stays open.
    public func read(until marker: String, maxBytes: Int = 1 << 16, seconds: Double = 120) -> String {
        read(untilAnyOf: [marker], maxBytes: maxBytes, seconds: seconds)
    }

    /// ``read(until:maxBytes:seconds:)`` until the first of several markers.
    public func read(untilAnyOf markers: [String], maxBytes: Int = 1 << 16, seconds: Double = 120) -> String {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date(timeIntervalSinceNow: seconds)
        while received.count < maxBytes, Date() < deadline {
            let text = String(decoding: received, as: UTF8.self)
            if markers.contains(where: text.contains) { break }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: received, as: UTF8.self)
    }
}

extension RawClient {
    /// ``readUntilClosed(maxBytes:)`` off the cooperative pool.
    public func readUntilClosed(maxBytes: Int = 1 << 20) async -> (text: String, end: ReadEnd) {
        await offPool { self.readUntilClosed(maxBytes: maxBytes) }
    }

    /// ``readAll(maxBytes:)`` off the cooperative pool.
    public func readAll(maxBytes: Int = 1 << 20) async -> String {
        await offPool { self.readAll(maxBytes: maxBytes) }
    }

    /// ``read(until:maxBytes:)`` off the cooperative pool.
    public func read(until marker: String, maxBytes: Int = 1 << 16, seconds: Double = 120) async -> String {
        await offPool { self.read(until: marker, maxBytes: maxBytes, seconds: seconds) }
    }

    /// ``read(untilAnyOf:maxBytes:seconds:)`` off the cooperative pool.
    public func read(untilAnyOf markers: [String], maxBytes: Int = 1 << 16, seconds: Double = 120) async
        -> String
    {
        await offPool { self.read(untilAnyOf: markers, maxBytes: maxBytes, seconds: seconds) }
    }
}
