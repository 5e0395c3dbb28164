import Foundation

/// Refuses the XML a manifest never has and a parser should never expand: a document type
/// declaration, which is where entities are declared (the "billion laughs" that grow a few
/// hundred bytes into gigabytes, and external entities that read local files). An
/// `AndroidManifest.xml` has none; the build tools write none.
enum XMLSafety {
    /// A finding at the declaration, or nil when there is none.
    static func refusal(in text: String) -> LabFinding? {
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for marker in ["<!DOCTYPE", "<!ENTITY"] {
                guard let range = line.range(of: marker, options: .caseInsensitive) else { continue }
                return LabFinding(
                    code: "manifest.doctype", severity: "error",
                    message: "the manifest declares a document type or an entity (\(marker)); an "
                        + "AndroidManifest.xml has none, and the lab expands no entity",
                    path: "manifest", line: index + 1,
                    column: line.distance(from: line.startIndex, to: range.lowerBound) + 1,
                    read: LabSections.intentFilters)
            }
        }
        return nil
    }
}
