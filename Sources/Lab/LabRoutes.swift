import AttributionService
import Doctor
import Foundation
import HTTPCore
import MockServer
import StrictJSON

/// The Link Lab's routes on the mock server: `POST /api/v1/lab/aasa`, `…/applinks`,
/// `…/assetlinks` and `…/entitlements` answer the ``Lab`` questions about files a reader
/// pastes. They need no key, write no event and touch no store; they take bodies up to
/// ``bodyLimit`` (an AASA file may be 128 KB and a manifest 1 MB, escaped inside JSON), where
/// every other route keeps the server's 64 KiB.
///
/// ```swift
/// options.routeProviders = [SimulatorRoutes(), LabRoutes()]
/// ```
public struct LabRoutes: RouteProvider {
    /// The paths these routes live under.
    public static let pathPrefix = "/api/v1/lab/"
    /// The body limit of the lab's routes: 1.5 MiB.
    public static let bodyLimit = 1_572_864

    /// What the doctor route may fetch (`--lab-fetch-private` lifts the address and port rules).
    let fetchRules: LabFetchRules
    let network: LabNetwork
    private let limiter = LabRateLimiter()

    /// The lab with the doctor's default rules; `allowPrivateFetches` is `--lab-fetch-private`.
    public init(allowPrivateFetches: Bool = false) {
        self.init(fetchRules: LabFetchRules(allowPrivate: allowPrivateFetches), network: .live)
    }

    /// For tests: the doctor's rules and network as given.
    package init(fetchRules: LabFetchRules, network: LabNetwork) {
        (self.fetchRules, self.network) = (fetchRules, network)
    }

    public var bodyLimits: [BodyLimit.Override] {
        [BodyLimit.Override(pathPrefix: Self.pathPrefix, maxBytes: Self.bodyLimit)]
    }

    public func routes(configuration: ServerConfiguration, service: AttributionService) -> [HTTPRoute] {
        [
            HTTPRoute(.post, Self.pathPrefix + "aasa") { request, _ in
                let body = try request.decodeJSON(AASABody.self)
                return try Self.answer { () throws(LabRequestError) in
                    try Lab.aasa(file: body.file, url: body.url)
                }
            },
            HTTPRoute(.post, Self.pathPrefix + "applinks") { request, _ in
                let body = try request.decodeJSON(AppLinksBody.self)
                return try Self.answer { () throws(LabRequestError) in
                    try Lab.applinks(
                        manifest: body.manifest, url: body.url, apiLevel: body.apiLevel,
                        targetSDK: body.targetSdk)
                }
            },
            HTTPRoute(.post, Self.pathPrefix + "assetlinks") { request, _ in
                let body = try request.decodeJSON(AssetLinksBody.self)
                return try Self.answer { () throws(LabRequestError) in
                    try Lab.assetlinks(file: body.file, package: body.package, fingerprint: body.fingerprint)
                }
            },
            HTTPRoute(.post, Self.pathPrefix + "doctor") { [fetchRules, network, limiter] request, _ in
                let body = try request.decodeJSON(DoctorBody.self)
                let client = request.remoteAddress ?? "local"
                if let wait = limiter.admit(
                    client, now: service.clock.now(), perMinute: fetchRules.requestsPerMinute)
                {
                    throw HTTPError(
                        HTTPStatus(429), code: "too_many_requests",
                        message: "at most \(fetchRules.requestsPerMinute) doctor requests a minute from one "
                            + "address; try again in \(wait) s",
                        headers: ["Retry-After": String(wait)])
                }
                // The fetches block for seconds: on a thread of their own, not one that answers
                // the rest (`DispatchQueue.global()` shares the cooperative pool's threads).
                let result = await withCheckedContinuation { continuation in
                    Thread {
                        do throws(Lab.LabDoctorError) {
                            continuation.resume(
                                returning: Result<DoctorReport, Lab.LabDoctorError>.success(
                                    try Lab.doctor(url: body.url, rules: fetchRules, network: network)))
                        } catch {
                            continuation.resume(returning: .failure(error))
                        }
                    }.start()
                }
                switch result {
                case .success(let report):
                    return try Self.answer { () throws(LabRequestError) in LabDoctorAnswer(report) }
                case .failure(.badRequest(let error)):
                    throw HTTPError.invalidField(error.field, reason: error.message)
                case .failure(.refused(let message)):
                    throw HTTPError(.forbidden, code: "fetch_refused", message: message)
                }
            },
            HTTPRoute(.post, Self.pathPrefix + "entitlements") { request, _ in
                let body = try request.decodeJSON(EntitlementsBody.self)
                return try Self.answer { () throws(LabRequestError) in
                    try Lab.entitlements(file: body.file, url: body.url)
                }
            },
        ]
    }

    /// 200 with the answer, or 400 naming the field that made the question unanswerable.
    static func answer<Answer: Encodable>(_ ask: () throws(LabRequestError) -> Answer) throws(HTTPError)
        -> HTTPResponse
    {
        let answer: Answer
        do throws(LabRequestError) {
            answer = try ask()
        } catch {
            throw HTTPError.invalidField(error.field, reason: error.message)
        }
        do {
            return try .json(answer)
        } catch {
            throw HTTPError.unexpected
        }
    }

    struct AASABody: Decodable {
        var file: String
        /// Required, and null to lint only.
        var url: String?

        enum CodingKeys: String, CodingKey { case file, url }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            file = try container.decode(String.self, forKey: .file)
            // Present, as a string or null: leaving it out is a mistake worth a 400.
            guard container.contains(.url) else {
                throw DecodingError.keyNotFound(
                    CodingKeys.url,
                    .init(codingPath: [], debugDescription: "url is required (null to lint only)"))
            }
            url = try container.decodeNil(forKey: .url) ? nil : container.decode(String.self, forKey: .url)
        }
    }

    struct AppLinksBody: Decodable {
        var manifest: String
        var url: String
        var apiLevel: Int?
        var targetSdk: Int?
    }

    struct AssetLinksBody: Decodable {
        var file: String
        var package: String
        var fingerprint: String
    }

    struct DoctorBody: Decodable {
        var url: String
    }

    struct EntitlementsBody: Decodable {
        var file: String
        var url: String
    }
}
