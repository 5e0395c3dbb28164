import Foundation
import StrictJSON

/// An API reference, written as Markdown from an OpenAPI 3 document: the authentication
/// schemes, every path and method with its parameters, request body, responses and a try-it
/// panel, and every component schema as a table of properties.
///
/// ```swift
/// let page = OpenAPIPage(documentPath: "api/openapi.json", title: "Server API")
/// let markdown = try OpenAPIReference.markdown(json: data, page: page, words: theme.words)
/// // # Server API (or the document's info.title) ... ## Endpoints ... ## Schemas
/// ```
public enum OpenAPIReference {
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// The page for a missing document: says so, and how it comes to exist.
    public static func missingMarkdown(documentPath: String, title: String, words: SiteWords) -> String {
        "# \(MarkdownText.escape(title))\n\n" + words.markdown(.apiMissing, ["path": documentPath]) + "\n\n"
    }

    /// The reference for the document `data`, which the book holds at `page.documentPath`, in
    /// `words`; its try-it panels say `offlineNote` while no server answers (nil: the words').
    public static func markdown(
        json data: Data, page: OpenAPIPage, offlineNote: String? = nil, words: SiteWords
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
            var values = ["version": MarkdownText.code(version), "path": documentPath]
            if let openapi = document["openapi"]?.string {
                values["openapi"] = openapi
                out += words.markdown(.apiVersionOpenAPI, values)
            } else {
                out += words.markdown(.apiVersion, values)
            }
            out += "\n\n"
        }
        if let description = info?["description"]?.string { out += description + "\n\n" }
        if let note = page.liveNote { out += "<p class=\"live-note\" data-live-note>\(note)</p>\n\n" }
        let servers = document["servers"]?.items ?? []
        if !servers.isEmpty {
            out += "## \(words.markdown(.apiServers))\n\n"
            for server in servers {
                out += "- \(MarkdownText.code(server["url"]?.string ?? ""))"
                if let description = server["description"]?.string { out += ": \(description)" }
                out += "\n"
            }
            out += "\n"
        }
        let schemes = document["components"]?["securitySchemes"]?.sortedMembers ?? []
        if !schemes.isEmpty {
            out += "## \(words.markdown(.apiAuthentication))\n\n"
            out += words.tableHeader([
                .apiColumnScheme, .apiColumnType, .apiColumnWhere, .apiColumnDescription,
            ])
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
        out += "## \(words.markdown(.apiEndpoints))\n\n"
        for (path, item) in paths.sortedMembers {
            for method in methods {
                guard let operation = item[method] else { continue }
                out += operationMarkdown(
                    method: method, path: path, operation: operation, pathItem: item, document: document,
                    offlineNote: offlineNote, words: words)
            }
        }
        let schemas = document["components"]?["schemas"]?.sortedMembers ?? []
        if !schemas.isEmpty {
            out += "## \(words.markdown(.apiSchemas))\n\n"
            for (name, schema) in schemas {
                // The explicit id lets type summaries link to the schema whatever its heading's slug.
                out += "### <a id=\"schema-\(Slugger.slug(name))\"></a>\(MarkdownText.escape(name))\n\n"
                out += schemaMarkdown(schema, words: words)
            }
        }
        return out
    }

    private static func operationMarkdown(
        method: String, path: String, operation: JSONValue, pathItem: JSONValue, document: JSONValue,
        offlineNote: String?, words: SiteWords
    )
        -> String
    {
        var out = "### \(method.uppercased()) \(MarkdownText.code(path))\n\n"
        if let summary = operation["summary"]?.string { out += "**\(MarkdownText.escape(summary))**\n\n" }
        if let description = operation["description"]?.string { out += description + "\n\n" }
        var panel = tryItPanel(
            method: method, path: path, operation: operation, document: document, words: words)
        panel.offlineNote = offlineNote
        out += panel.html(words) + "\n"
        let parameters = (pathItem["parameters"]?.items ?? []) + (operation["parameters"]?.items ?? [])
        if !parameters.isEmpty {
            out += words.markdown(.apiParameters) + "\n\n"
            out += words.tableHeader([
                .apiColumnName, .apiColumnIn, .apiColumnType, .apiColumnRequired, .apiColumnDescription,
            ])
            for parameter in parameters {
                out +=
                    "| \(MarkdownText.cellCode(parameter["name"]?.string ?? referenceName(parameter) ?? "?")) | "
                out += "\(MarkdownText.cell(parameter["in"]?.string ?? "")) | "
                out += "\(MarkdownText.cell(typeSummary(parameter["schema"], words: words))) | "
                out += "\(words.markdown(parameter["required"]?.bool == true ? .tableYes : .tableNo)) | "
                out += "\(MarkdownText.cell(parameter["description"]?.string ?? "")) |\n"
            }
            out += "\n"
        }
        if let body = operation["requestBody"] {
            out += words.markdown(body["required"]?.bool == true ? .apiRequestBodyRequired : .apiRequestBody)
            out += "\n\n"
            if let description = body["description"]?.string { out += description + "\n\n" }
            out += contentMarkdown(body["content"], words: words)
        }
        let responses = operation["responses"]?.sortedMembers ?? []
        if !responses.isEmpty {
            out += words.markdown(.apiResponses) + "\n\n"
            for (status, response) in responses {
                out += "- **\(MarkdownText.escape(status))**"
                if let description = response["description"]?.string {
                    out += ": " + description.split(whereSeparator: \.isNewline).joined(separator: " ")
                }
                out += "\n"
                let content = contentMarkdown(response["content"], words: words)
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
    static func tryItPanel(
        method: String, path: String, operation: JSONValue, document: JSONValue, words: SiteWords
    ) -> TryItPanel {
        var headers: [String] = []
        var note: String?
        let schemes = document["components"]?["securitySchemes"]
        if let first = operation["security"]?.items.first?.sortedMembers.first?.key,
            let scheme = schemes?[first]
        {
            if scheme["type"]?.string == "apiKey", scheme["in"]?.string == "header",
                let name = scheme["name"]?.string
            {
                // The page's script puts the running server's key where the placeholder stands.
                headers.append("\(name): \(words[.tryitPublishableKey])")
            } else if scheme["type"]?.string == "http", scheme["scheme"]?.string?.lowercased() == "bearer" {
                let placeholder = words[.tryitSecretKey]
                headers.append("Authorization: Bearer \(placeholder)")
                note = words.format(.tryitSecretKeyNote, ["placeholder": HTML.escape(placeholder)])
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
    private static func contentMarkdown(_ content: JSONValue?, words: SiteWords) -> String {
        var out = ""
        for (mediaType, media) in content?.sortedMembers ?? [] {
            out += "\(MarkdownText.code(mediaType)): \(typeSummary(media["schema"], words: words))\n\n"
            if let schema = media["schema"], schema["$ref"] == nil {
                out += schemaMarkdown(schema, words: words)
            }
        }
        return out
    }

    /// A schema's properties as a table (objects), or its type in a sentence.
    static func schemaMarkdown(_ schema: JSONValue, words: SiteWords) -> String {
        var out = ""
        if let description = schema["description"]?.string { out += description + "\n\n" }
        var rows: [String] = []
        collectProperties(schema, prefix: "", depth: 0, words: words, into: &rows)
        guard !rows.isEmpty else {
            return out + words.markdown(.apiType, ["type": typeSummary(schema, words: words)]) + "\n\n"
        }
        out += words.tableHeader([
            .apiColumnProperty, .apiColumnType, .apiColumnRequired, .apiColumnDescription,
        ])
        out += rows.joined()
        return out + "\n"
    }

    /// One row per property; nested objects (not references) add their properties as
    /// `parent.child` rows, a few levels deep.
    private static func collectProperties(
        _ schema: JSONValue, prefix: String, depth: Int, words: SiteWords, into rows: inout [String]
    ) {
        let required = Set((schema["required"]?.items ?? []).compactMap(\.string))
        for (name, property) in schema["properties"]?.sortedMembers ?? [] {
            let fullName = prefix + name
            var description = property["description"]?.string ?? ""
            if let values = property["enum"]?.items, !values.isEmpty {
                let list = values.map { MarkdownText.code($0.literal) }.joined(separator: ", ")
                description += (description.isEmpty ? "" : " ") + words.markdown(.apiEnum, ["values": list])
            }
            if let example = property["example"] {
                description +=
                    (description.isEmpty ? "" : " ")
                    + words.markdown(.apiExample, ["example": MarkdownText.code(example.literal)])
            }
            rows.append(
                "| \(MarkdownText.cellCode(fullName)) | \(MarkdownText.cell(typeSummary(property, words: words))) | "
                    + "\(words.markdown(required.contains(name) ? .tableYes : .tableNo)) | "
                    + "\(MarkdownText.cell(description)) |\n")
            if depth < 3, property["$ref"] == nil, property["properties"] != nil {
                collectProperties(
                    property, prefix: fullName + ".", depth: depth + 1, words: words, into: &rows)
            }
            if depth < 3, let items = property["items"], items["$ref"] == nil, items["properties"] != nil {
                collectProperties(
                    items, prefix: fullName + "[].", depth: depth + 1, words: words, into: &rows)
            }
        }
    }

    /// `string (uri)`, `array of [Link](#link)`, `one of A, B`.
    static func typeSummary(_ schema: JSONValue?, words: SiteWords) -> String {
        guard let schema else { return words.markdown(.apiTypeAny) }
        if let name = referenceName(schema) {
            return "[\(MarkdownText.escape(name))](#schema-\(Slugger.slug(name)))"
        }
        for combiner in ["oneOf", "anyOf", "allOf"] {
            if let options = schema[combiner]?.items, !options.isEmpty {
                let types = options.map { typeSummary($0, words: words) }.joined(separator: ", ")
                return words.markdown(combiner == "allOf" ? .apiTypeAllOf : .apiTypeOneOf, ["types": types])
            }
        }
        // JSON Schema's type names (`string`, `object`) are code, in every language.
        var type: String
        switch schema["type"] {
        case .string(let name): type = name
        case .array(let names):
            type = names.compactMap(\.string).joined(separator: " \(words.markdown(.apiTypeOr)) ")
        default: type = schema["properties"] != nil ? "object" : words.markdown(.apiTypeAny)
        }
        if type == "array" {
            type = words.markdown(.apiTypeArrayOf, ["type": typeSummary(schema["items"], words: words)])
        }
        if let format = schema["format"]?.string { type += " (\(format))" }
        if schema["nullable"]?.bool == true { type = words.markdown(.apiTypeNullable, ["type": type]) }
        return type
    }

    /// `Link` for `{"$ref": "#/components/schemas/Link"}`.
    static func referenceName(_ value: JSONValue) -> String? {
        guard let reference = value["$ref"]?.string else { return nil }
        return reference.split(separator: "/").last.map(String.init)
    }
}
