import Foundation
import Literate
import StrictJSON
import Testing

@testable import Weave

@Suite("Try it panels")
struct TryItPanelTests {
    static let trackOpenPanel = """
        <section class="try-it" data-method="POST" data-path="/api/v1/track/open" aria-label="Try POST /api/v1/track/open">
        <p class="try-it-title">Try it: <span class="try-it-method">POST</span> <input class="try-it-path" type="text" \
        value="/api/v1/track/open" aria-label="Path" spellcheck="false"></p>
        <label class="try-it-label">Headers
        <textarea class="try-it-headers" rows="3" spellcheck="false">X-Li2-Key: li2_pk_…
        Content-Type: application/json</textarea></label>
        <label class="try-it-label">Body
        <textarea class="try-it-body" rows="2" spellcheck="false">{&quot;deepLink&quot;: &quot;https://go.example/summer&quot;}</textarea></label>
        <p class="try-it-offline">Start the server to send it.</p>
        <button class="try-it-send" type="button">Send</button>
        <div class="try-it-result">
        <p class="try-it-status" role="status"></p>
        <pre class="try-it-response-headers"></pre>
        <pre class="try-it-response"></pre>
        </div>
        </section>

        """

    @Test func anHTTPBlockBecomesAPanelWithItsHeadersAndBody() throws {
        let panel = try #require(
            TryItPanel(httpLines: [
                "POST /api/v1/track/open HTTP/1.1", "X-Li2-Key: li2_pk_…", "Content-Type: application/json",
                "",
                #"{"deepLink": "https://go.example/summer"}"#, "",
            ]))
        #expect(
            panel
                == TryItPanel(
                    method: "POST", path: "/api/v1/track/open",
                    headers: ["X-Li2-Key: li2_pk_…", "Content-Type: application/json"],
                    body: #"{"deepLink": "https://go.example/summer"}"#))
        #expect(panel.html(TemporaryBook.words) == Self.trackOpenPanel)
        #expect(!panel.html(TemporaryBook.words).contains("\n\n"))
    }

    @Test func aBlockThatIsNotARequestGetsNoPanel() {
        #expect(TryItPanel(httpLines: ["HTTP/1.1 200 OK", "Content-Type: application/json"]) == nil)
        #expect(TryItPanel(httpLines: []) == nil)
    }

    @Test func aTryLiveBlockRendersItsPanelAfterTheCode() throws {
        let book = try TemporaryBook(chapters: [
            "01-call.md": """
            # A call

            ```http {try=live}
            GET /healthz HTTP/1.1
            ```

            """
        ])
        // The book says how to start its server.
        let report = try book.build { $0.tryItOfflineNote = "Run <code>serve</code> first." }
        #expect(!report.hasErrors)
        var expected = TryItPanel(method: "GET", path: "/healthz", headers: [], body: "")
        expected.offlineNote = "Run <code>serve</code> first."
        let panel = expected.html(TemporaryBook.words)
        // The panel follows the code block it sends.
        #expect(
            book.fragment("chapters/01-call.html", from: "<figure", to: "</section>") == """
                <figure class="code" id="code-3">
                <figcaption class="code-header"><span class="code-lang">http</span><span class="badge \
                badge-display-only" title="Nothing checks this snippet: it is shown as written.">display-only</span>\
                </figcaption>
                <pre><code class="language-http"><span class="code-text">GET /healthz HTTP/1.1
                </span></code></pre>
                </figure>
                \(panel.dropLast())
                """)
        Snapshot.expect(
            try #require(book.output("chapters/01-call.html")), matches: "try-it/chapters/01-call.html")
    }

    static let document = """
        {
          "openapi": "3.0.3",
          "info": {"title": "API", "version": "1"},
          "paths": {
            "/api/v1/track/lead": {"post": {
              "security": [{"apiKeyHeader": []}, {"bearerKey": []}],
              "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Lead"}}}},
              "responses": {"200": {"description": "ok"}}}},
            "/api/v1/links": {"get": {
              "security": [{"bearerKey": []}, {"apiKeyHeader": []}],
              "responses": {"200": {"description": "ok"}}}},
            "/api/v1/test/clock": {"post": {
              "requestBody": {"content": {"application/json": {"example": {"advanceSeconds": 60}}}},
              "responses": {"200": {"description": "ok"}}}}
          },
          "components": {
            "securitySchemes": {
              "apiKeyHeader": {"type": "apiKey", "in": "header", "name": "X-Li2-Key"},
              "bearerKey": {"type": "http", "scheme": "bearer"}
            },
            "schemas": {"Lead": {"type": "object", "required": ["click_id"], "properties": {
              "click_id": {"type": "string"}, "email": {"type": "string", "format": "email"},
              "amount": {"type": "integer", "example": 1200}}}}
          }
        }
        """

    struct OperationCase: Sendable, CustomTestStringConvertible {
        var id: String
        var source: String
        var method: String
        var path: String
        var expected: TryItPanel
        var testDescription: String { id }
    }

    static let operationCases: [OperationCase] = [
        .init(
            id: "publishable-key-and-schema-example",
            source: "this book: Try it panels follow the API document and never hold the secret key",
            method: "post", path: "/api/v1/track/lead",
            expected: TryItPanel(
                method: "POST", path: "/api/v1/track/lead",
                headers: ["X-Li2-Key: <publishable key>", "Content-Type: application/json"],
                body: "{\n  \"amount\": 1200,\n  \"click_id\": \"string\"\n}")),
        .init(
            id: "secret-key-placeholder-and-note",
            source: "this book: Try it panels follow the API document and never hold the secret key",
            method: "get", path: "/api/v1/links",
            expected: TryItPanel(
                method: "GET", path: "/api/v1/links", headers: ["Authorization: Bearer <secret key>"],
                body: "",
                note:
                    "This route takes the <strong>secret key</strong>: replace <code>&lt;secret key&gt;</code> "
                    + "with the one <code>workbook serve</code> printed when it started. "
                    + "Pages are never given the secret key.")),
        .init(
            id: "media-example", source: "OpenAPI 3.1.0: Media Type Object", method: "post",
            path: "/api/v1/test/clock",
            expected: TryItPanel(
                method: "POST", path: "/api/v1/test/clock", headers: ["Content-Type: application/json"],
                body: "{\n  \"advanceSeconds\": 60\n}")),
    ]

    @Test(arguments: operationCases)
    func everyOperationGetsAPanelFromTheDocument(_ operationCase: OperationCase) throws {
        let document = try JSONDecoder().decode(JSONValue.self, from: Data(Self.document.utf8))
        let operation = try #require(document["paths"]?[operationCase.path]?[operationCase.method])
        #expect(
            OpenAPIReference.tryItPanel(
                method: operationCase.method, path: operationCase.path, operation: operation,
                document: document, words: TemporaryBook.words)
                == operationCase.expected)
    }

    @Test func theReferencePageCarriesOnePanelPerOperation() throws {
        let markdown = try OpenAPIReference.markdown(
            json: Data(Self.document.utf8), page: OpenAPIPage(documentPath: "openapi.json"),
            words: TemporaryBook.words)
        #expect(markdown.components(separatedBy: "<section class=\"try-it\"").count - 1 == 3)
        #expect(!markdown.contains("li2_sk"))
    }
}
