import Foundation
import StrictJSON

/// The strict RFC 8259 checker: any bytes, no crash and no hang, and a problem is always placed
/// inside the text (a line that exists, a column on it or just past its end).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStrictJSON(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let problem = JSONSyntax.firstProblem(in: data) else { return 0 }
    let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    precondition(problem.line >= 1 && problem.line <= lines.count, "line \(problem.line) of \(lines.count)")
    precondition(problem.column >= 1, "column \(problem.column)")
    precondition(!problem.message.isEmpty)
    return 0
}
