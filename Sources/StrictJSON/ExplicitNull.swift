/// An optional member that a JSON answer always carries: `null` when there is no value, never left
/// out, so that a client reads one shape whatever the state.
///
/// Swift's synthesized `Encodable` leaves a `nil` optional out. Marking the property with this
/// wrapper keeps the synthesized conformance and writes `null` instead; decoding accepts the
/// member missing or `null`.
///
/// ```swift
/// struct Outcome: Codable {
///     var kind: String
///     @ExplicitNull var clickId: String?
/// }
/// // Outcome(kind: "missed", clickId: nil) encodes as {"clickId":null,"kind":"missed"}
/// ```
@propertyWrapper
public struct ExplicitNull<Value> {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }
}

extension ExplicitNull: Equatable where Value: Equatable {}
extension ExplicitNull: Hashable where Value: Hashable {}
extension ExplicitNull: Sendable where Value: Sendable {}

extension ExplicitNull: Encodable where Value: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value = wrappedValue {
            try container.encode(value)
        } else {
            try container.encodeNil()
        }
    }
}

extension ExplicitNull: Decodable where Value: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}

extension KeyedDecodingContainer {
    /// A missing member decodes as `nil`, as it would for a plain optional.
    public func decode<Value: Decodable>(_ type: ExplicitNull<Value>.Type, forKey key: Key) throws
        -> ExplicitNull<Value>
    {
        try decodeIfPresent(type, forKey: key) ?? ExplicitNull(wrappedValue: nil)
    }
}
