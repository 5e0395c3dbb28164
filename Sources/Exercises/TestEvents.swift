import Foundation

/// One test, or one case of a parameterized test, and how it went.
package struct TestResult: Codable, Equatable, Sendable {
    /// The test module, `ParseASchemeLinkTests`: which exercise the test belongs to.
    var module: String
    /// The test's display name or function name, without the argument list.
    var name: String
    /// For a parameterized test, the case (its `CustomTestStringConvertible` description).
    var testCase: String?
    var passed: Bool
    var issues: [TestIssue]

    /// `aLinkOpensItsScreen [host-is-first-segment: myapp://product/42]`.
    var fullName: String { testCase.map { "\(name) [\($0)]" } ?? name }
}

/// A failed expectation: where, what the expectation saw, and the test's explanation.
package struct TestIssue: Codable, Equatable, Sendable {
    /// `exercises/01-.../Tests/ShopRouteTests.swift:23`, mapped back from the generated package.
    var location: String?
    /// Swift Testing's own line: `Expectation failed: (route(forLink: ...) → nil) == ...`.
    var message: String
    /// The comments the test attached: what the learner needs to hear.
    var details: [String]
}

/// A test that did not end: still running when the run was stopped, or never started.
package struct UnfinishedTest: Codable, Equatable, Sendable {
    var module: String
    /// As ``TestResult/fullName`` reads.
    var name: String
}

/// Everything one test run said, read from Swift Testing's JSON event stream.
package struct TestRun: Sendable {
    /// The tests that ended, passed or failed; after a crash, also the tests it cut short.
    var results: [TestResult]
    /// Whether the run reached its end; `false` when the process crashed or was killed.
    var finished: Bool
    /// Tests that started but never ended: the likely culprits of a crash.
    var inFlight: [String]
    /// Set when the run was stopped for taking too long: after how many seconds.
    var stoppedAfter: Int? = nil
    /// The tests still running when the run was stopped: neither passed nor failed.
    var stillRunning: [UnfinishedTest] = []
    /// The tests (and cases) that never started, because the run ended first.
    var notRun: [UnfinishedTest] = []

    var passed: [TestResult] { results.filter(\.passed) }
    var failed: [TestResult] { results.filter { !$0.passed } }

    /// Only the results of one test module.
    func only(module: String) -> TestRun {
        TestRun(
            results: results.filter { $0.module == module }, finished: finished,
            inFlight: inFlight.filter { $0.hasPrefix(module + ".") }, stoppedAfter: stoppedAfter,
            stillRunning: stillRunning.filter { $0.module == module },
            notRun: notRun.filter { $0.module == module })
    }
}

/// Reads the JSON lines `swift test --event-stream-output-path FILE --event-stream-version 0`
/// writes. Fields are read leniently: the stream is versioned, and a field that moved should
/// cost a detail in the report, never the whole report.
package enum TestEventStream {
    /// Reads a run. When the run did not reach its end, the tests that never started are listed
    /// as not run. The tests that were running are failed with `interruption` and `details`
    /// (what the crash printed), unless the run was stopped for its time (`stoppedAfter`, in
    /// seconds): then they are listed as still running, neither passed nor failed.
    static func parse(
        _ data: Data, mapping: PathMapping,
        interruption: String = "the test process stopped during this test",
        details interruptionDetails: [String] = [], stoppedAfter: Int? = nil
    ) -> TestRun {
        var names: [String: (name: String, parameterized: Bool, isSuite: Bool)] = [:]
        // Declaration order: tests by source line, cases by their place in the argument list. Tests
        // run in parallel, so the order they start in says nothing.
        var lines: [String: Int] = [:]
        var caseOrder: [String: [String]] = [:]
        var order: [String] = []
        var issues: [String: [TestIssue]] = [:]
        var ended: Set<String> = []
        var started: Set<String> = []
        var finished = false

        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                let payload = object["payload"] as? [String: Any]
            else { continue }
            if object["kind"] as? String == "test" {
                guard let id = payload["id"] as? String else { continue }
                let name = (payload["displayName"] as? String) ?? plainName(payload["name"] as? String ?? id)
                names[id] = (
                    name, payload["isParameterized"] as? Bool ?? false, payload["kind"] as? String == "suite"
                )
                lines[id] = (payload["sourceLocation"] as? [String: Any])?["line"] as? Int
                caseOrder[id] = (payload["_testCases"] as? [[String: Any]])?.compactMap {
                    $0["displayName"] as? String
                }
                continue
            }
            let testID = payload["testID"] as? String ?? ""
            let testCase = (payload["_testCase"] as? [String: Any])?["displayName"] as? String
            let key = testCase.map { testID + "\u{0}" + $0 } ?? testID
            switch payload["kind"] as? String {
            case "testStarted", "testCaseStarted":
                if !order.contains(key) { order.append(key) }
                started.insert(key)
            case "testEnded", "testCaseEnded":
                ended.insert(key)
            case "issueRecorded":
                let issue = payload["issue"] as? [String: Any]
                if issue?["isKnown"] as? Bool == true { continue }
                let messages = payload["messages"] as? [[String: Any]] ?? []
                if messages.contains(where: { $0["symbol"] as? String == "warning" }) { continue }
                let texts = messages.compactMap { $0["text"] as? String }
                let fail = messages.first { $0["symbol"] as? String == "fail" }?["text"] as? String
                let details = messages.filter { $0["symbol"] as? String == "details" }.compactMap {
                    $0["text"] as? String
                }
                issues[key, default: []].append(
                    TestIssue(
                        location: location(payload, mapping: mapping),
                        message: fail ?? texts.first ?? "an issue",
                        details: details))
                if !order.contains(key) { order.append(key) }
            case "runEnded":
                finished = true
            default:
                break
            }
        }

        var results: [(result: TestResult, rank: [Int])] = []
        var inFlight: [String] = []
        var stillRunning: [(test: UnfinishedTest, rank: [Int])] = []
        var notRun: [(test: UnfinishedTest, rank: [Int])] = []
        for key in order {
            let parts = key.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
            let testID = String(parts[0])
            let testCase = parts.count > 1 ? String(parts[1]) : nil
            let info = names[testID]
            let module = String(testID.prefix { $0 != "." })
            let name = info?.name ?? plainName(testID)
            let caseIndex = testCase.flatMap { caseOrder[testID]?.firstIndex(of: $0) } ?? -1
            let rank = [lines[testID] ?? Int.max, caseIndex]
            if started.contains(key), !ended.contains(key), !finished {
                // Only the innermost thing that was running counts: a case, not its test or suite.
                if info?.isSuite == true || (testCase == nil && info?.parameterized == true) { continue }
                inFlight.append(testID)
                if stoppedAfter != nil {
                    let fullName = testCase.map { "\(name) [\($0)]" } ?? name
                    stillRunning.append((UnfinishedTest(module: module, name: fullName), rank))
                    continue
                }
                let stopped = TestIssue(location: nil, message: interruption, details: interruptionDetails)
                results.append(
                    (
                        TestResult(
                            module: module, name: name, testCase: testCase, passed: false,
                            issues: (issues[key] ?? []) + [stopped]), rank
                    ))
                continue
            }
            // A parameterized test is reported by its cases; a suite only when something failed in it.
            if testCase == nil, info?.parameterized == true || info?.isSuite == true, issues[key] == nil {
                continue
            }
            results.append(
                (
                    TestResult(
                        module: module, name: name, testCase: testCase, passed: issues[key] == nil,
                        issues: issues[key] ?? []), rank
                ))
        }
        if !finished {
            // Every test the run knew of and never started, and every case of a parameterized
            // test that never started.
            let seen = Set(order.map { String($0.prefix { $0 != "\u{0}" }) })
            for (id, info) in names where !info.isSuite {
                let module = String(id.prefix { $0 != "." })
                let cases = caseOrder[id] ?? []
                if info.parameterized, !cases.isEmpty {
                    for (index, testCase) in cases.enumerated()
                    where !started.contains(id + "\u{0}" + testCase) {
                        notRun.append(
                            (
                                UnfinishedTest(module: module, name: "\(info.name) [\(testCase)]"),
                                [lines[id] ?? Int.max, index]
                            ))
                    }
                } else if !seen.contains(id) {
                    notRun.append(
                        (UnfinishedTest(module: module, name: info.name), [lines[id] ?? Int.max, -1]))
                }
            }
        }
        // By module, then declaration order.
        func inOrder<Item>(_ items: [(Item, [Int])], module: (Item) -> String) -> [Item] {
            items.sorted { left, right in
                (module(left.0), left.1[0], left.1[1]) < (module(right.0), right.1[0], right.1[1])
            }.map(\.0)
        }
        return TestRun(
            results: inOrder(results.map { ($0.result, $0.rank) }, module: \.module), finished: finished,
            inFlight: inFlight, stoppedAfter: finished ? nil : stoppedAfter,
            stillRunning: inOrder(stillRunning.map { ($0.test, $0.rank) }, module: \.module),
            notRun: inOrder(notRun.map { ($0.test, $0.rank) }, module: \.module))
    }

    /// `aLinkOpensItsScreen(_:)` gives `aLinkOpensItsScreen`; a test id keeps its last name.
    static func plainName(_ name: String) -> String {
        let lastPart = name.split(separator: "/").first { $0.contains("(") } ?? Substring(name)
        let function = lastPart.split(separator: ".").last ?? lastPart
        return String(function.prefix { $0 != "(" })
    }

    private static func location(_ payload: [String: Any], mapping: PathMapping) -> String? {
        let source =
            payload["_sourceLocation"] as? [String: Any]
            ?? (payload["issue"] as? [String: Any])?["sourceLocation"] as? [String: Any]
        guard let source, let fileID = source["fileID"] as? String else { return nil }
        let line = (source["line"] as? Int).map { ":\($0)" } ?? ""
        return mapping.display(fileID: fileID) + line
    }
}

/// One compiler diagnostic: `path:line:col: error: message`, with the source excerpt that newer
/// compilers print below it.
package struct CompilerDiagnostic: Codable, Equatable, Sendable {
    var path: String
    var line: Int
    var column: Int
    var severity: String
    var message: String
    var excerpt: [String]

    var headline: String { "\(path):\(line):\(column): \(severity): \(message)" }
}

/// Reads diagnostics out of `swift build` output.
package enum CompilerOutput {
    /// Every distinct diagnostic, in order; the compiler repeats some for each file it compiles.
    static func diagnostics(in output: String) -> [CompilerDiagnostic] {
        var result: [CompilerDiagnostic] = []
        var seen: Set<String> = []
        var current: CompilerDiagnostic?
        func flush() {
            if let diagnostic = current, seen.insert(diagnostic.headline).inserted {
                result.append(diagnostic)
            }
            current = nil
        }
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let diagnostic = parse(line) {
                flush()
                current = diagnostic
            } else if current != nil, isExcerpt(line) {
                current?.excerpt.append(line)
            } else {
                flush()
            }
        }
        flush()
        return result
    }

    /// `path:line:col: severity: message`, for an absolute path.
    static func parse(_ line: String) -> CompilerDiagnostic? {
        guard line.hasPrefix("/") else { return nil }
        for severity in ["error", "warning", "note"] {
            guard let range = line.range(of: ": \(severity): ") else { continue }
            let place = line[..<range.lowerBound].split(separator: ":")
            guard place.count >= 3, let lineNumber = Int(place[place.count - 2]),
                let column = Int(place[place.count - 1])
            else { continue }
            return CompilerDiagnostic(
                path: place.dropLast(2).joined(separator: ":"), line: lineNumber, column: column,
                severity: severity,
                message: String(line[range.upperBound...]), excerpt: [])
        }
        return nil
    }

    /// The source excerpt lines: `12 |   code`, `   |   `- error: ...`.
    static func isExcerpt(_ line: String) -> Bool {
        let trimmed = line.drop { $0 == " " }
        let rest = trimmed.drop { $0.isNumber }
        return rest.drop { $0 == " " }.hasPrefix("|") && !line.isEmpty
    }
}
