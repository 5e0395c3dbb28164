import Foundation
import MockServer

extension ServerWords {
    /// The repository theme's words (`site/words.json`), as `workbook serve` hands them to the
    /// server: each `{name}` filled from the values.
    static let repository: ServerWords = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("site/words.json")
        let data = FileManager.default.contents(atPath: file.path) ?? Data()
        let words = ((try? JSONSerialization.jsonObject(with: data)) as? [String: String]) ?? [:]
        return ServerWords { key, values in
            values.reduce(words[key] ?? key) { word, value in
                word.replacingOccurrences(of: "{\(value.key)}", with: value.value)
            }
        }
    }()
}
