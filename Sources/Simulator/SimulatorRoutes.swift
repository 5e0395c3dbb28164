import AttributionService
import HTTPCore
import MockServer

/// Plugs the deferred-flow simulator into a mock server: a ``RouteProvider`` whose routes are
/// those of one ``Simulator`` per app, on the app's clock and token generator, with the
/// configuration's `limits.simulatorSessionsPerAddress` in force.
///
/// The simulator runs the client SDK; the server does not link it, so whatever assembles a
/// server (`workbook serve`, the console checker, a test) passes this provider in.
///
/// ```swift
/// var options = MockServerRuntime.Options(configuration: configuration, dataDirectory: folder)
/// options.routeProviders = [SimulatorRoutes()]
/// ```
public struct SimulatorRoutes: RouteProvider {
    public var limits: SimulatorLimits

    public init(limits: SimulatorLimits = SimulatorLimits()) {
        self.limits = limits
    }

    public func routes(configuration: ServerConfiguration, service: AttributionService) -> [HTTPRoute] {
        var limits = limits
        if let perAddress = configuration.limits?.simulatorSessionsPerAddress {
            limits.maxSessionsPerAddress = perAddress
        }
        return Simulator(
            configuration: configuration, clock: service.clock, tokens: service.tokens, limits: limits
        )
        .routes
    }
}
