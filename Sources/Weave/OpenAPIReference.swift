import Foundation
import StrictJSON

/// An API reference, written as Markdown from an OpenAPI 3 document: the authentication
/// schemes, every path and method with its parameters, request body, responses and a try-it
/// panel, and every component schema as a table of properties.
///
/// ```swift
/// let page = OpenAPIPage(documentPath: "api/openapi.json", title: "Server API")
/// let markdown = try OpenAPIReference.markdown(json: data, page: page)
/// // # Server API (or the document's info.title) ... ## Endpoints ... ## Schemas
/// ```
public enum OpenAPIReference {
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// The page for a missing document: says so, and how it comes to exist.
    public static func missingMarkdown(documentPath: String, title: String) -> String {
        """
        # \(MarkdownText.escape(title))

        The OpenAPI document (`\(documentPath)`) is not in this book yet, so there is
        no API reference to show. It appears here as soon as the file exists: build the site again.

        """
    }

    /// The reference for the document `data`, which the book holds at `page.documentPath`; its
    /// try-it panels say `offlineNote` while no server answers.
    public static func markdown(
        json data: Data, page: OpenAPIPage, offlineNote: String = SiteOptions.plainTryItOfflineNote
    ) throws(WeaveMessage) -> String {
        let documentPath = page.documentPath
        let document: JSONValue
        do {
            document = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw .invalidOpenAPI(path: documentPath, detail: "not valid JSON (\(error))")
        }
        guard case .object = document, let paths = document["paths"] else {
            throw .invalidOpenAPI(path: documentPath, detail: "no 'paths' object")
        }
        var out = ""
        let info = document["info"]
        out += "# \(MarkdownText.escape(info?["title"]?.string ?? page.title))\n\n"
        if let version = info?["version"]?.string {
            out += "Version \(MarkdownText.code(version)), generated from `\(documentPath)`"
            if let openapi = document["openapi"]?.string { out += " (OpenAPI \(openapi))" }
            out += ".\n\n"
        }
        if let description = info?["description"]?.string { out += description + "\n\n" }
        if let note = page.liveNote { out += "<p class=\"live-note\" data-live-note>\(note)</p>\n\n" }
        let servers = document["servers"]?.items ?? []
        if !servers.isEmpty {
            out += "## Servers\n\n"
            for server in servers {
                out += "- \(MarkdownText.code(server["url"]?.string ?? ""))"
                if let description = server["description"]?.string { out += ": \(description)" }
                out += "\n"
            }
            out += "\n"
        }
        let schemes = document["components"]?["securitySchemes"]?.sortedMembers ?? []
        if !schemes.isEmpty {
            out += "## Authentication\n\n| Scheme | Type | Where | Description |\n| --- | --- | --- | --- |\n"
            for (name, scheme) in schemes {
                let place = [scheme["in"]?.string, scheme["name"]?.string].compactMap { $0 }.joined(
                    separator: " ")
                out +=
                    "| \(MarkdownText.cellCode(name)) | \(MarkdownText.cell(scheme["type"]?.string ?? "")) | "
                out += "\(place.isEmpty ? "" : MarkdownText.cellCode(place)) | "
                out += "\(MarkdownText.cell(scheme["description"]?.string ?? "")) |\n"
            }
            out += "\n"
        }
        out += "## Endpoints\n\n"
        for (path, item) in paths.sortedMembers {
            for method in methods {
                guard let operation = item[method] else { continue }
                out += operationMarkdown(
                    method: method, path: path, operation: operation, pathItem: item, document: document,
                    offlineNote: offlineNote)
            }
        }
        let schemas = document["components"]?["schemas"]?.sortedMembers ?? []
        if !schemas.isEmpty {
            out += "## Schemas\n\n"
            for (name, schema) in schemas {
                // The explicit id lets type summaries link to the schema whatever its heading's slug.
                out += "### <a id=\"schema-\(Slugger.slug(name))\"></a>\(MarkdownText.escape(name))\n\n"
                out += schemaMarkdown(schema)
            }
        }
        return out
    }

    private static func operationMarkdown(
        method: String, path: String, operation: JSONValue, pathItem: JSONValue, document: JSONValue,
        offlineNote: String
    )
        -> String
    {
        var out = "### \(method.uppercased()) \(MarkdownText.code(path))\n\n"
        if let summary = operation["summary"]?.string { out += "**\(MarkdownText.escape(summary))**\n\n" }
        if let description = operation["description"]?.string { out += description + "\n\n" }
        var panel = tryItPanel(method: method, path: path, operation: operation, document: document)
        panel.offlineNote = offlineNote
        out += panel.html + "\n"
        let parameters = (pathItem["parameters"]?.items ?? []) + (operation["parameters"]?.items ?? [])
        if !parameters.isEmpty {
            out +=
                "Parameters:\n\n| Name | In | Type | Required | Description |\n| --- | --- | --- | --- | --- |\n"
            for parameter in parameters {
                out +=
                    "| \(MarkdownText.cellCode(parameter["name"]?.string ?? referenceName(parameter) ?? "?")) | "
                out += "\(MarkdownText.cell(parameter["in"]?.string ?? "")) | "
                out += "\(MarkdownText.cell(typeSummary(parameter["schema"]))) | "
                out += "\(parameter["required"]?.bool == true ? "yes" : "no") | "
                out += "\(MarkdownText.cell(parameter["description"]?.string ?? "")) |\n"
            }
            out += "\n"
        }
        if let body = operation["requestBody"] {
            out += "Request body"
            if body["required"]?.bool == true { out += " (required)" }
            out += ":\n\n"
            if let description = body["description"]?.string { out += description + "\n\n" }
            out += contentMarkdown(body["content"])
        }
        let responses = operation["responses"]?.sortedMembers ?? []
        if !responses.isEmpty {
            out += "Responses:\n\n"
            for (status, response) in responses {
                out += "- **\(MarkdownText.escape(status))**"
                if let description = response["description"]?.string {
                    out += ": " + description.split(whereSeparator: \.isNewline).joined(separator: " ")
                }
                out += "\n"
                let content = contentMarkdown(response["content"])
                if !content.isEmpty {
                    out +=
                        "\n"
                        + content.split(separator: "\n", omittingEmptySubsequences: false)
                        .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
                }
            }
            out += "\n"
        }
        return out
    }

    /// The panel that sends this operation to the running server: the first security scheme's
    /// header (an API key header gets a placeholder the page fills with the publishable key; a
    /// bearer scheme gets a placeholder and a note, because the secret key never reaches a page),
    /// and a JSON body from the document's example, else one built from the schema.
    static func tryItPanel(method: String, path: String, operation: JSONValue, document: JSONValue)
        -> TryItPanel
    {
        var headers: [String] = []
        var note: String?
        let schemes = document["components"]?["securitySchemes"]
        if let first = operation["security"]?.items.first?.sortedMembers.first?.key,
            let scheme = schemes?[first]
        {
            if scheme["type"]?.string == "apiKey", scheme["in"]?.string == "header",
                let name = scheme["name"]?.string
            {
                headers.append("\(name): \(publishableKeyPlaceholder)")
            } else if scheme["type"]?.string == "http", scheme["scheme"]?.string?.lowercased() == "bearer" {
                headers.append("Authorization: Bearer \(secretKeyPlaceholder)")
                note =
                    "This route takes the <strong>secret key</strong>: replace <code>\(HTML.escape(secretKeyPlaceholder))"
                    + "</code> with the one <code>workbook serve</code> printed when it started. "
                    + "Pages are never given the secret key."
            }
        }
        var body = ""
        if let media = operation["requestBody"]?["content"]?["application/json"] {
            headers.append("Content-Type: application/json")
            let example =
                media["example"] ?? media["examples"]?.sortedMembers.first?.value["value"]
                ?? exampleValue(media["schema"], document: document, depth: 0)
            body = example.map { $0.pretty() } ?? "{}"
        }
        return TryItPanel(
            method: method.uppercased(), path: path, headers: headers, body: body, note: note)
    }

    /// What a page replaces with the running server's publishable key.
    static let publishableKeyPlaceholder = "<publishable key>"
    static let secretKeyPlaceholder = "<secret key>"

    /// An example built from a schema: its `example`, else an object of the properties that have
    /// examples or are required (all of them when none is), else a placeholder of its type.
    static func exampleValue(_ schema: JSONValue?, document: JSONValue, depth: Int) -> JSONValue? {
        guard var schema, depth < 6 else { return nil }
        if let name = referenceName(schema), let target = document["components"]?["schemas"]?[name] {
            schema = target
        }
        if let example = schema["example"] ?? schema["examples"]?.items.first { return example }
        if let first = schema["enum"]?.items.first { return first }
        for combiner in ["oneOf", "anyOf", "allOf"] {
            if let option = schema[combiner]?.items.first {
                return exampleValue(option, document: document, depth: depth + 1)
            }
        }
        let properties = schema["properties"]?.sortedMembers ?? []
        if !properties.isEmpty {
            let required = Set((schema["required"]?.items ?? []).compactMap(\.string))
            var chosen = properties.filter { required.contains($0.key) || $0.value["example"] != nil }
            if chosen.isEmpty { chosen = properties }
            var object: [String: JSONValue] = [:]
            for (name, property) in chosen {
                object[name] = exampleValue(property, document: document, depth: depth + 1) ?? .null
            }
            return .object(object)
        }
        let type: String? = {
            if case .array(let names) = schema["type"] { return names.first?.string }
            return schema["type"]?.string
        }()
        switch type {
        case "string": return .string(schema["format"]?.string.map { "<\($0)>" } ?? "string")
        case "integer", "number":
            return .number(schema["minimum"].flatMap { if case .number(let n) = $0 { n } else { nil } } ?? 1)
        case "boolean": return .bool(false)
        case "array":
            return .array(
                exampleValue(schema["items"], document: document, depth: depth + 1).map { [$0] } ?? [])
        case "object": return .object([:])
        default: return nil
        }
    }

    /// Each media type of a `content` object with its schema.
    private static func contentMarkdown(_ content: JSONValue?) -> String {
        var out = ""
        for (mediaType, media) in content?.sortedMembers ?? [] {
            out += "\(MarkdownText.code(mediaType)): \(typeSummary(media["schema"]))\n\n"
            if let schema = media["schema"], schema["$ref"] == nil {
                out += schemaMarkdown(schema)
            }
        }
        return out
    }

    /// A schema's properties as a table (objects), or its type in a sentence.
    static func schemaMarkdown(_ schema: JSONValue) -> String {
        var out = ""
        if let description = schema["description"]?.string { out += description + "\n\n" }
        var rows: [String] = []
        collectProperties(schema, prefix: "", depth: 0, into: &rows)
        guard !rows.isEmpty else {
            return out + "Type: \(typeSummary(schema)).\n\n"
        }
        out += "| Property | Type | Required | Description |\n| --- | --- | --- | --- |\n"
        out += rows.joined()
        return out + "\n"
    }

    /// One row per property; nested objects (not references) add their properties as
    /// `parent.child` rows, a few levels deep.
    private static func collectProperties(
        _ schema: JSONValue, prefix: String, depth: Int, into rows: inout [String]
    ) {
        let required = Set((schema["required"]?.items ?? []).compactMap(\.string))
        for (name, property) in schema["properties"]?.sortedMembers ?? [] {
            let fullName = prefix + name
            var description = property["description"]?.string ?? ""
            if let values = property["enum"]?.items, !values.isEmpty {
                let list = values.map { MarkdownText.code($0.literal) }.joined(separator: ", ")
                description += (description.isEmpty ? "" : " ") + "One of \(list)."
            }
            if let example = property["example"] {
                description +=
                    (description.isEmpty ? "" : " ") + "Example: \(MarkdownText.code(example.literal))."
            }
            rows.append(
                "| \(MarkdownText.cellCode(fullName)) | \(MarkdownText.cell(typeSummary(property))) | "
                    + "\(required.contains(name) ? "yes" : "no") | \(MarkdownText.cell(description)) |\n")
            if depth < 3, property["$ref"] == nil, property["properties"] != nil {
                collectProperties(property, prefix: fullName + ".", depth: depth + 1, into: &rows)
            }
            if depth < 3, let items = property["items"], items["$ref"] == nil, items["properties"] != nil {
                collectProperties(items, prefix: fullName + "[].", depth: depth + 1, into: &rows)
            }
        }
    }

    /// `string (uri)`, `array of [Link](#link)`, `one of A, B`.
    static func typeSummary(_ schema: JSONValue?) -> String {
        guard let schema else { return "any" }
        if let name = referenceName(schema) {
            return "[\(MarkdownText.escape(name))](#schema-\(Slugger.slug(name)))"
        }
        for combiner in ["oneOf", "anyOf", "allOf"] {
            if let options = schema[combiner]?.items, !options.isEmpty {
                let word = combiner == "allOf" ? "all of" : "one of"
                return word + " " + options.map { typeSummary($0) }.joined(separator: ", ")
            }
        }
        var type: String
        switch schema["type"] {
        case .string(let name): type = name
        case .array(let names): type = names.compactMap(\.string).joined(separator: " or ")
        default: type = schema["properties"] != nil ? "object" : "any"
        }
        if type == "array" { type = "array of " + typeSummary(schema["items"]) }
        if let format = schema["format"]?.string { type += " (\(format))" }
        if schema["nullable"]?.bool == true { type += ", nullable" }
        return type
    }

    /// `Link` for `{"$ref": "#/components/schemas/Link"}`.
    static func referenceName(_ value: JSONValue) -> String? {
        guard let reference = value["$ref"]?.string else { return nil }
        return reference.split(separator: "/").last.map(String.init)
    }
}
