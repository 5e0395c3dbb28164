/// Line-based unified diffs, for `tangle --check` and for golden tests.
public enum UnifiedDiff {
    /// A unified diff from `old` to `new` with `context` lines around each change, or "" when
    /// they are equal.
    public static func diff(
        old: String, new: String, oldName: String, newName: String, context: Int = 3
    ) -> String {
        if old == new { return "" }
        let a = lines(old)
        let b = lines(new)
        let edits = script(a, b)
        var out = "--- \(oldName)\n+++ \(newName)\n"
        // Group edits into hunks separated by more than 2 * context unchanged lines.
        var index = 0
        while index < edits.count {
            guard let firstChange = edits[index...].firstIndex(where: { $0.kind != .same }) else { break }
            let start = max(index, firstChange - context)
            var end = firstChange
            var lastChange = firstChange
            while end < edits.count {
                if edits[end].kind != .same {
                    lastChange = end
                } else if end - lastChange > 2 * context {
                    break
                }
                end += 1
            }
            let stop = min(edits.count, lastChange + context + 1)
            let hunk = edits[start..<stop]
            let oldStart = hunk.first?.oldLine ?? 0
            let newStart = hunk.first?.newLine ?? 0
            let oldCount = hunk.filter { $0.kind != .insert }.count
            let newCount = hunk.filter { $0.kind != .delete }.count
            out += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
            for edit in hunk {
                switch edit.kind {
                case .same: out += " " + edit.text + "\n"
                case .delete: out += "-" + edit.text + "\n"
                case .insert: out += "+" + edit.text + "\n"
                }
            }
            index = stop
        }
        return out
    }

    private static func range(_ start: Int, _ count: Int) -> String {
        count == 1 ? "\(start)" : "\(count == 0 ? start - 1 : start),\(count)"
    }

    private static func lines(_ text: String) -> [String] {
        var result = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if result.last == "" { result.removeLast() }
        return result
    }

    struct Edit {
        enum Kind { case same, delete, insert }
        var kind: Kind
        var text: String
        /// 1-based positions in old and new at this edit (for hunk headers).
        var oldLine: Int
        var newLine: Int
    }

    /// The edit script: common prefix and suffix, and an LCS table on the rest.
    static func script(_ a: [String], _ b: [String]) -> [Edit] {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix,
            a[a.count - 1 - suffix] == b[b.count - 1 - suffix]
        {
            suffix += 1
        }
        let middleA = Array(a[prefix..<(a.count - suffix)])
        let middleB = Array(b[prefix..<(b.count - suffix)])
        var edits: [Edit] = []
        var oldLine = 1
        var newLine = 1
        func add(_ kind: Edit.Kind, _ text: String) {
            edits.append(Edit(kind: kind, text: text, oldLine: oldLine, newLine: newLine))
            if kind != .insert { oldLine += 1 }
            if kind != .delete { newLine += 1 }
        }
        for line in a[0..<prefix] { add(.same, line) }
        if middleA.count * middleB.count > 25_000_000 {
            // Too large to align cheaply: show it as one replacement.
            for line in middleA { add(.delete, line) }
            for line in middleB { add(.insert, line) }
        } else {
            let n = middleA.count
            let m = middleB.count
            var table = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
            if n > 0, m > 0 {
                for i in stride(from: n - 1, through: 0, by: -1) {
                    for j in stride(from: m - 1, through: 0, by: -1) {
                        table[i][j] =
                            middleA[i] == middleB[j]
                            ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
                    }
                }
            }
            var i = 0
            var j = 0
            while i < n || j < m {
                if i < n, j < m, middleA[i] == middleB[j] {
                    add(.same, middleA[i])
                    i += 1
                    j += 1
                } else if i < n, j == m || table[i + 1][j] >= table[i][j + 1] {
                    add(.delete, middleA[i])
                    i += 1
                } else {
                    add(.insert, middleB[j])
                    j += 1
                }
            }
        }
        for line in a[(a.count - suffix)...] { add(.same, line) }
        return edits
    }
}
