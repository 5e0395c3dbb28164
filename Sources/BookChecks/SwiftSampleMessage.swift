import Foundation

/// Every message of the swift-sample checker, in one place so tests can pin them.
package enum SwiftSampleMessage {
    static let noCompiler = "swiftc not found on PATH; cannot type-check swift-sample blocks"

    /// No build of the package holds the SDK's module: the samples have nothing to compile
    /// against. The command builds it with the flags `./wb test` uses, so that the next
    /// `./wb test` reuses it.
    static func moduleNotBuilt(module: String, searched: [String]) -> String {
        "no built \(module) module to type-check this sample against (looked for \(module).swiftmodule "
            + "in \(searched.joined(separator: " and "))): run ./wb test, or swift build --scratch-path "
            + ".build/test -Xswiftc -warnings-as-errors --enable-code-coverage --target \(module)"
    }

    static func cannotWrite(_ reason: String) -> String {
        "cannot write the sample for the compiler: \(reason)"
    }

    /// The compiler failed without a message this checker could place (it crashed, say).
    static func compilerFailed(status: Int32, output: String) -> String {
        let output = output.trimmingCharacters(in: .whitespacesAndNewlines)
        return "swiftc -typecheck failed (exit status \(status))" + (output.isEmpty ? "" : ": \(output)")
    }

    static func timedOut(seconds: Int) -> String {
        "swiftc -typecheck did not finish within \(seconds) s"
    }

    /// A message about another file than the sample (one of the SDK's own, say), kept whole.
    static func elsewhere(path: String, line: Int, column: Int, message: String) -> String {
        "\(path):\(line):\(column): \(message)"
    }
}
