/// Every message the site generator prints, declared in one place so tests can pin the texts.
public enum WeaveMessage: Error, Hashable, Sendable {
    case brokenLink(destination: String, missing: String)
    case missingAnchor(destination: String, page: String, anchor: String)
    case absoluteLink(destination: String)
    case linkLeavesBook(destination: String)
    case unknownCitation(key: String, scheme: String)
    case highlightMissing(folder: String)
    case themeMissing(path: String)
    case unknownPlaceholder(name: String)
    case unclosedPlaceholder
    case invalidGlossary(detail: String)
    case invalidSynonyms(detail: String)
    case invalidOpenAPI(path: String, detail: String)
    case invalidCoverage(path: String, detail: String)
    case outputNotOurs(path: String)
    case fileFailed(path: String, operation: FileOperation, reason: String)
    case snippetCheckErrors(count: Int)
    case wordsMissing(path: String)
    case invalidWords(line: Int, detail: String)
    case missingWords(keys: [String], user: String)
    case unknownWord(key: String, line: Int)

    public var text: String {
        switch self {
        case .brokenLink(let destination, let missing):
            return "broken link '\(destination)': no page or file '\(missing)' in the book"
        case .missingAnchor(let destination, let page, let anchor):
            return "broken link '\(destination)': '\(page)' has no heading or anchor '\(anchor)'"
        case .absoluteLink(let destination):
            return "broken link '\(destination)': a path starting with '/' breaks when the site is "
                + "opened from files; write it relative to this page"
        case .linkLeavesBook(let destination):
            return "broken link '\(destination)': it leads outside the book folder"
        case .unknownCitation(let key, let scheme):
            return "broken link '\(scheme):\(key)': no cited entry has the key '\(key)'"
        case .highlightMissing(let folder):
            return "highlight.js not found in '\(folder)' (Debian package libjs-highlight.js); "
                + "code blocks render without highlighting"
        case .themeMissing(let path):
            return "no theme at '\(path)' (a folder holding templates/page.html)"
        case .unknownPlaceholder(let name):
            return "unknown placeholder '{{\(name)}}'"
        case .unclosedPlaceholder:
            return "placeholder opened with '{{' is never closed"
        case .invalidGlossary(let detail):
            return "invalid glossary: \(detail)"
        case .invalidSynonyms(let detail):
            return "invalid search synonyms: \(detail)"
        case .invalidOpenAPI(let path, let detail):
            return "cannot read the OpenAPI document '\(path)': \(detail)"
        case .invalidCoverage(let path, let detail):
            return "cannot read coverage data '\(path)': \(detail)"
        case .outputNotOurs(let path):
            return "'\(path)' exists and was not written by 'workbook build'; remove it or choose "
                + "another --out folder"
        case .fileFailed(let path, let operation, let reason):
            return "\(path): \(operation.text) (\(reason))"
        case .snippetCheckErrors(let count):
            return "\(count) snippet check errors, badged 'check failed'; 'workbook check' lists them"
        case .wordsMissing(let path):
            return "no words at '\(path)': a theme holds its words (labels, messages) in words.json"
        case .invalidWords(_, let detail):
            return "invalid words: \(detail)"
        case .missingWords(let keys, let user):
            let list = keys.map { "'\($0)'" }.joined(separator: ", ")
            return
                "\(user) uses \(keys.count == 1 ? "a word" : "words") that words.json does not have: \(list)"
        case .unknownWord(let key, _):
            return "unknown word '{{t \(key)}}': words.json has no key '\(key)'"
        }
    }

    /// What a failed file-system call was doing, for ``fileFailed(path:operation:reason:)``.
    public enum FileOperation: Hashable, Sendable {
        case read, write, createFolder, readFolder, removeEarlierSite
        case copy(from: String)

        var text: String {
            switch self {
            case .read: return "cannot read the file"
            case .write: return "cannot write the file"
            case .createFolder: return "cannot create the folder"
            case .readFolder: return "cannot read the folder"
            case .removeEarlierSite: return "cannot remove the site an earlier build wrote"
            case .copy(let source): return "cannot copy '\(source)' here"
            }
        }
    }
}
