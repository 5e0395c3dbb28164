import AttributionService
import Foundation

extension ServerResources {
    /// The OpenAPI document as a server with `configuration` serves it at
    /// `GET /api/v1/openapi.json`: the shipped document, with the values that depend on the
    /// configuration written in. A link is created only on a configured link domain, and the
    /// simulator plays only a configured short link; the shipped document cannot know which, so
    /// it says "a host name" and "a URL". Served, it names them (as case-insensitive patterns,
    /// because the server accepts any case), and a client generated from it, or a fuzzer, learns
    /// what this server accepts instead of finding out from a 400.
    ///
    /// ```swift
    /// let served = ServerResources.openAPIDocument(for: configuration)
    /// // components.schemas.CreateLinkRequest.properties.domain.pattern == "^(?:[Gg][Oo]\\.[Ee]…)$"
    /// ```
    public static func openAPIDocument(for configuration: ServerConfiguration) -> Data {
        guard var document = try? JSONSerialization.jsonObject(with: openAPIDocument) as? [String: Any] else {
            return openAPIDocument
        }
        let domains = configuration.linkDomains.map { $0.lowercased() }
        document[schema: "CreateLinkRequest", property: "domain", key: "pattern"] = anyCasePattern(domains)
        let links = configuration.normalizedLinks.map(\.shortLink)
        if !links.isEmpty {
            document[schema: "SimSessionRequest", property: "link", key: "pattern"] = anyCasePattern(links)
        }
        let options: JSONSerialization.WritingOptions = [
            .prettyPrinted, .sortedKeys, .withoutEscapingSlashes,
        ]
        return (try? JSONSerialization.data(withJSONObject: document, options: options)) ?? openAPIDocument
    }

    /// A pattern that matches exactly one of `alternatives`, in any letter case:
    /// `["go.example"]` gives `^(?:[Gg][Oo]\.[Ee][Xx][Aa][Mm][Pp][Ll][Ee])$`. Written without
    /// flags, because JSON Schema patterns have none.
    static func anyCasePattern(_ alternatives: [String]) -> String {
        let syntax = Set(#"^$\.*+?()[]{}|/"#)
        let written = alternatives.map { alternative in
            alternative.map { character -> String in
                let lower = character.lowercased()
                let upper = character.uppercased()
                if lower != upper { return "[\(upper)\(lower)]" }
                return syntax.contains(character) ? "\\\(character)" : String(character)
            }.joined()
        }
        return "^(?:" + written.joined(separator: "|") + ")$"
    }
}

extension Dictionary where Key == String, Value == Any {
    /// One keyword of one property of one schema under `components.schemas`; setting it on a
    /// schema or property the document lacks changes nothing.
    fileprivate subscript(schema schema: String, property property: String, key key: String) -> Any? {
        get {
            let schemas = (self["components"] as? [String: Any])?["schemas"] as? [String: Any]
            let properties = (schemas?[schema] as? [String: Any])?["properties"] as? [String: Any]
            return (properties?[property] as? [String: Any])?[key]
        }
        set {
            guard var components = self["components"] as? [String: Any],
                var schemas = components["schemas"] as? [String: Any],
                var object = schemas[schema] as? [String: Any],
                var properties = object["properties"] as? [String: Any],
                var value = properties[property] as? [String: Any]
            else { return }
            value[key] = newValue
            properties[property] = value
            object["properties"] = properties
            schemas[schema] = object
            components["schemas"] = schemas
            self["components"] = components
        }
    }
}
