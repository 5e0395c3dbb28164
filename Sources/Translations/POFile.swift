import CGettextPo
import Foundation

/// A PO file's messages as GNU gettext's own reader (`libgettextpo`) sees them: the header and
/// obsolete (`#~`) entries left out.
public struct POFile: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var msgid: String
        public var msgstr: String
        public var isFuzzy: Bool
        public var references: [SourceReference]

        public init(msgid: String, msgstr: String, isFuzzy: Bool, references: [SourceReference]) {
            (self.msgid, self.msgstr, self.isFuzzy, self.references) = (msgid, msgstr, isFuzzy, references)
        }
    }

    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    /// Reads the PO file at `file`; `path` names it in errors. A syntax error fails with every
    /// problem gettext reports, each as `po/vi.po:12: error: ...`.
    public static func read(_ file: URL, path: String) throws(TranslationError) -> POFile {
        guard FileManager.default.isReadableFile(atPath: file.path) else {
            throw TranslationError("\(path): cannot read the file")
        }
        return try POReader.read(file.path, displayPath: path)
    }
}

/// The calls into libgettextpo. Its reader reports problems through a C callback and global
/// state, so reads are serialised and the callback collects into ``problems``.
private enum POReader {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var problems:
        [(file: String?, line: Int?, text: String, fatal: Bool)] =
            []

    static func read(_ filePath: String, displayPath: String) throws(TranslationError) -> POFile {
        lock.lock()
        defer { lock.unlock() }
        problems = []
        var handler = po_xerror_handler(xerror: recordProblem, xerror2: recordProblems)
        let file = withUnsafePointer(to: &handler) { po_file_read_v3(filePath, $0) }
        let found = problems
        problems = []
        defer { if let file { po_file_free(file) } }
        let errors = found.filter { !$0.fatal }
        if !errors.isEmpty || file == nil || found.contains(where: \.fatal) {
            let lines = errors.map { problem -> String in
                let line = problem.line.map { ":\($0)" } ?? ""
                return "\(displayPath)\(line): error: \(problem.text)"
            }
            throw TranslationError(
                lines.isEmpty
                    ? "\(displayPath): error: \(found.last?.text ?? "gettext cannot read the file")"
                    : lines.joined(separator: "\n"))
        }
        guard let file, let iterator = po_message_iterator(file, nil) else { return POFile(entries: []) }
        defer { po_message_iterator_free(iterator) }
        var entries: [POFile.Entry] = []
        while let message = po_next_message(iterator) {
            let msgid = string(po_message_msgid(message))
            if msgid.isEmpty || po_message_is_obsolete(message) != 0 { continue }
            var references: [SourceReference] = []
            var index: Int32 = 0
            while let position = po_message_filepos(message, index) {
                let line = po_filepos_start_line(position)
                references.append(
                    SourceReference(
                        path: string(po_filepos_file(position)), line: line < 0 ? 0 : line))
                index += 1
            }
            entries.append(
                POFile.Entry(
                    msgid: msgid, msgstr: string(po_message_msgstr(message)),
                    isFuzzy: po_message_is_fuzzy(message) != 0, references: references))
        }
        return POFile(entries: entries)
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    /// gettext's reader raises its fatal severity only once parsing is over, after it has
    /// reported each error; returning from it lets `po_file_read` hand back what it read, which
    /// ``read(_:displayPath:)`` then refuses.
    private static let recordProblem:
        @convention(c) (
            Int32, po_message_t?, UnsafePointer<CChar>?, Int, Int, Int32, UnsafePointer<CChar>?
        ) -> Void = { severity, _, file, line, _, _, text in
            guard severity != PO_SEVERITY_WARNING else { return }
            POReader.problems.append(
                (
                    file: file.map { String(cString: $0) },
                    line: file != nil && line >= 0 ? line : nil,
                    text: text.map { String(cString: $0) }?.trimmingCharacters(in: .newlines) ?? "",
                    fatal: severity == PO_SEVERITY_FATAL_ERROR
                ))
        }

    private static let recordProblems:
        @convention(c) (
            Int32, po_message_t?, UnsafePointer<CChar>?, Int, Int, Int32, UnsafePointer<CChar>?,
            po_message_t?, UnsafePointer<CChar>?, Int, Int, Int32, UnsafePointer<CChar>?
        ) -> Void = { severity, first, file1, line1, column1, multiline1, text1, _, _, _, _, _, text2 in
            recordProblem(severity, first, file1, line1, column1, multiline1, text1)
            if let text2 {
                POReader.problems.append(
                    (file: nil, line: nil, text: String(cString: text2), fatal: false))
            }
        }
}
