import Foundation
import Testing

/// The Apple-only part of Li2SDK 0.2.0's public API (the reference's section 2), which a Linux
/// build cannot dump: the declarations are checked as they are written in the tangled sources,
/// compared with white space and comments set aside. `workbook check` parse-checks the same files.
struct AppleOnlyDeclarationsTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/Li2SDK")

    /// Each declaration as 0.2.0 writes it.
    static let declared = [
        "public enum Li2: Sendable",
        "@available(iOS 16.0, *) public struct Li2PasteButton: UIViewRepresentable",
        "public var backgroundColor: UIColor",
        "public var foregroundColor: UIColor",
        "public var onPaste: (String?) -> Void",
        "public init( backgroundColor: UIColor = .tintColor, foregroundColor: UIColor = .white, "
            + "onPaste: @escaping (String?) -> Void )",
        "public func makeCoordinator() -> Coordinator",
        "public func makeUIView(context: Context) -> PasteReceiverView",
        "public func updateUIView(_ uiView: PasteReceiverView, context: Context)",
        "public final class Coordinator",
        "@available(iOS 16.0, *) public final class PasteReceiverView: UIView",
        "public override func canPaste(_ itemProviders: [NSItemProvider]) -> Bool",
        "public override func paste(itemProviders: [NSItemProvider])",
        "public func li2DeepLink(using resolver: Li2DeepLinkResolver) -> some View",
    ]

    /// What 0.2.0 keeps internal, so that an app cannot make these itself.
    static let notPublic = ["public init(onPaste:", "public override init(", "public init(frame:"]

    /// Every Swift file of the SDK, comments dropped and white space collapsed to single spaces.
    static func normalizedSources() throws -> String {
        let files = try FileManager.default.subpathsOfDirectory(atPath: sources.path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        return try files.map { file in
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            }
            return code.joined(separator: " ")
        }.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func theAppleOnlyDeclarationsAreLi2SDK020s() throws {
        let code = try Self.normalizedSources()
        let missing = Self.declared.filter { !code.contains($0) }
        #expect(missing == [], "declared otherwise than Li2SDK 0.2.0 (reference, section 2)")
        let exposed = Self.notPublic.filter { code.contains($0) }
        #expect(exposed == [], "public in this SDK, internal in Li2SDK 0.2.0")
    }
}
