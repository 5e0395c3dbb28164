import AttributionService
import HTTPCore

/// Routes that a module above the mock server adds to it.
///
/// The deferred-flow simulator runs the client SDK inside the server, and the server never
/// links the SDK: the simulator is a target of its own, above this one, and hands its routes in
/// through a provider. The app asks each provider once, when it is built, so the routes share
/// the app's configuration and its service (its clock, its token generator), and its router then
/// holds them like its own: they answer, they are listed in ``MockServerApp/router``, and the
/// OpenAPI document must describe them.
///
/// ```swift
/// struct Hello: RouteProvider {
///     func routes(configuration: ServerConfiguration, service: AttributionService) -> [HTTPRoute] {
///         [HTTPRoute(.get, "/api/v1/hello") { _, _ in .text("hello") }]
///     }
/// }
/// let app = try MockServerApp(configuration: configuration, eventStore: InMemoryEventStore(),
///                             routeProviders: [Hello()])
/// ```
public protocol RouteProvider: Sendable {
    /// The routes to add to an app built from `configuration` around `service`.
    func routes(configuration: ServerConfiguration, service: AttributionService) -> [HTTPRoute]

    /// Body limits of the provider's own paths, where the server's 64 KiB does not fit (the
    /// lab's routes take whole files). The app and the HTTP engine apply them.
    var bodyLimits: [BodyLimit.Override] { get }
}

extension RouteProvider {
    /// None: the provider's routes take what every route takes.
    public var bodyLimits: [BodyLimit.Override] { [] }
}
