import Foundation

/// Where a message comes from: a file relative to the book folder and a 1-based line.
public struct SourceReference: Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var line: Int

    public init(path: String, line: Int) {
        (self.path, self.line) = (path, line)
    }

    /// `chapters/02-routing.md:14`, as gettext writes references.
    public var description: String { "\(path):\(line)" }
}

/// The book's messages, each text once with every place it comes from, in the order the texts
/// first appear: what `po/messages.pot` holds.
public struct MessageCatalog: Equatable, Sendable {
    public struct Message: Equatable, Sendable {
        public var text: String
        public var references: [SourceReference]

        public init(text: String, references: [SourceReference]) {
            (self.text, self.references) = (text, references)
        }
    }

    public private(set) var messages: [Message] = []
    private var indexes: [String: Int] = [:]

    public init() {}

    /// Adds the messages of the file at `path` (relative to the book folder); a text seen before
    /// gains a reference instead of a second message.
    public mutating func add(_ found: [SourceMessage], path: String) {
        for message in found {
            let reference = SourceReference(path: path, line: message.line)
            if let index = indexes[message.text] {
                if !messages[index].references.contains(reference) {
                    messages[index].references.append(reference)
                }
            } else {
                indexes[message.text] = messages.count
                messages.append(Message(text: message.text, references: [reference]))
            }
        }
    }

    /// The catalog as a gettext template. The header has no creation date, so that extracting
    /// an unchanged book writes the same file.
    public var potText: String {
        var lines = [
            "# Messages of the Deep Link Workbook: its chapters, their titles, and the exercises.",
            "# Written by `workbook i18n extract`; edit the chapters, never this file.",
            "#, fuzzy",
            "msgid \"\"",
            "msgstr \"\"",
            "\"Project-Id-Version: Deep Link Workbook\\n\"",
            "\"Report-Msgid-Bugs-To: \\n\"",
            "\"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n\"",
            "\"Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n\"",
            "\"Language-Team: LANGUAGE <LL@li.org>\\n\"",
            "\"Language: \\n\"",
            "\"MIME-Version: 1.0\\n\"",
            "\"Content-Type: text/plain; charset=UTF-8\\n\"",
            "\"Content-Transfer-Encoding: 8bit\\n\"",
        ]
        for message in messages {
            lines.append("")
            for reference in message.references { lines.append("#: \(reference)") }
            lines.append(contentsOf: POString.keyword("msgid", message.text))
            lines.append("msgstr \"\"")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Strings as PO files quote them.
public enum POString {
    /// `keyword "text"`, or for a text of several lines gettext's usual form: an empty first
    /// string, then one quoted string per line, each but the last ending in `\n`.
    public static func keyword(_ keyword: String, _ text: String) -> [String] {
        let parts = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return ["\(keyword) \"\(escape(text))\""] }
        var lines = ["\(keyword) \"\""]
        for (index, part) in parts.enumerated() {
            let newline = index < parts.count - 1 ? "\\n" : ""
            if part.isEmpty && newline.isEmpty { continue }
            lines.append("\"\(escape(String(part)))\(newline)\"")
        }
        return lines
    }

    /// The C escapes PO strings use: backslash, double quote, and control characters.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\u{07}": result += "\\a"
            case "\u{08}": result += "\\b"
            case "\u{0B}": result += "\\v"
            case "\u{0C}": result += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\" + String(scalar.value, radix: 8).leftPadded(to: 3)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
