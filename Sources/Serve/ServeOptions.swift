import BookChecks
import CommandLineKit
import Foundation
import Lab
import Literate
import LiterateCLI
import LiveSite
import MicroHTTPDServer
import MockServer
import Simulator

/// The command line turned into the runtime's options.
package enum ServeOptions {
    static let command = ["workbook", "serve"]
    static let defaultConfiguration = "config/demo.json"
    static let defaultDataDirectory = ".workbook"

    package static func parse(_ arguments: ParsedArguments) throws -> MockServerRuntime.Options {
        let port = try portNumber(arguments.value("port"))
        let certificate = arguments.value("tls-cert")
        let key = arguments.value("tls-key")
        guard (certificate == nil) == (key == nil) else {
            throw CommandError.usage("--tls-cert and --tls-key go together", command: command)
        }
        let path = arguments.value("config") ?? defaultConfiguration
        guard FileManager.default.fileExists(atPath: path) else {
            let hint =
                arguments.value("config") == nil ? " (run from the repository, or pass --config FILE)" : ""
            throw CommandError.badInput("no configuration file at \(path)\(hint)")
        }
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration.load(from: URL(fileURLWithPath: path))
        } catch {
            throw CommandError.badInput(error.description)
        }
        var options = MockServerRuntime.Options(
            configuration: configuration,
            dataDirectory: URL(fileURLWithPath: arguments.value("data-dir") ?? defaultDataDirectory))
        options.host = arguments.value("host") ?? "127.0.0.1"
        options.port = port
        options.reset = arguments.flag("reset")
        options.testClock = arguments.flag("test-clock")
        options.seed = try seed(arguments.value("seed"))
        options.requestHeadTimeoutSeconds = try timeout(
            arguments.value("request-head-timeout"), flag: "request-head-timeout")
        options.requestBodyTimeoutSeconds = try timeout(
            arguments.value("request-body-timeout"), flag: "request-body-timeout")
        options.maxConnectionsPerAddress = try perAddressLimit(arguments.value("max-connections-per-address"))
        // The deferred-flow simulator's routes (it runs the real SDK, which the server does not
        // link) and the Link Lab's (`--lab-fetch-private` lets its doctor fetch from this machine).
        options.routeProviders = [
            SimulatorRoutes(), LabRoutes(allowPrivateFetches: arguments.flag("lab-fetch-private")),
        ]
        if let certificate, let key {
            options.tls = HTTPServer.TLSFiles(certificatePath: certificate, privateKeyPath: key)
        }
        return options
    }

    /// The live site's settings, or nil with `--no-site` (or when no book is found and none was
    /// asked for: the API is still served).
    package static func site(_ arguments: ParsedArguments, console: Console) throws -> LiveSiteBuilder
        .Settings?
    {
        guard !arguments.flag("no-site") else { return nil }
        let root: URL
        do {
            root = try bookRoot(arguments)
        } catch {
            guard arguments.value("book") == nil else { throw error }
            console.error("no chapters/ folder here or above: serving the API only (pass --book DIR)")
            return nil
        }
        let theme = try SiteTheme.folder(arguments, root: root) {
            URL(fileURLWithPath: $0).standardizedFileURL
        }
        var settings = LiveSiteBuilder.Settings(
            bookRoot: root, themeFolder: theme,
            outputFolder: root.appendingPathComponent(".build/serve-site/\(getpid())"),
            checkers: { SnippetCheckers.all(book: root) })
        settings.log = { line in console.error(line) }
        settings.keepsPreviousBuild = !arguments.flag("full-rebuild")
        settings.printsTimings = arguments.flag("timings")
        // The memos of the engine and the site generator (parsed chapters, scanned citations,
        // translated files) are the process's own: one switch for all of them.
        if arguments.flag("full-rebuild") { Memos.isEnabled = false }
        return settings
    }

    static func seed(_ text: String?) throws -> UInt64? {
        guard let text else { return nil }
        guard let seed = UInt64(text) else {
            throw CommandError.usage("--seed needs a whole number from 0 to \(UInt64.max)", command: command)
        }
        return seed
    }

    /// `--request-head-timeout` and `--request-body-timeout`: seconds from 0.1 to an hour.
    static func timeout(_ text: String?, flag: String) throws -> Double? {
        guard let text else { return nil }
        guard let seconds = Double(text), seconds.isFinite, (0.1...3_600).contains(seconds) else {
            throw CommandError.usage("--\(flag) needs a number of seconds from 0.1 to 3600", command: command)
        }
        return seconds
    }

    static func perAddressLimit(_ text: String?) throws -> Int? {
        guard let text else { return nil }
        guard let limit = Int(text), (1...100_000).contains(limit) else {
            throw CommandError.usage(
                "--max-connections-per-address needs a whole number from 1 to 100000", command: command)
        }
        return limit
    }

    static func portNumber(_ text: String?) throws -> Int {
        guard let text else { return MockServerRuntime.defaultPort }
        guard let port = Int(text), (0...65_535).contains(port) else {
            throw CommandError.usage("--port needs a number from 0 to 65535", command: command)
        }
        return port
    }
}
