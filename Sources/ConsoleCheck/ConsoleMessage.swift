/// Every message of the console checker, in one place so tests can pin them.
package enum ConsoleMessage {
    static let noCommandFirst =
        "a console transcript starts with a command: a line beginning with '$ ' (or drop check=console)"
    static let danglingContinuation = "the last command ends in '\\' but no line follows"

    static func outputDiffers(status: Int32?, comparedAsJSON: Bool, diff: String) -> String {
        let how = comparedAsJSON ? "compared as JSON" : "compared line by line"
        let exit = status.map { $0 == 0 ? "" : ", exit status \($0)" } ?? ""
        var text = "the output differs from the transcript (\(how)\(exit)):\n" + diff
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    static func timedOut(after timeout: Duration) -> String {
        "the command did not finish within \(seconds(timeout)) s and was stopped"
    }

    static func serverFailed(_ reason: String) -> String {
        "cannot start the mock server for this chapter's transcripts: \(reason)"
    }

    static func noConfiguration(_ path: String) -> String {
        "no server configuration at \(path); the console checker runs the demo server"
    }

    static func seconds(_ duration: Duration) -> String {
        let value = duration / .seconds(1)
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}
