import StrictJSON

extension JSONValue {
    /// A short literal for enums and examples in the API reference.
    var literal: String {
        switch self {
        case .string(let value): return value
        case .number(let value): return Self.numberText(value)
        case .bool(let value): return String(value)
        case .null: return "null"
        case .array, .object: return "…"
        }
    }
}
