import AttributionService
import DeepLinkCore
import Foundation

/// The mock server's configuration file (JSON): the workspace the server pretends to be.
///
/// ```json
/// {
///   "defaultCurrency": "usd",
///   "linkDomains": ["go.example"],
///   "siteOrigin": "http://localhost:8080",
///   "ios": {"teamID": "ABCDE12345", "bundleID": "com.example.shop", "appStoreID": "1234567890"},
///   "android": {"package": "com.example.shop", "sha256CertFingerprints": ["14:6D:…"]},
///   "links": [{"id": "link_summer", "domain": "go.example", "key": "summer",
///              "url": "https://shop.example/sale?campaign=summer"}],
///   "keys": {"publishable": "li2_pk_…", "secret": "li2_sk_…"},
///   "deferredRecordTTLSeconds": 86400,
///   "conversionTracking": true,
///   "limits": {"connections": 4096, "connectionsPerIP": 64, "connectionTimeoutSeconds": 30,
///              "deferredRecords": 50000, "simulatorSessionsPerAddress": 16}
/// }
/// ```
///
/// `config/demo.json` in the repository is the shipped demo; ``load(from:environment:)`` reads
/// a file, applies `WORKBOOK_PUBLISHABLE_KEY` / `WORKBOOK_SECRET_KEY`, and validates it.
public struct ServerConfiguration: Codable, Equatable, Sendable {
    public struct IOSApp: Codable, Equatable, Sendable {
        /// The 10-character Team ID (the App ID prefix).
        public var teamID: String
        public var bundleID: String
        /// The digits of the app's App Store URL (`apps.apple.com/app/id…`).
        public var appStoreID: String

        public init(teamID: String, bundleID: String, appStoreID: String) {
            (self.teamID, self.bundleID, self.appStoreID) = (teamID, bundleID, appStoreID)
        }

        /// `TEAMID.bundle.id`, as the association file names the app.
        public var appID: String { "\(teamID).\(bundleID)" }
    }

    public struct AndroidApp: Codable, Equatable, Sendable {
        public var package: String
        /// SHA-256 fingerprints of the signing certificates (debug, release, Play App Signing).
        public var sha256CertFingerprints: [String]

        public init(package: String, sha256CertFingerprints: [String]) {
            (self.package, self.sha256CertFingerprints) = (package, sha256CertFingerprints)
        }
    }

    public struct Keys: Codable, Equatable, Sendable {
        public var publishable: String
        public var secret: String

        public init(publishable: String, secret: String) {
            (self.publishable, self.secret) = (publishable, secret)
        }
    }

    /// Limits of the HTTP server and of what clients without a key can make (all optional;
    /// the defaults otherwise).
    public struct Limits: Codable, Equatable, Sendable {
        public var connections: Int?
        public var connectionsPerIP: Int?
        public var connectionTimeoutSeconds: Int?
        /// Deferred records kept at most (short-link visits need no key); the oldest go first.
        public var deferredRecords: Int?
        /// Live simulator sessions one client address may hold (the global cap still applies).
        public var simulatorSessionsPerAddress: Int?

        public init(
            connections: Int? = nil, connectionsPerIP: Int? = nil, connectionTimeoutSeconds: Int? = nil,
            deferredRecords: Int? = nil, simulatorSessionsPerAddress: Int? = nil
        ) {
            (
                self.connections, self.connectionsPerIP, self.connectionTimeoutSeconds, self.deferredRecords,
                self.simulatorSessionsPerAddress
            ) = (
                connections, connectionsPerIP, connectionTimeoutSeconds, deferredRecords,
                simulatorSessionsPerAddress
            )
        }
    }

    /// Deferred records kept when the configuration sets no `limits.deferredRecords`: about
    /// 14 MB at the 275 bytes a record takes (measured: 20,000 iPhone visits to a release build
    /// grew its RSS by 5.4 MB).
    public static let defaultDeferredRecordLimit = 50_000

    /// The currency of a sale that names none (three letters of ISO 4217): Li2 uses the
    /// organisation's default (Li2SDK 0.2.0's README); the mock has no organisation, so this
    /// stands in for it. Absent means `usd`.
    public var defaultCurrency: String?
    public var linkDomains: [String]
    /// The origin of the web site allowed to call the API from a browser (CORS).
    public var siteOrigin: String?
    public var ios: IOSApp?
    public var android: AndroidApp?
    public var links: [ConfiguredLink]
    public var keys: Keys
    public var deferredRecordTTLSeconds: Int?
    /// False: the workspace's plan lacks conversion tracking, and every lead and sale is a 403.
    /// Absent means true.
    public var conversionTracking: Bool?
    public var limits: Limits?

    /// A link of the configuration: the link itself, and whether its conversions are tracked.
    public struct ConfiguredLink: Codable, Equatable, Sendable {
        public var id: String
        public var domain: String
        public var key: String
        public var url: String
        /// False: leads and sales attributed to a click on this link are a 403. Absent means true.
        public var conversionTracking: Bool?

        public init(id: String, domain: String, key: String, url: String, conversionTracking: Bool? = nil) {
            (self.id, self.domain, self.key, self.url, self.conversionTracking) = (
                id, domain, key, url, conversionTracking
            )
        }

        /// The link as the service keeps it and `track/open` answers it, its domain in lower case.
        public var link: Link {
            Link(id: id, domain: domain.lowercased(), key: key, url: url)
        }
    }

    public init(
        defaultCurrency: String? = nil, linkDomains: [String], siteOrigin: String? = nil, ios: IOSApp? = nil,
        android: AndroidApp? = nil, links: [ConfiguredLink] = [], keys: Keys,
        deferredRecordTTLSeconds: Int? = nil,
        conversionTracking: Bool? = nil, limits: Limits? = nil
    ) {
        (
            self.defaultCurrency, self.linkDomains, self.siteOrigin, self.ios, self.android, self.links,
            self.keys,
            self.deferredRecordTTLSeconds, self.conversionTracking, self.limits
        ) = (
            defaultCurrency, linkDomains, siteOrigin, ios, android, links, keys, deferredRecordTTLSeconds,
            conversionTracking, limits
        )
    }

    /// The environment variables that replace the configured keys.
    public static let publishableKeyVariable = "WORKBOOK_PUBLISHABLE_KEY"
    public static let secretKeyVariable = "WORKBOOK_SECRET_KEY"

    /// Reads, overrides and validates a configuration file.
    public static func load(
        from url: URL, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) -> ServerConfiguration {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ConfigurationError(file: url.path, message: "cannot read the file")
        }
        var configuration: ServerConfiguration
        do {
            configuration = try JSONDecoder().decode(ServerConfiguration.self, from: data)
        } catch let error as DecodingError {
            throw ConfigurationError(file: url.path, message: Self.describe(error))
        } catch {
            throw ConfigurationError(file: url.path, message: "not valid JSON")
        }
        configuration.applyEnvironment(environment)
        do {
            try configuration.validate()
        } catch {
            throw ConfigurationError(file: url.path, message: error.message)
        }
        return configuration
    }

    /// Replaces the keys with `WORKBOOK_PUBLISHABLE_KEY` and `WORKBOOK_SECRET_KEY` when set.
    public mutating func applyEnvironment(_ environment: [String: String]) {
        if let key = environment[Self.publishableKeyVariable], !key.isEmpty { keys.publishable = key }
        if let key = environment[Self.secretKeyVariable], !key.isEmpty { keys.secret = key }
    }

    /// Checks what the decoder cannot: key prefixes, domains, links, apps.
    public func validate() throws(ConfigurationError) {
        func fail(_ message: String) -> ConfigurationError { ConfigurationError(file: nil, message: message) }
        if let defaultCurrency {
            guard defaultCurrency.utf8.count == 3,
                defaultCurrency.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic })
            else {
                throw fail(
                    "defaultCurrency: '\(defaultCurrency)' is not a three-letter ISO 4217 code such as usd")
            }
        }
        guard !linkDomains.isEmpty else { throw fail("linkDomains: at least one domain is required") }
        for (index, domain) in linkDomains.enumerated() {
            guard Self.isHostName(domain) else {
                throw fail("linkDomains[\(index)]: '\(domain)' is not a host name")
            }
        }
        guard keys.publishable.hasPrefix(APIKeys.publishablePrefix), keys.publishable.count > 7 else {
            throw fail("keys.publishable: a publishable key starts with \(APIKeys.publishablePrefix)")
        }
        guard keys.secret.hasPrefix(APIKeys.secretPrefix), keys.secret.count > 7 else {
            throw fail("keys.secret: a secret key starts with \(APIKeys.secretPrefix)")
        }
        if let ttl = deferredRecordTTLSeconds, ttl <= 0 {
            throw fail("deferredRecordTTLSeconds: must be positive")
        }
        let positiveLimits: [(String, Int?)] = [
            ("connections", limits?.connections), ("connectionsPerIP", limits?.connectionsPerIP),
            ("connectionTimeoutSeconds", limits?.connectionTimeoutSeconds),
            ("deferredRecords", limits?.deferredRecords),
            ("simulatorSessionsPerAddress", limits?.simulatorSessionsPerAddress),
        ]
        for case (let name, let value?) in positiveLimits where value <= 0 {
            throw fail("limits.\(name): must be positive")
        }
        if let ios {
            let team = ios.teamID.utf8
            guard team.count == 10, team.allSatisfy({ Self.isUpperAlphanumeric($0) }) else {
                throw fail("ios.teamID: a Team ID is 10 upper-case letters and digits")
            }
            guard !ios.appStoreID.isEmpty, ios.appStoreID.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw fail("ios.appStoreID: the App Store id is digits only")
            }
        }
        if let android, android.sha256CertFingerprints.isEmpty {
            throw fail("android.sha256CertFingerprints: at least one fingerprint is required")
        }
        var seen = Set<String>()
        for (index, link) in links.enumerated() {
            guard linkDomains.map({ $0.lowercased() }).contains(link.domain.lowercased()) else {
                throw fail("links[\(index)].domain: '\(link.domain)' is not one of linkDomains")
            }
            do {
                try AttributionService.validateKey(link.key)
            } catch {
                throw fail("links[\(index)].key: \(error.message)")
            }
            guard seen.insert("\(link.domain.lowercased())/\(link.key)").inserted else {
                throw fail("links[\(index)]: \(link.domain)/\(link.key) appears twice")
            }
        }
    }

    /// What the pure service needs of this configuration.
    public var serviceConfiguration: ServiceConfiguration {
        ServiceConfiguration(
            linkDomains: linkDomains, appStoreID: ios?.appStoreID, androidPackage: android?.package,
            deferredRecordTTL: TimeInterval(deferredRecordTTLSeconds ?? 24 * 3_600),
            keys: APIKeys(publishable: keys.publishable, secret: keys.secret),
            conversionTracking: conversionTracking ?? true,
            linksWithoutConversionTracking: Set(links.filter { $0.conversionTracking == false }.map(\.id)),
            defaultCurrency: defaultCurrency ?? ConversionRules.defaultCurrency)
    }

    /// The configured links with their domains in lower case, as the link store keeps them.
    public var normalizedLinks: [Link] {
        links.map(\.link)
    }

    static func isHostName(_ text: String) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && text.utf8.count <= 253
            && labels.allSatisfy { label in
                !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.utf8.allSatisfy { byte in
                        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                            || byte == UInt8(ascii: "-")
                    }
            }
    }

    static func isUpperAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
                .trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): required"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context.codingPath)): wrong type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "not valid JSON" : "\(path(context.codingPath)): invalid value"
        @unknown default:
            return "not valid JSON"
        }
    }
}

/// A configuration that cannot be used, with the file it came from.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String?
    public var message: String

    public init(file: String?, message: String) {
        (self.file, self.message) = (file, message)
    }

    public var description: String {
        file.map { "\($0): \(message)" } ?? message
    }
}
