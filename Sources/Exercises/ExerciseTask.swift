import Foundation

/// An exercise's task as `workbook exercises show` prints it in a terminal: the README without
/// its title (the header line says it), its links spelled out as a reader opens them.
///
/// A link to a chapter section becomes the site page and the chapter line
/// (`Patterns (chapters/02-routing.html#patterns, chapters/02-routing.md:88)`), like the `read:`
/// lines of a check; any other link keeps its target in parentheses. Code blocks are left alone.
package enum ExerciseTask {
    package static func text(of exercise: Exercise, sections: BookSections, origin: String?) -> String {
        var lines = exercise.readmeText.split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        if let first = lines.firstIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }),
            lines[first].hasPrefix("# ")
        {
            lines.removeSubrange(first...min(first + 1, lines.count - 1))
        }
        var inFence = false
        let folder = "exercises/\(exercise.id)/"
        let rewritten = lines.map { line -> String in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") { inFence.toggle() }
            return inFence ? line : spellOutLinks(line, from: folder, sections: sections, origin: origin)
        }
        return rewritten.joined(separator: "\n").trimmingCharacters(in: .newlines)
    }

    /// `[text](target)` becomes `text (where)`, outside code spans.
    static func spellOutLinks(_ line: String, from folder: String, sections: BookSections, origin: String?)
        -> String
    {
        var output = ""
        var index = line.startIndex
        var inCode = false
        while index < line.endIndex {
            let character = line[index]
            if character == "`" { inCode.toggle() }
            guard !inCode, character == "[",
                let close = line[index...].firstIndex(of: "]"),
                line.index(after: close) < line.endIndex, line[line.index(after: close)] == "(",
                let end = line[close...].firstIndex(of: ")")
            else {
                output.append(character)
                index = line.index(after: index)
                continue
            }
            let text = line[line.index(after: index)..<close]
            let target = String(line[line.index(close, offsetBy: 2)..<end])
            output += "\(text) (\(place(of: target, from: folder, sections: sections, origin: origin)))"
            index = line.index(after: end)
        }
        return output
    }

    /// Where a link leads, as a reader opens it.
    static func place(of target: String, from folder: String, sections: BookSections, origin: String?)
        -> String
    {
        guard !target.contains("://"), !target.hasPrefix("mailto:") else { return target }
        let path = normalized(folder + target)
        if path.hasPrefix("chapters/"), path.contains(".md") {
            let reference = path.contains("#") ? path : path + "#"
            if let link = sections.link(reference) {
                let page = origin.map { $0 + "/" + link.page } ?? link.page
                return "\(page), \(link.file):\(link.line ?? 1)"
            }
        }
        return path
    }

    /// `exercises/01-x/../../chapters/02.md` gives `chapters/02.md`.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: false) {
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
            } else if part != "." {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }
}
