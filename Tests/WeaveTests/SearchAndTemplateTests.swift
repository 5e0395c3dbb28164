import Foundation
import Literate
import Testing

@testable import Weave

/// The offline search index, the page template and the OpenAPI page, each compared whole.
struct SearchAndTemplateTests {
    @Test func searchSectionsFollowHeadingsAndKeepCodeApart() {
        let markdown = """
            # Routing

            Links become *routes*.

            ## Patterns

            A pattern like `/product/:id` matches.

            ```swift {#route-table}
            let table = 1
            ```

            #### A small heading stays in its section

            - one
            - two

            ```json
            {"routes": []}
            ```

            ## Patterns
            """
        let document = MarkdownParser.parse(markdown)
        let anchors = AnchorCollector.collect(document)
        let sections = SectionCollector.collect(
            document, pageTitle: "Routing", pageURL: "chapters/02-routing.html",
            headingIDs: anchors.headings.map(\.id))
        #expect(
            sections == [
                SearchSection(
                    page: "Routing", title: "Routing", url: "chapters/02-routing.html",
                    text: "Links become routes."),
                SearchSection(
                    page: "Routing", title: "Patterns", url: "chapters/02-routing.html#patterns",
                    text:
                        "A pattern like /product/:id matches. ⟨route-table⟩ A small heading stays in its section one two",
                    code: "let table = 1\n{\"routes\": []}"
                ),
                SearchSection(
                    page: "Routing", title: "Patterns", url: "chapters/02-routing.html#patterns-1", text: ""),
            ])
    }

    @Test func theSearchIndexIsJSONWithEveryStringEscaped() throws {
        let json = SearchIndex.json([
            SearchSection(
                page: "Q\"uote", title: "Back\\slash", url: "a.html#b", text: "tab\there\nline\u{1}")
        ])
        #expect(
            String(decoding: json, as: UTF8.self) == """
                {"version":2,"sections":[
                {"page":"Q\\"uote","title":"Back\\\\slash","url":"a.html#b","text":"tab\\there\\nline\\u0001"}
                ],
                "terms":["back","here","line","slash","tab"],
                "postings":[[0,80],[0,8],[0,8],[0,80],[0,8]]}

                """)
        let decoded = try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any]
        let sections = try #require(decoded?["sections"] as? [[String: String]])
        #expect(sections.first?["text"] == "tab\there\nline\u{1}")
        // The script is the same JSON assigned to a global, for pages opened from files.
        #expect(
            SearchIndex.script(json: json)
                == Array("window.WORKBOOK_SEARCH = ".utf8) + json.dropLast() + Array(";\n".utf8))
    }

    @Test func theBuiltIndexHoldsEveryPageSection() throws {
        let book = try TemporaryBook(copying: TemporaryBook.fixture)
        _ = try book.build()
        let data = try #require(book.output("search-index.json"))
        let decoded = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]
        let sections = try #require(decoded?["sections"] as? [[String: String]])
        let urls = sections.compactMap { $0["url"] }
        // Every page's sections in the site's order; the 404 page has none.
        #expect(
            urls == [
                "index.html#contents", "index.html#exercises", "chapters/01-greeting.html",
                "chapters/01-greeting.html#the-code", "chapters/02-farewell.html#saying-goodbye",
                "exercises/01-say-hello.html", "snippets.html", "snippets.html#tangled-blocks",
                "snippets.html#other-snippets", "api.html", "api.html#authentication", "api.html#endpoints",
                "api.html#get-greetname", "api.html#schemas", "api.html#greeting",
            ])
    }

    @Test func aTemplateFillsItsPlaceholdersAndInlinesIcons() throws {
        let template = try PageTemplate(
            text: "<title>{{ title }}</title>{{icon star}}<main>{{content}}</main>{{toc}}",
            icons: ["star": "<svg>*</svg>"])
        #expect(
            template.render(strings: ["title": "Routing", "content": "<p>x</p>"])
                == "<title>Routing</title><svg>*</svg><main><p>x</p></main>")
    }

    @Test func aTemplateRejectsUnknownPlaceholdersAndIcons() {
        #expect(throws: WeaveMessage.unknownPlaceholder(name: "titel")) {
            try PageTemplate(text: "{{titel}}", icons: [:])
        }
        #expect(throws: WeaveMessage.unknownPlaceholder(name: "icon nope")) {
            try PageTemplate(text: "{{icon nope}}", icons: [:])
        }
        #expect(throws: WeaveMessage.unclosedPlaceholder) { try PageTemplate(text: "{{title", icons: [:]) }
    }

    @Test func theRepositoryThemeLoads() throws {
        let theme = try Theme.load(TemporaryBook.theme)
        #expect(theme.assetFiles.contains("theme.css"))
        #expect(theme.assetFiles.contains("site.js"))
        #expect(theme.reservedIDs.contains("content"))
        #expect(theme.glossary.terms.count >= 20)
    }

    @Test func theOpenAPIDocumentBecomesMarkdown() throws {
        let json = """
            {"openapi": "3.0.3", "info": {"title": "Tiny", "version": "2"},
             "paths": {"/ping": {"post": {"summary": "Ping",
               "requestBody": {"required": true, "content": {"application/json": {"schema": {
                 "type": "object", "required": ["n"], "properties": {"n": {"type": "integer", "description": "A | B"}}}}}},
               "responses": {"204": {"description": "Pong."}}}}}}
            """
        let page = OpenAPIPage(
            documentPath: "openapi.json", liveNote: "Opened from files, this page cannot call a server.")
        let markdown = try OpenAPIReference.markdown(
            json: Data(json.utf8), page: page, words: TemporaryBook.words)
        // The panel's markup is pinned in TryItPanelTests; here, where it goes and what it holds.
        let ping = TryItPanel(
            method: "POST", path: "/ping", headers: ["Content-Type: application/json"],
            body: "{\n  \"n\": 1\n}"
        ).html(TemporaryBook.words)
        #expect(
            markdown == """
                # Tiny

                Version `2`, generated from `openapi.json` (OpenAPI 3.0.3).

                <p class="live-note" data-live-note>Opened from files, this page cannot call a server.</p>

                ## Endpoints

                ### POST `/ping`

                **Ping**

                \(ping)
                Request body \\(required\\)\\:

                `application/json`: object

                | Property | Type | Required | Description |
                | --- | --- | --- | --- |
                | `n` | integer | yes | A \\| B |

                Responses\\:

                - **204**: Pong.


                """)
        #expect(throws: WeaveMessage.self) {
            try OpenAPIReference.markdown(
                json: Data("[]".utf8), page: OpenAPIPage(documentPath: "x"), words: TemporaryBook.words)
        }
    }
}
