import CommandLineKit
import Foundation
import Testing

@testable import Serve

/// `workbook serve`'s options, read into the mock server's runtime options: the seed that makes
/// tokens predictable for tests (source: "this book: chapter 08, Trying it") and the limits on
/// slow clients (source: "this book: chapter 12, What binding beyond localhost exposes").
struct ServeOptionsTests {
    static let configuration = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config/demo.json")
        .path

    @Test func serveTakesASeed() throws {
        var arguments = ParsedArguments()
        arguments.values = [
            "seed": ["8"], "config": [Self.configuration],
        ]
        #expect(try ServeOptions.parse(arguments).seed == 8)
        arguments.values["seed"] = ["-1"]
        #expect(throws: CommandError.self) { try ServeOptions.parse(arguments) }
    }

    @Test func serveTakesTheSlowClientLimits() throws {
        var arguments = ParsedArguments()
        arguments.values = [
            "config": [Self.configuration],
            "request-head-timeout": ["2.5"], "request-body-timeout": ["45"],
            "max-connections-per-address": ["8"],
        ]
        let options = try ServeOptions.parse(arguments)
        #expect(
            (
                options.requestHeadTimeoutSeconds, options.requestBodyTimeoutSeconds,
                options.maxConnectionsPerAddress
            )
                == (2.5, 45, 8))
        for (name, value) in [
            ("request-head-timeout", "0"), ("request-head-timeout", "soon"),
            ("request-body-timeout", "0.01"), ("request-body-timeout", "7200"),
            ("max-connections-per-address", "0"), ("max-connections-per-address", "1.5"),
        ] {
            var wrong = arguments
            wrong.values[name] = [value]
            #expect(throws: CommandError.self, "--\(name) \(value)") { try ServeOptions.parse(wrong) }
        }
    }
}
