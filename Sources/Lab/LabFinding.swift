import DeepLinkCore
import Foundation
import StrictJSON

/// One finding as the lab answers it: a linter's ``LintFinding`` with the place an editor jumps
/// to in the text the reader pasted, and the section of the book that explains its rule.
///
/// ```json
/// {"code": "aasa.appid-format", "severity": "error", "path": "applinks.details[0].appIDs[0]",
///  "message": "…", "line": 4, "column": 20, "read": "chapters/03-universal-links.html#linting-the-file"}
/// ```
package struct LabFinding: Encodable, Equatable, Sendable {
    package var code: String
    package var severity: String
    package var message: String
    /// Where, as the CLI prints it: a JSON path (`applinks.details[0]`), a plist key path, or the
    /// manifest element.
    package var path: String
    /// 1-based; null when the place has no line of its own in the text.
    @ExplicitNull package var line: Int?
    @ExplicitNull package var column: Int?
    /// The site path of the section that explains the rule.
    @ExplicitNull package var read: String?

    package init(
        code: String, severity: String, message: String, path: String, line: Int?, column: Int?, read: String?
    ) {
        (self.code, self.severity, self.message, self.path) = (code, severity, message, path)
        (self.line, self.column, self.read) = (line, column, read)
    }

    /// A linter's finding, placed by `position(path)` (which tries the path, then each shorter
    /// one, so a missing member is shown at the object that lacks it).
    package init(_ finding: LintFinding, position: (String) -> (line: Int, column: Int)?, read: String?) {
        var place: (line: Int, column: Int)?
        var path = finding.path
        while place == nil {
            place = position(path)
            guard place == nil, let shorter = Self.parent(of: path) else { break }
            path = shorter
        }
        self.init(
            code: finding.code, severity: finding.severity.rawValue, message: finding.message,
            path: finding.path,
            line: place?.line, column: place?.column, read: read)
    }

    /// `applinks.details[0]` for `applinks.details[0].appIDs`; `$` above a top-level member; nil
    /// for `$`.
    static func parent(of path: String) -> String? {
        guard path != "$" else { return nil }
        var depth = 0
        var cut: String.Index?
        var index = path.endIndex
        while index > path.startIndex {
            index = path.index(before: index)
            let character = path[index]
            if character == "]" { depth += 1 }
            if character == "[" {
                depth -= 1
                if depth == 0 {
                    cut = index
                    break
                }
            }
            if character == ".", depth == 0 {
                cut = index
                break
            }
        }
        guard let cut, cut > path.startIndex else { return "$" }
        return String(path[..<cut])
    }
}

/// Where the values of a JSON text start, by the linters' paths.
package struct JSONPositions: Sendable {
    private let positions: [String: JSONSyntax.Position]

    package init(_ data: Data) {
        positions = JSONSyntax.valuePositions(in: data) ?? [:]
    }

    /// A top-level array's elements read `[0]` in the linters' paths and `$[0]` in the scanner's.
    package func callAsFunction(_ path: String) -> (line: Int, column: Int)? {
        (positions[path] ?? (path.hasPrefix("[") ? positions["$" + path] : nil)).map { ($0.line, $0.column) }
    }
}

/// Where the `<string>` elements of a property list's array stand, for the entitlements'
/// findings (`com.apple.developer.associated-domains[2]`): Foundation's reader keeps no places,
/// and an entitlements file is a short, flat list.
package struct PlistPositions: Sendable {
    private var keyLine: Int?
    private var strings: [(line: Int, column: Int)] = []

    package init(_ text: String, arrayKey: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var inside = false
        for (index, line) in lines.enumerated() {
            if !inside, line.contains("<key>\(arrayKey)</key>") {
                keyLine = index + 1
                inside = true
                continue
            }
            guard inside else { continue }
            if line.contains("</array>") || line.contains("<key>") { break }
            var rest = line[...]
            while let range = rest.range(of: "<string>") {
                strings.append((index + 1, line.distance(from: line.startIndex, to: range.lowerBound) + 1))
                rest = rest[range.upperBound...]
            }
        }
        self.arrayPath = JSONSyntax.path("$", member: arrayKey)
    }

    /// The array's path as the findings write it: `$["com.apple.developer.associated-domains"]`.
    private let arrayPath: String

    package func callAsFunction(_ path: String) -> (line: Int, column: Int)? {
        if path == arrayPath { return keyLine.map { ($0, 1) } }
        guard path.hasPrefix(arrayPath + "["), path.hasSuffix("]"),
            let index = Int(path.dropFirst(arrayPath.count + 1).dropLast()), strings.indices.contains(index)
        else { return nil }
        return strings[index]
    }
}
