/// What a module lacks of an expected API listing, and the one message that says so.
struct APIComparison: Equatable {
    /// An expected line the module does not have, with the module's lines of the same kind and
    /// path (the declarations it may have meant to be).
    struct Missing: Equatable {
        var expected: String
        var different: [String]
    }

    /// In the order of the expected listing.
    var missing: [Missing]

    /// Compares whole lines: every expected line must be among the actual ones; actual lines
    /// that are not expected are allowed.
    init(expected: [String], actual: [String]) {
        let present = Set(actual)
        var byKey: [String: [String]] = [:]
        for line in actual { byKey[Self.key(line), default: []].append(line) }
        missing = expected.filter { !present.contains($0) }.map { line in
            Missing(expected: line, different: (byKey[Self.key(line)] ?? []).sorted())
        }
    }

    /// A line's kind and path with the name but without its signature:
    /// `Func Li2.configure(publishableKey:deepLinkDomains:) : () Swift.String [Swift.String]` has
    /// the key `Func Li2.configure`, as has every other `configure` function of `Li2`.
    static func key(_ line: String) -> String {
        let declaration = line.range(of: " : ").map { String(line[..<$0.lowerBound]) } ?? line
        return declaration.firstIndex(of: "(").map { String(declaration[..<$0]) } ?? declaration
    }

    /// Nil when nothing is missing; otherwise one line per missing declaration, each followed by
    /// the module's declarations of the same kind and path.
    func report(module: String, listing: String) -> String? {
        guard !missing.isEmpty else { return nil }
        var text =
            "\(module) lacks \(missing.count) declaration\(missing.count == 1 ? "" : "s") of \(listing) "
            + "(each line must be present as it is; more declarations are allowed):"
        for item in missing {
            text += "\nmissing: \(item.expected)"
            for line in item.different { text += "\n  different: \(line)" }
        }
        return text
    }
}
