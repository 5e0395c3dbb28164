import Foundation
import HTTPCore

/// The mock server's API with the book's site beside it, as `workbook serve` runs them.
///
/// The order decides every overlap: the three live routes under `/_workbook/` first, then the
/// API (its routes keep priority, so a site file can never shadow an endpoint), and only a
/// `GET` or `HEAD` the API answers 404 (outside `/api/`) goes to the site, or under `/reference`
/// to the SDK's API reference (``LiveReference``). Until the first build is ready, site paths
/// answer 503 with a page that refreshes itself.
///
/// ```swift
/// let responder = LiveSiteResponder(api: app, site: live, configuration: config)
/// await responder.respond(to: HTTPRequest(method: .get, target: "/healthz"))          // the API
/// await responder.respond(to: HTTPRequest(method: .get, target: "/chapters/08-the-track-open-protocol.html"))
/// await responder.respond(to: HTTPRequest(method: .get, target: "/_workbook/status"))  // LiveStatus JSON
/// ```
public struct LiveSiteResponder: HTTPResponder {
    public let api: any HTTPResponder
    public let site: LiveSite
    public let configuration: LiveConfiguration
    /// The API's count of evicted deferred records, for the status.
    public let deferredRecordsEvicted: @Sendable () async -> Int

    /// The live routes, for the greeting and the docs.
    public static let eventsPath = "/_workbook/events"
    public static let statusPath = "/_workbook/status"
    public static let configPath = "/_workbook/config"

    public init(
        api: any HTTPResponder, site: LiveSite, configuration: LiveConfiguration,
        deferredRecordsEvicted: @escaping @Sendable () async -> Int = { 0 }
    ) {
        (self.api, self.site, self.configuration, self.deferredRecordsEvicted) = (
            api, site, configuration, deferredRecordsEvicted
        )
    }

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        let isRead = request.method == .get || request.method == .head
        switch request.path {
        case Self.eventsPath, Self.statusPath, Self.configPath:
            guard isRead else {
                return HTTPError.methodNotAllowed(request.method, allowed: [.get, .head]).response
            }
            return await live(request.path, method: request.method)
        default:
            break
        }
        let answer = await api.respond(to: request)
        guard answer.status == .notFound, isRead, !request.path.hasPrefix("/api/") else { return answer }
        // The SDK reference has a life of its own: it may be ready before the site, or after.
        if LiveReference.serves(request.path) {
            return site.reference.response(for: request, words: site.words)
        }
        guard let folder = site.siteFolder else { return StaticSite.building(site.words) }
        return StaticSite.response(for: request, root: folder, words: site.words)
    }

    private func live(_ path: String, method: HTTPMethod) async -> HTTPResponse {
        switch path {
        case Self.eventsPath:
            return method == .head ? site.streamHead() : site.openStream()
        case Self.statusPath:
            var status = site.status
            status.deferredRecordsEvicted = await deferredRecordsEvicted()
            return json(status)
        default:
            return json(configuration)
        }
    }

    private func json<Value: Encodable>(_ value: Value) -> HTTPResponse {
        HTTPResponse(
            status: .ok,
            headers: ["Content-Type": HTTPResponse.jsonContentType, "Cache-Control": "no-store"],
            body: Data(LiveSite.json(value).utf8))
    }
}
