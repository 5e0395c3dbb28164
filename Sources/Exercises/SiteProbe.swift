import Foundation
import StrictJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether `workbook serve` is answering at the configuration's `siteOrigin`, so that the links a
/// check prints open the running site (`http://localhost:8080/chapters/…`). Asked once per
/// process, with 200 ms at most for the whole question, and only of this machine: an origin on
/// another host is never probed. `WORKBOOK_SITE_PROBE=off` skips it (tests do, so that their
/// output does not depend on a server someone left running).
package enum SiteProbe {
    package static let switchVariable = "WORKBOOK_SITE_PROBE"
    /// The configuration whose `siteOrigin` names where the site is served.
    static let configuration = "config/demo.json"
    /// How long the whole question may take, in milliseconds.
    package static let budget: Int32 = 200

    private static let lock = NSLock()
    nonisolated(unsafe) private static var answers: [String: String?] = [:]

    /// The origin to prefix site pages with, or nil (no server, probing off, no configuration).
    /// `budget` is for tests on a busy machine; the tool always uses the default.
    package static func origin(
        bookRoot: URL, environment: [String: String] = ProcessInfo.processInfo.environment,
        budget: Int32 = budget
    ) -> String? {
        guard environment[switchVariable]?.lowercased() != "off" else { return nil }
        return lock.withLock {
            if let known = answers[bookRoot.path] { return known }
            let answer = probe(bookRoot: bookRoot, budget: budget)
            answers[bookRoot.path] = answer
            return answer
        }
    }

    private static func probe(bookRoot: URL, budget: Int32) -> String? {
        guard
            let data = FileManager.default.contents(
                atPath: bookRoot.appendingPathComponent(configuration).path),
            case .string(let origin)? = (try? JSONValue(data: data))?["siteOrigin"],
            let components = URLComponents(string: origin), components.scheme == "http",
            let host = components.host, ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host)
        else { return nil }
        let port = components.port ?? 80
        return answers(host: host == "localhost" ? "127.0.0.1" : host, port: port, budget: budget)
            ? origin : nil
    }

    /// Connects, asks for `/_workbook/status`, and reads the status line, all within the budget.
    private static func answers(host: String, port: Int, budget: Int32) -> Bool {
        let isIPv6 = host.contains(":")
        let descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var started = timespec()
        clock_gettime(CLOCK_MONOTONIC, &started)
        func remaining() -> Int32 {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let elapsed = (now.tv_sec - started.tv_sec) * 1000 + (now.tv_nsec - started.tv_nsec) / 1_000_000
            return max(0, budget - Int32(elapsed))
        }
        func wait(for events: Int16) -> Bool {
            var poller = pollfd(fd: descriptor, events: events, revents: 0)
            return poll(&poller, 1, remaining()) == 1 && poller.revents & events != 0
        }
        let connected: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            _ = inet_pton(
                AF_INET6, host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), &address.sin6_addr)
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            _ = inet_pton(AF_INET, host, &address.sin_addr)
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard connected == 0 || errno == EINPROGRESS, wait(for: Int16(POLLOUT)) else { return false }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 else {
            return false
        }
        let request = Array(
            "GET /_workbook/status HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard
            request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) })
                == request.count
        else { return false }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while received.count < 12, wait(for: Int16(POLLIN)) {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        let status = String(decoding: received.prefix(12), as: UTF8.self)
        return status == "HTTP/1.1 200" || status == "HTTP/1.0 200"
    }
}
