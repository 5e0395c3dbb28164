/// Every message about the book's sources and citations, declared in one place so tests can pin
/// the texts.
public enum SourceMessage: Error, Hashable, Sendable {
    case unreadable
    case invalidJSON(String)
    case notAnObject
    case unknownMember(String, allowed: [String])
    case missingMember(String)
    case notAnArray(String)
    case entryNotAnObject
    case notAString(String, orNull: Bool)
    case notHTTPS(String)
    case invalidKey(String)
    case invalidDate(String)
    case sourceLabelIsADecision(String)
    case decisionLabel(String)
    case reasonNotOneLine
    case duplicate(String, String, first: String)
    case unknownKey(String, suggestion: String?)
    case unknownLabel(String, suggestion: String?)
    case noSuchChapter(String)
    case noSuchSection(chapter: String, section: String, suggestion: String?)
    case malformedCrossReference(String)
    case uncited(String)
    case unlinkedAttribution(String)

    public var text: String {
        switch self {
        case .unreadable:
            return "cannot read the bibliography"
        case .invalidJSON(let detail):
            return "the bibliography is not valid JSON: \(detail)"
        case .notAnObject:
            return
                "the bibliography must be a JSON object with a \"sources\" array (and a \"decisions\" array)"
        case .unknownMember(let name, let allowed):
            return "unknown member \"\(name)\"; allowed: "
                + allowed.map { "\"\($0)\"" }.joined(separator: ", ")
        case .missingMember(let name):
            return "missing member \"\(name)\""
        case .notAnArray(let name):
            return "\"\(name)\" must be an array of entries"
        case .entryNotAnObject:
            return "an entry must be a JSON object"
        case .notAString(let name, let orNull):
            return "\"\(name)\" must be a non-empty string"
                + (orNull ? ", or null for a source with no public copy" : "")
        case .notHTTPS(let url):
            return "the URL '\(url)' is not an https address; a reader must be able to open it safely"
        case .invalidKey(let key):
            return
                "invalid key '\(key)': use lower-case letters, digits, '-' and '.', starting with a letter or digit"
        case .invalidDate(let date):
            return "invalid date '\(date)': write the day the source was read as YYYY-MM-DD"
        case .sourceLabelIsADecision(let label):
            return
                "the source label '\(label)' starts like a decision; put the book's own rules under \"decisions\""
        case .decisionLabel(let label):
            return "the decision label '\(label)' must start with 'this book: ' and say what is decided"
        case .reasonNotOneLine:
            return "a decision's reason is one line"
        case .duplicate(let name, let text, let first):
            return "duplicate \(name) '\(text)' (first at \(first))"
        case .unknownKey(let key, let suggestion):
            return "unknown source key '\(key)': no entry of chapters/sources.json has it" + hint(suggestion)
        case .unknownLabel(let label, let suggestion):
            return
                "unknown source '\(label)': no entry of chapters/sources.json has this label or key, and it is "
                + "no cross-reference ('this book: chapter NN, Section')" + hint(suggestion)
        case .noSuchChapter(let number):
            return "cross-reference to chapter \(number), which the book does not have"
        case .noSuchSection(let chapter, let section, let suggestion):
            return "cross-reference to '\(section)', which is no heading of \(chapter)" + hint(suggestion)
        case .malformedCrossReference(let text):
            return
                "malformed cross-reference '\(text)': write 'this book: chapter NN, Section' (two digits, then "
                + "a heading of that chapter) or 'this book: chapter NN'"
        case .uncited(let key):
            return "the entry '\(key)' is cited nowhere"
        case .unlinkedAttribution(let text):
            return "attribution '\(text)' is not linked to its entry: write it as [LABEL](source:KEY)"
        }
    }

    private func hint(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean '\($0)'?" } ?? ""
    }
}
