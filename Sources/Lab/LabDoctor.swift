import AttributionService
import Doctor
import Foundation
import HTTPCore
import ProcessRunner
import StrictJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lab's one route that reaches out: `POST /api/v1/lab/doctor` fetches a domain's two
/// association files as Apple's and Google's fetchers do and answers the doctor's report.
///
/// A server that fetches any URL a visitor names is a way into the network it stands in, so the
/// rules are strict by default: the target must resolve to public addresses only (no loopback,
/// private, link-local, multicast, reserved or unspecified address) and use port 443; the fetch
/// connects to the very address that was checked (no second resolution, so a name that
/// resolves elsewhere a moment later changes nothing), follows no redirect (it reports it), and
/// stops after ``LabFetchRules/timeout`` and ``LabFetchRules/maxBytes``. A client address gets
/// ``LabFetchRules/requestsPerMinute`` doctor requests a minute. `workbook serve
/// --lab-fetch-private` lifts the address and port rules, for a local test server.
///
/// Resolution and fetching are injected (``LabNetwork``): tests never touch a network.
package struct LabFetchRules: Sendable {
    /// Loopback and private addresses and any port are allowed (`--lab-fetch-private`).
    package var allowPrivate = false
    /// Seconds for one fetch, connection included.
    package var timeout: TimeInterval = 5
    /// The most a fetched file may be: Apple's limit for the AASA file, 128 KB.
    package var maxBytes = 131_072
    package var requestsPerMinute = 10

    package init(allowPrivate: Bool = false, timeout: TimeInterval = 5) {
        self.allowPrivate = allowPrivate
        self.timeout = timeout
    }
}

/// Name resolution and fetching.
package struct LabNetwork: Sendable {
    /// The addresses of a host name, or why there are none.
    package var resolve: @Sendable (_ host: String) -> Result<[String], LabResolveFailure>
    /// Fetches `url` from `address` within the rules' time and size.
    package var fetch: @Sendable (_ url: URL, _ address: String, _ rules: LabFetchRules) -> FetchOutcome

    package init(
        resolve: @escaping @Sendable (String) -> Result<[String], LabResolveFailure>,
        fetch: @escaping @Sendable (URL, String, LabFetchRules) -> FetchOutcome
    ) {
        (self.resolve, self.fetch) = (resolve, fetch)
    }

    /// The system's resolver and `curl`, pinned to the checked address with `--resolve`.
    package static let live = LabNetwork(resolve: SystemResolver.addresses, fetch: CurlFetcher.fetch)
}

package struct LabResolveFailure: Error, Equatable, Sendable {
    package var message: String
}

/// What kind of address an IP address is, for the fetch rules.
package enum AddressKind: String, Sendable {
    case loopback, `private`
    case linkLocal = "link-local"
    case multicast, unspecified, reserved, `public`

    /// The kind of an IPv4 or IPv6 address in text; nil when the text is no address.
    package static func of(_ text: String) -> AddressKind? {
        let text = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return of(ipv4: UInt32(bigEndian: v4.s_addr))
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            // ::ffff:a.b.c.d is the IPv4 address a.b.c.d.
            return of(ipv4: bytes[12...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        if bytes.allSatisfy({ $0 == 0 }) { return .unspecified }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return .loopback }
        if bytes[0] == 0xFF { return .multicast }
        if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return .linkLocal }
        if bytes[0] & 0xFE == 0xFC { return .private }
        if bytes[0..<12].allSatisfy({ $0 == 0 }) { return .reserved }  // IPv4-compatible, deprecated
        return .public
    }

    static func of(ipv4 address: UInt32) -> AddressKind {
        func within(_ prefix: UInt32, _ bits: UInt32) -> Bool {
            address >> (32 - bits) == prefix >> (32 - bits)
        }
        if within(0x7F00_0000, 8) { return .loopback }
        if within(0x0000_0000, 8) { return .unspecified }
        if within(0x0A00_0000, 8) || within(0xAC10_0000, 12) || within(0xC0A8_0000, 16)
            || within(0x6440_0000, 10)
        {
            return .private
        }
        if within(0xA9FE_0000, 16) { return .linkLocal }
        if within(0xE000_0000, 4) { return .multicast }
        // 240/4, and the blocks RFC 6890 marks not global: protocol assignments, documentation
        // and benchmarking.
        if within(0xF000_0000, 4) || within(0xC000_0000, 24) || within(0xC000_0200, 24)
            || within(0xC612_0000, 15) || within(0xC633_6400, 24) || within(0xCB00_7100, 24)
        {
            return .reserved
        }
        return .public
    }

    /// `a loopback address`, `a private address`…
    var phrase: String {
        switch self {
        case .loopback: "a loopback address"
        case .private: "a private address"
        case .linkLocal: "a link-local address"
        case .multicast: "a multicast address"
        case .unspecified: "an unspecified address"
        case .reserved: "a reserved address"
        case .public: "a public address"
        }
    }
}

/// The doctor requests each client address made in the last minute.
final class LabRateLimiter: @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [String: [Date]] = [:]
    /// Clients remembered at most; beyond, the quietest are forgotten.
    private let capacity = 10_000

    /// Nil when the request may go ahead (and counts it), otherwise the seconds until it may.
    func admit(_ client: String, now: Date, perMinute: Int) -> Int? {
        lock.withLock {
            var times = (requests[client] ?? []).filter { now.timeIntervalSince($0) < 60 }
            if times.count >= perMinute {
                requests[client] = times
                let wait = 60 - now.timeIntervalSince(times[0])
                return max(1, Int(wait.rounded(.up)))
            }
            times.append(now)
            requests[client] = times
            if requests.count > capacity {
                let stale = requests.filter { $0.value.allSatisfy { now.timeIntervalSince($0) >= 60 } }.keys
                for key in stale { requests[key] = nil }
            }
            return nil
        }
    }
}

extension Lab {
    /// Why the doctor will not fetch a target: 403 `fetch_refused`.
    package struct FetchRefused: Error, Equatable, Sendable {
        package var message: String
    }

    /// Checks where `url` would be fetched from; returns the address to connect to.
    static func checkedAddress(host: String, port: Int, rules: LabFetchRules, network: LabNetwork)
        -> Result<String, FetchOutcomeOrRefusal>
    {
        let lift =
            "; the lab fetches only from public addresses on port 443 (workbook serve "
            + "--lab-fetch-private lifts this for a local test server)"
        let addresses: [String]
        if AddressKind.of(host) != nil {
            addresses = [host]
        } else {
            switch network.resolve(host) {
            case .success(let found) where !found.isEmpty: addresses = found
            case .success: return .failure(.outcome(.failed("the host name does not resolve")))
            case .failure(let failure): return .failure(.outcome(.failed(failure.message)))
            }
        }
        if !rules.allowPrivate {
            // The address rule first: it says more than the port.
            for address in addresses {
                let kind = AddressKind.of(address) ?? .reserved
                guard kind == .public else {
                    let named = address == host ? address : "\(host) resolves to \(address), which"
                    return .failure(.refused("\(named) is \(kind.phrase)" + lift))
                }
            }
            guard port == 443 else {
                return .failure(.refused("port \(port) is not 443" + lift))
            }
        }
        return .success(addresses[0])
    }

    enum FetchOutcomeOrRefusal: Error {
        case outcome(FetchOutcome)
        case refused(String)
    }

    /// The doctor's report for `url`: 403 for a refused target, the report otherwise (a target
    /// that cannot be reached is a report that says so).
    package static func doctor(url: String, rules: LabFetchRules, network: LabNetwork) throws(LabDoctorError)
        -> DoctorReport
    {
        let target: DoctorTarget
        do {
            target = try DoctorTarget.parse(url)
        } catch {
            throw .badRequest(LabRequestError(field: "url", message: message(of: error)))
        }
        func fetch(_ file: URL, refuseWholeRequest: Bool) throws(LabDoctorError) -> FetchOutcome {
            let host = file.host ?? ""
            let port = file.port ?? (file.scheme == "http" ? 80 : 443)
            switch checkedAddress(host: host, port: port, rules: rules, network: network) {
            case .success(let address):
                return network.fetch(file, address, rules)
            case .failure(.outcome(let outcome)):
                return outcome
            case .failure(.refused(let message)):
                if refuseWholeRequest { throw .refused(message) }
                return .failed("not fetched: " + message)
            }
        }
        let aasa = try fetch(target.aasaURL, refuseWholeRequest: true)
        let assetLinks = try fetch(target.assetLinksURL, refuseWholeRequest: true)
        var included: [URL: FetchOutcome] = [:]
        for url in DoctorReport.includedURLs(assetLinks) {
            included[url] = try fetch(url, refuseWholeRequest: false)
        }
        return DoctorReport(target: target, aasa: aasa, assetLinks: assetLinks, included: included)
    }

    package enum LabDoctorError: Error, Equatable {
        case badRequest(LabRequestError)
        case refused(String)
    }
}

/// `getaddrinfo`, the system's resolver.
enum SystemResolver {
    @Sendable static func addresses(_ host: String) -> Result<[String], LabResolveFailure> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else {
            return .failure(LabResolveFailure(message: "the host name does not resolve"))
        }
        defer { freeaddrinfo(first) }
        var found: [String] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(
                entry.pointee.ai_addr, entry.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0,
                NI_NUMERICHOST) == 0
            {
                let text = String(
                    decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !found.contains(text) { found.append(text) }
            }
            cursor = entry.pointee.ai_next
        }
        return .success(found)
    }
}

/// Fetches with `curl`, connected to the checked address (`--resolve`), without following a
/// redirect, within the time and size the rules allow; the body is cut one byte past the limit,
/// so an oversize file is known without being read.
enum CurlFetcher {
    @Sendable static func fetch(_ url: URL, address: String, rules: LabFetchRules) -> FetchOutcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "workbook-lab-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            return .failed("cannot fetch: no temporary folder")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let headers = folder.appendingPathComponent("headers").path
        let body = folder.appendingPathComponent("body").path
        let host = url.host ?? ""
        let port = url.port ?? (url.scheme == "http" ? 80 : 443)
        let pinned = address.contains(":") ? "[\(address)]" : address
        let seconds = String(format: "%.1f", rules.timeout)
        let arguments = [
            "-sS", "--max-time", seconds, "--connect-timeout", seconds, "--max-redirs", "0", "--noproxy", "*",
            "--proto", "=https,http", "--resolve", "\(host):\(port):\(pinned)", "-D", headers,
            "-H", "Accept: application/json", "-A", "workbook-lab-doctor", "--", url.absoluteString,
        ]
        // curl writes the body into head, which stops one byte past the limit (curl then stops too).
        let script = "set -o pipefail; curl \"$@\" | head -c \(rules.maxBytes + 1) > \"$LAB_BODY\""
        let result = Subprocess.run(
            "/bin/bash", ["-c", script, "bash"] + arguments, environment: ["LAB_BODY": body],
            timeout: rules.timeout + 5, separateErrors: true, outputLimit: 4096, stopsOnInterrupt: false)
        let data = FileManager.default.contents(atPath: body) ?? Data()
        let head =
            FileManager.default.contents(atPath: headers).map { String(decoding: $0, as: UTF8.self) } ?? ""
        guard let response = parse(head: head, url: url, body: data) else {
            if result.timedOut || result.status == 28 { return .failed("timed out after \(seconds) s") }
            let reason = result.errors.split(separator: "\n").last.map(String.init) ?? "no response"
            return .failed(reason.replacingOccurrences(of: "curl: ", with: ""))
        }
        if data.count > rules.maxBytes {
            return .failed(
                "the file is larger than \(rules.maxBytes) bytes, the most Apple reads; not read further")
        }
        return .response(response)
    }

    /// The last response head curl wrote (a 100 Continue may come first).
    static func parse(head: String, url: URL, body: Data) -> FetchedResponse? {
        let blocks = head.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n")
            .filter { $0.hasPrefix("HTTP/") }
        guard let last = blocks.last else { return nil }
        let lines = last.split(separator: "\n").map(String.init)
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        func field(_ name: String) -> String? {
            lines.dropFirst().first { $0.lowercased().hasPrefix(name.lowercased() + ":") }.map {
                String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces)
            }
        }
        return FetchedResponse(
            url: url, statusCode: status, location: field("Location"), contentType: field("Content-Type"),
            body: body)
    }
}

/// The doctor's report as the lab answers it: per platform, the response, the findings (each
/// linked to its section), and who opens the link.
struct LabDoctorAnswer: Encodable, Sendable {
    struct Platform: Encodable, Sendable {
        var platform: String
        var url: String
        var answered: Bool
        var response: String
        var passed: Bool
        var findings: [LabFinding]
        @ExplicitNull var fileNotChecked: String?
        @ExplicitNull var apps: [String]?
        var included: [Platform]

        init(_ check: PlatformCheck, hosting: String) {
            (platform, url, answered, response, passed) = (
                check.platform.rawValue, check.url.absoluteString, check.answered, check.response,
                check.passed
            )
            findings = check.findings.map { finding in
                LabFinding(
                    code: finding.code, severity: finding.severity.rawValue, message: finding.message,
                    path: finding.path, line: nil, column: nil,
                    read: finding.code.hasPrefix("hosting.") || finding.code.hasPrefix("response.")
                        ? hosting : LabSections.read(code: finding.code))
            }
            fileNotChecked = check.fileNotChecked
            // Who opens the link: null when no link was asked about or there is no readable file.
            if case .apps(let list)? = check.openers { apps = list } else { apps = nil }
            included = check.included.map { Platform($0, hosting: hosting) }
        }
    }

    var origin: String
    @ExplicitNull var link: String?
    var passed: Bool
    var ios: Platform
    var android: Platform
    var lines: [String]

    init(_ report: DoctorReport) {
        (origin, link, passed, lines) = (
            report.target.origin.absoluteString, report.target.link?.absoluteString, report.passed,
            report.lines
        )
        ios = Platform(report.ios, hosting: LabSections.aasaHosting)
        android = Platform(report.android, hosting: LabSections.assetLinksHosting)
    }
}
