import Foundation
import StrictJSON

extension HTTPRequest {
    /// Decodes the JSON body as `Value`, turning every way it can be wrong into a 400 whose
    /// message names the field, so a client developer can fix the call without server logs.
    ///
    /// ```swift
    /// struct TrackOpen: Decodable { var deepLink: String?; var li2Domains: [String] }
    /// let body = try request.decodeJSON(TrackOpen.self)
    /// // {"li2Domains": "go.example"} -> 400 invalid_field "field 'li2Domains' must be an array"
    /// ```
    public func decodeJSON<Value: Decodable>(_ type: Value.Type) throws(HTTPError) -> Value {
        try JSONBody.decode(type, from: body)
    }
}

/// The JSON body rules behind ``HTTPRequest/decodeJSON(_:)``.
public enum JSONBody {
    public static func decode<Value: Decodable>(_ type: Value.Type, from body: Data) throws(HTTPError)
        -> Value
    {
        if body.isEmpty {
            throw HTTPError.emptyBody
        }
        // JSON text must be UTF-8 (RFC 8259 §8.1); JSONDecoder would also accept UTF-16, so
        // check first and give the client the real reason.
        // Decoding repairs bad sequences with U+FFFD, so the bytes change exactly when invalid.
        guard String(decoding: body, as: UTF8.self).utf8.elementsEqual(body) else {
            throw HTTPError.invalidUTF8
        }
        // JSONDecoder on Linux accepts a trailing comma, and UTF-16 text without a byte-order
        // mark is valid UTF-8 with NUL bytes: the strict checker refuses both, and says where.
        if let problem = JSONSyntax.firstProblem(in: body) {
            throw HTTPError.malformedJSON(problem)
        }
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch let error as DecodingError {
            throw httpError(for: error)
        } catch {
            throw HTTPError.malformedJSON
        }
    }

    /// Maps a decoding failure to the 400 a client sees.
    public static func httpError(for error: DecodingError) -> HTTPError {
        switch error {
        case .keyNotFound(let key, let context):
            return .missingField(fieldPath(context.codingPath + [key]))
        case .typeMismatch(let type, let context):
            return .wrongType(fieldPath(context.codingPath), expected: describe(type))
        case .valueNotFound(_, let context):
            return .nullField(fieldPath(context.codingPath))
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return .malformedJSON
            }
            return .invalidField(fieldPath(context.codingPath), reason: context.debugDescription)
        @unknown default:
            return .malformedJSON
        }
    }

    /// `li2Domains[1]`, `link.url`; the top level reads as `body`.
    public static func fieldPath(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text.isEmpty ? "body" : text
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is Substring.Type, is Character.Type: return "a string"
        case is Bool.Type: return "a boolean"
        case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type,
            is UInt.Type, is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type:
            return "an integer"
        case is Double.Type, is Float.Type, is Decimal.Type: return "a number"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array<") || name.hasPrefix("[") && !name.contains(":") { return "an array" }
            if name.hasPrefix("Dictionary<") || name.hasPrefix("[") { return "an object" }
            return "a \(name)"
        }
    }
}
