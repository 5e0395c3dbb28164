import AttributionService
import Foundation
import HTTPCore
import MicroHTTPDServer
import MockServerTesting
import Simulator
import StrictJSON
import Testing

@testable import MockServer

/// The values the OpenAPI document, chapter 8 and the glossary write out by hand (bounds, error
/// codes and their statuses, the values of the protocol's enums), each compared with the Swift
/// declaration it copies: a change on one side alone fails here. The enums of the document's
/// schemas are compared in `OpenAPITests.theEnumsAreTheServicesOwn`.
enum DocumentedValues {
    /// A value the tests expected to find and did not.
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    static let document = (try? JSONValue(data: ServerResources.openAPIDocument)) ?? .null

    /// The text of `chapters/08-the-track-open-protocol.md`.
    static func chapter8() throws -> String {
        try String(
            contentsOf: repositoryRoot.appendingPathComponent("chapters/08-the-track-open-protocol.md"),
            encoding: .utf8)
    }

    /// The numbers the capture groups of `pattern` find in `text`, at its first match; nil when
    /// it does not match.
    static func numbers(_ pattern: String, in text: String) -> [Double]? {
        let expression = try? NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        guard let match = expression?.firstMatch(in: text, range: range) else { return nil }
        return (1..<match.numberOfRanges).map { group in
            Range(match.range(at: group), in: text).flatMap { Double(text[$0]) } ?? .nan
        }
    }

    /// The number the one capture group of `pattern` finds in `text`.
    static func number(_ pattern: String, in text: String) -> Double? {
        numbers(pattern, in: text)?.first
    }

    /// The contents of the code spans of `text`, in order.
    static func codeSpans(_ text: some StringProtocol) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { !$0.offset.isMultiple(of: 2) }.map { String($0.element) }
    }

    /// The code spans of `text` that hold a lower-case identifier (`no_candidate`, `read`), in
    /// order: the values of a wire enum, leaving out paths (`track/open`) and field names
    /// (`matchMethod`).
    static func identifiers(_ text: some StringProtocol) -> [String] {
        codeSpans(text).filter { span in
            span.first?.isLowercase == true
                && span.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        }
    }

    /// The body rows of the first Markdown table in `text` whose header row starts with the cells
    /// `header`, each as its cells.
    static func table(_ header: String, in text: String) -> [[String]] {
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("| \(header) |") }) else { return [] }
        return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
        }
    }

    /// Every refusal the service declares.
    static let serviceErrors: [ServiceError] = [
        .missingField("deepLink"), .invalidField("deepLink", "must be a URL"), .nothingToResolve, .missingKey,
        .malformedAuthorization, .unknownKey, .secretKeyRequired, .publishableKeyRequired,
        .unknownShortLink(domain: "go.example", key: "spring"), .conversionTrackingOffForWorkspace,
        .customerNotFound(externalId: "user_1"), .keyTaken(domain: "go.example", key: "summer"),
    ]

    /// The errors of the HTTP core that reach the API's clients.
    static let coreErrors: [HTTPError] = [
        .notFound(path: "/x"), .methodNotAllowed(.put, allowed: [.get]), .payloadTooLarge(limit: 1),
        .uriTooLong(limit: 1), .headerFieldsTooLarge(limit: 1), .requestTimeout(seconds: 1), .unexpected,
        .shuttingDown, .invalidPath("/%"), .corsOriginNotAllowed("https://evil.example"), .emptyBody,
        .invalidUTF8, .malformedJSON, .missingField("x"), .wrongType("x", expected: "a string"),
        .nullField("x"), .invalidField("x", reason: "is wrong"),
    ]

    /// The server's answer to a refusal of the service: its status and code.
    static func answer(_ error: ServiceError) -> HTTPError { Handlers.httpError(error) }

    /// What a `limit` of the events listing gets: the status and the error code, if any.
    static func events(limit: String) async throws -> (status: Int, code: String?) {
        let app = try TestServer.makeApp()
        let response = await app.respond(
            to: get(
                "/api/v1/events?limit=\(limit)", headers: ["Authorization": "Bearer \(TestServer.secretKey)"])
        )
        let body = try? JSONValue(data: response.body)
        return (response.status.code, body?["error"]?["code"]?.string)
    }

    /// Every error code the server answers with, and its statuses (one each).
    static func statusesByCode() async throws -> [String: Set<Int>] {
        var statuses: [String: Set<Int>] = [:]
        for error in serviceErrors.map(answer) + coreErrors {
            statuses[error.code, default: []].insert(error.status.code)
        }
        let parameter = try await events(limit: "0")
        guard let code = parameter.code else { throw Missing(description: "no error code for limit=0") }
        statuses[code, default: []].insert(parameter.status)
        return statuses
    }
}

struct OpenAPIBoundsTests {
    typealias Values = DocumentedValues

    @Test func theEventsLimitIsTheOneTheServerEnforces() async throws {
        let limit = try #require(
            Values.document["paths"]?["/api/v1/events"]?["get"]?["parameters"]?.items
                .first { $0["name"]?.string == "limit" }?["schema"])
        #expect(limit["minimum"]?.number == 1)
        #expect(limit["maximum"]?.number == Double(Handlers.maximumEventLimit))
        #expect(limit["default"]?.number == Double(Handlers.defaultEventLimit))
        // And the server answers by the document's bounds.
        let minimum = Int(try #require(limit["minimum"]?.number))
        let maximum = Int(try #require(limit["maximum"]?.number))
        let answers = [
            try await Values.events(limit: String(minimum - 1)).status,
            try await Values.events(limit: String(minimum)).status,
            try await Values.events(limit: String(maximum)).status,
            try await Values.events(limit: String(maximum + 1)).status,
        ]
        #expect(answers == [400, 200, 200, 400])
    }

    /// The limits the API description states in words: bodies, request heads, slow bodies, and
    /// the memory each connection is given.
    @Test func theSizeAndTimeLimitsInTheDescriptionAreTheServers() throws {
        let text = try #require(Values.document["info"]?["description"]?.string)
        let server = HTTPServer.Configuration()
        let kibibytes = { (bytes: Int) in Double(bytes) / 1_024 }
        #expect(Values.number(#"Bodies over (\d+) KiB: 413"#, in: text) == kibibytes(BodyLimit().maxBytes))
        #expect(
            Values.number(#"request target \(path and query\) over (\d+) KiB"#, in: text)
                == kibibytes(server.headLimits.targetBytes))
        #expect(
            Values.number(#"header fields over (\d+) KiB"#, in: text)
                == kibibytes(server.headLimits.headerBytes))
        #expect(
            Values.number(#"a body slower than (\d+) s plus"#, in: text) == server.requestBodyTimeoutSeconds)
        #expect(
            Values.number(#"plus 1 s per (\d+) KiB it announces"#, in: text)
                == kibibytes(server.requestBodyBytesPerSecond))
        #expect(
            Values.number(#"the (\d+) MiB it is given per connection"#, in: text)
                == Double(server.connectionMemoryLimit) / 1_048_576)
        // The runtime's server and the app take the default body limit.
        #expect(server.bodyLimit.maxBytes == BodyLimit().maxBytes)
        #expect(try TestServer.makeApp().bodyLimit.maxBytes == BodyLimit().maxBytes)
        let tooLarge = try #require(
            Values.document["components"]?["responses"]?["PayloadTooLarge"]?["description"]?.string)
        #expect(Values.number(#"larger than (\d+) KiB"#, in: tooLarge) == kibibytes(BodyLimit().maxBytes))
    }

    @Test func aBodyOneByteOverTheDocumentedLimitIsRefused() async throws {
        let text = try #require(Values.document["info"]?["description"]?.string)
        let limit = Int(try #require(Values.number(#"Bodies over (\d+) KiB: 413"#, in: text))) * 1_024
        let app = try TestServer.makeApp()
        func status(_ size: Int) async -> Int {
            let body = String(repeating: " ", count: size - 2)
            return await app.respond(
                to: post("/api/v1/track/open", "{\(body)}", headers: ["X-Li2-Key": TestServer.publishableKey])
            ).status.code
        }
        #expect([await status(limit), await status(limit + 1)] == [400, 413])
    }

    @Test func theTestClocksStepIsTheServers() throws {
        let schema = try #require(
            Values.document["components"]?["schemas"]?["ClockAdvance"]?["properties"]?["advanceSeconds"])
        #expect(schema["minimum"]?.number == 0)
        #expect(schema["maximum"]?.number == Handlers.maximumClockAdvance)
    }

    @Test func theSimulatorsLimitsAreItsOwn() throws {
        let limits = SimulatorLimits()
        let sessions = try #require(
            Values.document["paths"]?["/api/v1/sim/sessions"]?["post"]?["description"]?.string)
        #expect(
            Values.number(#"Sessions end (\d+) minutes after their last event"#, in: sessions)
                == limits.idleTimeout / 60)
        #expect(Values.number(#"at most (\d+) live at once"#, in: sessions) == Double(limits.maxSessions))
        #expect(
            Values.number(#"at most (\d+) from one client address"#, in: sessions)
                == Double(limits.maxSessionsPerAddress))
        let schemas = try #require(Values.document["components"]?["schemas"])
        let seconds = try #require(schemas["SimEventRequest"]?["properties"]?["seconds"])
        #expect(seconds["exclusiveMinimum"]?.number == 0)
        #expect(seconds["maximum"]?.number == limits.maxAdvanceSeconds)
        let perEvent = try #require(seconds["description"]?.string)
        #expect(
            Values.number(#"at most (\d+) days per event"#, in: perEvent) == limits.maxAdvanceSeconds / 86_400
        )
        #expect(
            Values.numbers(#"(\d+) × (\d+) days per session"#, in: perEvent).map { $0.reduce(1, *) }
                == limits.maxSimulatedSeconds / 86_400)
        let log = try #require(schemas["SimSession"]?["properties"]?["log"]?["description"]?.string)
        #expect(Values.number(#"at most (\d+);"#, in: log) == Double(limits.maxLogEntries))
        let body = try #require(schemas["SimLogEntry"]?["properties"]?["body"]?["description"]?.string)
        #expect(
            Values.number(#"cut after (\d+) characters"#, in: body)
                == Double(JSONValue.maximumLoggedTextLength))
    }

    @Test func clipboardStatusTakesTheServicesValuesOrNull() throws {
        let values = try #require(
            Values.document["components"]?["schemas"]?["TrackOpenRequest"]?["properties"]?[
                "clipboardStatus"]?[
                    "enum"]?.items)
        #expect(values == ClipboardStatus.allCases.map { .string($0.rawValue) } + [.null])
    }
}

struct ErrorCodeTests {
    typealias Values = DocumentedValues

    @Test func everyCodeNamesOneStatus() async throws {
        let statuses = try await Values.statusesByCode()
        #expect(statuses.filter { $0.value.count != 1 } == [:])
    }

    /// Each error response of the document names, in code spans, the codes it carries; the
    /// service's own are all named, but for the two that only the conversion envelope carries.
    @Test func everyErrorResponseNamesTheCodesItCarries() async throws {
        let responses = try #require(Values.document["components"]?["responses"])
        func named(_ name: String) -> [String] {
            Values.codeSpans(responses[name]?["description"]?.string ?? "")
        }
        let parameter = try #require(try await Values.events(limit: "0").code)
        let expected: [String: [String]] = [
            "BadRequest": [
                HTTPError.malformedJSON.code, HTTPError.invalidUTF8.code, ServiceError.missingField("x").code,
                ServiceError.invalidField("x", "y").code, parameter,
            ],
            "Unauthorized": [ServiceError.missingKey, .unknownKey, .publishableKeyRequired].map(\.code),
            "Forbidden": [ServiceError.secretKeyRequired.code],
            "NotFound": [
                HTTPError.notFound(path: "/x").code,
                ServiceError.unknownShortLink(domain: "d", key: "k").code,
            ],
            "PayloadTooLarge": [HTTPError.payloadTooLarge(limit: 1).code],
        ]
        var found: [String: [String]] = [:]
        for name in expected.keys { found[name] = named(name) }
        #expect(found == expected)
        let taken = try #require(
            Values.document["paths"]?["/api/v1/links"]?["post"]?["responses"]?["409"]?["description"]?.string)
        #expect(Values.codeSpans(taken) == [ServiceError.keyTaken(domain: "d", key: "k").code])

        // Each response sits under the status its codes have, wherever a path refers to it.
        let statuses = try await Values.statusesByCode()
        var misplaced: [String] = []
        for (path, item) in Values.document["paths"]?.sortedMembers ?? [] {
            for (method, operation) in item.sortedMembers {
                for (status, response) in operation["responses"]?.sortedMembers ?? [] {
                    let codes =
                        response["$ref"]?.string.map {
                            found[String($0.split(separator: "/").last ?? "")] ?? []
                        }
                        ?? (status == "409" && path == "/api/v1/links" ? Values.codeSpans(taken) : [])
                    let expected = Int(status).map { Set([$0]) }
                    for code in codes where statuses[code] != expected {
                        misplaced.append("\(method.uppercased()) \(path) \(status): \(code)")
                    }
                }
            }
        }
        #expect(misplaced == [])

        let documented = Set(found.values.joined()).union(Values.codeSpans(taken))
        let service = Set(Values.serviceErrors.map(\.code))
        #expect(service.subtracting(documented) == ["conversion_tracking_disabled", "customer_not_found"])
    }

    /// The conversion endpoints answer every refusal in their envelope: `code` the status,
    /// `error_code` the kind.
    @Test func theConversionEnvelopesCodesAreTheServers() throws {
        let properties = try #require(
            Values.document["components"]?["schemas"]?["ConversionError"]?["properties"])
        let refusals: [ServiceError] = [
            .customerNotFound(externalId: "user_1"), .missingKey, .conversionTrackingOffForWorkspace,
        ]
        let envelopes = refusals.map {
            ConversionEnvelope<String>.failure($0, status: Values.answer($0).status.code)
        }
        #expect(properties["code"]?["enum"]?.items == envelopes.map { .number(Double($0.code)) })
        #expect(properties["error_code"]?["enum"]?.items == envelopes.map { .string($0.errorCode ?? "") })
    }

    /// Wherever the API description or chapter 8 writes a status before an error code
    /// (`401 \`missing_key\``, `**403** \`secret_key_required\``), it is that code's status.
    @Test func aStatusWrittenBeforeACodeIsThatCodesStatus() async throws {
        let statuses = try await Values.statusesByCode()
        let texts = [
            ("the API description", try #require(Values.document["info"]?["description"]?.string)),
            ("chapter 8", try Values.chapter8()),
        ]
        let pair = try NSRegularExpression(pattern: #"(?<![0-9])\**([1-5][0-9]{2})\**:? `([a-z_]+)`"#)
        var stated = 0
        var wrong: [String] = []
        for (place, text) in texts {
            for match in pair.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let status = Int(text[Range(match.range(at: 1), in: text)!])
                let code = String(text[Range(match.range(at: 2), in: text)!])
                guard let known = statuses[code] else { continue }
                stated += 1
                if known != [status] {
                    wrong.append("\(place): \(status ?? 0) `\(code)`, not \(known.sorted())")
                }
            }
        }
        #expect(wrong == [])
        #expect(stated >= 8)
    }

    /// Chapter 8's table of `track/open`'s errors: each row's statuses are its codes'.
    @Test func chapter8sErrorTableGivesEachCodeItsStatus() async throws {
        let statuses = try await Values.statusesByCode()
        let rows = Values.table("Status | `code` | The request", in: try Values.chapter8())
        #expect(rows.count >= 4)
        let written = rows.map { row in
            Set(row[0].components(separatedBy: ", ").compactMap { Int($0) })
        }
        let expected = rows.map { row in
            Set(Values.codeSpans(row[1]).flatMap { statuses[$0] ?? [0] })
        }
        #expect(written == expected)
    }

    /// Chapter 8's table of the key checks: each answer is the one the server gives.
    @Test func chapter8sKeyTableIsTheServers() throws {
        let rows = Values.table("The request | Answer", in: try Values.chapter8())
        let written = rows.map { row in
            "\(Values.number(#"\*\*(\d+)\*\*"#, in: row[1]).map { Int($0) } ?? 0) \(Values.codeSpans(row[1]))"
        }
        let expected = [ServiceError.missingKey, .unknownKey, .publishableKeyRequired, .secretKeyRequired].map
        {
            "\(Values.answer($0).status.code) \([$0.code])"
        }
        #expect(written == expected)
    }
}

/// The tables of the protocol's values in chapter 8, and the glossary's definitions that list
/// them, against the service's enums.
struct ValueTableTests {
    typealias Values = DocumentedValues

    @Test func chapter8sTablesListTheEnumsValuesInOrder() throws {
        let chapter = try Values.chapter8()
        let first = { (header: String) in
            Values.table(header, in: chapter).map { Values.codeSpans($0[0]).first ?? "" }
        }
        #expect(first("`matchMethod` | The situation behind it") == MatchMethod.allCases.map(\.rawValue))
        #expect(first("`missReason` | The situation behind it") == MissReason.allCases.map(\.rawValue))
        let attributions = Values.table("`click_id` | `external_id` | Attribution", in: chapter).map { row in
            row[2].components(separatedBy: "**").dropFirst().first ?? ""
        }
        #expect(attributions == Attribution.allCases.map(\.rawValue))
        let sent = Values.table("The app saw | It sends", in: chapter).map(\.[1])
            .filter { $0.hasPrefix("`{li2Domains, clipboardStatus}`") }
        #expect(
            sent.map { Array(Values.codeSpans($0).dropFirst()) } == [ClipboardStatus.allCases.map(\.rawValue)]
        )
    }

    @Test func theGlossaryListsTheEnumsValuesInOrder() throws {
        let glossary = try JSONValue(
            data: Data(contentsOf: repositoryRoot.appendingPathComponent("site/glossary.json")))
        func definition(_ term: String) -> String {
            glossary["terms"]?.items.first { $0["term"]?.string == term }?["definition"]?.string ?? ""
        }
        #expect(Values.identifiers(definition("matchMethod")) == MatchMethod.allCases.map(\.rawValue))
        #expect(Values.identifiers(definition("missReason")) == MissReason.allCases.map(\.rawValue))
        #expect(Values.identifiers(definition("paste control")) == ClipboardStatus.allCases.map(\.rawValue))
    }
}
