import Foundation
import Weave

/// A place in the book a learner is sent to, as the learner opens it: the page of the site
/// (`chapters/02-routing.html#patterns`) and, for an editor, the chapter file and line.
package struct SectionLink: Equatable, Sendable {
    /// The chapter, relative to the book: `chapters/02-routing.md`.
    var file: String
    var anchor: String?
    /// The heading's line in `file`; nil when the section was not found.
    var line: Int?
    /// The folder of the learner's language in the site (`vi/`), empty for English.
    var sitePrefix = ""

    /// The site page, relative to the site's root.
    var page: String { sitePrefix + PageAnchors.sitePage(ofChapter: file) + (anchor.map { "#\($0)" } ?? "") }

    /// `chapters/02-routing.html#patterns  (chapters/02-routing.md:88)`, the page prefixed with
    /// `origin` (`http://localhost:8080`) when a server answers there.
    func text(origin: String?) -> String {
        let page = origin.map { $0 + "/" + self.page } ?? self.page
        guard let line else { return page }
        return "\(page)  (\(file):\(line))"
    }
}

/// The chapters of a book and their sections, each chapter read once, on first use.
package final class BookSections: @unchecked Sendable {
    let root: URL
    private let lock = NSLock()
    private var headings: [String: [HeadingAnchor]?] = [:]
    private var chapterFiles: [String]?

    /// The folder of the learner's language in the site (`vi/`): its pages keep the English
    /// anchors, so only the folder changes.
    let sitePrefix: String

    package init(root: URL, sitePrefix: String = "") { (self.root, self.sitePrefix) = (root, sitePrefix) }

    /// `chapters/02-routing.md#patterns` as a link with its line; nil when the chapter or the
    /// section does not exist.
    func link(_ reference: String) -> SectionLink? {
        let parts = reference.split(separator: "#", maxSplits: 1).map(String.init)
        guard parts.count == 2, let sections = headings(of: parts[0]),
            let heading = sections.first(where: { $0.id == parts[1] })
        else { return nil }
        return SectionLink(file: parts[0], anchor: heading.id, line: heading.line, sitePrefix: sitePrefix)
    }

    /// What a case's `source:` says, when it is the book's own cross-reference.
    enum CrossReference: Equatable {
        /// Not of the form `this book: chapter NN, Section` (an RFC, Apple, AOSP, a chapter alone).
        case none
        case resolved(SectionLink)
        /// The form is right, but no chapter or no heading of it has that name.
        case unresolved
    }

    static let crossReferencePrefix = "this book: chapter "

    /// `this book: chapter 02, Patterns` gives chapter 2's section titled "Patterns".
    func crossReference(_ source: String) -> CrossReference {
        guard source.hasPrefix(Self.crossReferencePrefix) else { return .none }
        let rest = source.dropFirst(Self.crossReferencePrefix.count)
        let number = rest.prefix { $0.isNumber }
        guard !number.isEmpty, rest.dropFirst(number.count).hasPrefix(", ") else { return .none }
        let title = String(rest.dropFirst(number.count + 2))
        guard let file = chapter(numbered: String(number)), let sections = headings(of: file),
            let heading = sections.first(where: { $0.title == title })
        else { return .unresolved }
        return .resolved(
            SectionLink(file: file, anchor: heading.id, line: heading.line, sitePrefix: sitePrefix))
    }

    /// `02` gives `chapters/02-routing.md`.
    func chapter(numbered number: String) -> String? {
        let files: [String] = lock.withLock {
            if let chapterFiles { return chapterFiles }
            let names =
                (try? FileManager.default.contentsOfDirectory(
                    atPath: root.appendingPathComponent("chapters").path))
                ?? []
            let found = names.filter { $0.hasSuffix(".md") }.sorted().map { "chapters/" + $0 }
            chapterFiles = found
            return found
        }
        return files.first { $0.hasPrefix("chapters/\(number)-") }
    }

    private func headings(of file: String) -> [HeadingAnchor]? {
        lock.withLock {
            if let known = headings[file] { return known }
            let read = FileManager.default.contents(atPath: root.appendingPathComponent(file).path).map {
                PageAnchors.headings(ofMarkdown: String(decoding: $0, as: UTF8.self))
            }
            headings[file] = read
            return read
        }
    }
}
