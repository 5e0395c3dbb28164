/// How far one generated file may grow, so that no chapter can exhaust the machine that tangles
/// it: a chain of chunks each including the next, or a few dozen chunks each including the next
/// twice (2^40 lines from 4 KB of Markdown), stop with an error instead.
///
/// The defaults are far above what a real book needs (its largest generated file has about 500
/// lines and 23 KB) and far below what hurts: at the limits, expanding one file takes
/// milliseconds and a few megabytes.
public struct TangleLimits: Sendable, Hashable {
    /// Chunks included inside chunks, counted from a file's own block.
    public var depth: Int
    /// Lines of one generated file, and also chunk inclusions: an empty chunk adds no line, but
    /// including it still costs work.
    public var lines: Int
    /// Bytes of one generated file's body.
    public var bytes: Int

    public init(depth: Int = 1_000, lines: Int = 50_000, bytes: Int = 2 << 20) {
        (self.depth, self.lines, self.bytes) = (depth, lines, bytes)
    }

    public static let standard = TangleLimits()

    /// Which limit a file passed, with its value, for the message.
    public enum Exceeded: Hashable, Sendable {
        case lines(Int)
        case inclusions(Int)
        case bytes(Int)

        var text: String {
            switch self {
            case .lines(let limit): return "\(TangleLimits.grouped(limit)) lines"
            case .inclusions(let limit): return "\(TangleLimits.grouped(limit)) chunk inclusions"
            case .bytes(let limit):
                return limit % (1 << 20) == 0
                    ? "\(limit >> 20) MiB" : "\(TangleLimits.grouped(limit)) bytes"
            }
        }
    }

    /// `1000` as `1,000`, as the messages print limits.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (number < 0 ? "-" : "") + text
    }
}
