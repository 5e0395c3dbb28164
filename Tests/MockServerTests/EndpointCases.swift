import AttributionService
import Foundation
import HTTPCore
import MockServer
import MockServerTesting
import Testing

/// One call to the server and the whole response it must get, after optional set-up calls on
/// the same (fresh) server. The in-process and the live suites run the same table.
struct EndpointCase: CustomTestStringConvertible, Sendable {
    var id: String
    var source: String
    var setup: [HTTPRequest] = []
    var testClock = false
    var request: HTTPRequest
    var expected: HTTPResponse

    var testDescription: String { "\(id): \(source)" }
}

let iPhoneSafari =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    + "Version/17.5 Mobile/15E148 Safari/604.1"
let androidChrome =
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 "
    + "Mobile Safari/537.36"
let desktopFirefox = "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0"
let iosApp = "Shop/3.2 CFNetwork/1490.0.4 Darwin/23.2.0"

let summerJSON =
    #"{"domain":"go.example","id":"link_summer","key":"summer","url":"https://shop.example/sale?campaign=summer"}"#
let noStore: HTTPHeaders = ["Cache-Control": "no-store"]

let expectedAASA = """
    {
      "applinks" : {
        "details" : [
          {
            "appIDs" : [
              "ABCDE12345.com.example.shop"
            ],
            "components" : [
              {
                "/" : "/api/*",
                "exclude" : true
              },
              {
                "/" : "/healthz",
                "exclude" : true
              },
              {
                "/" : "/l/*",
                "exclude" : true
              },
              {
                "/" : "/*",
                "comment" : "every short link"
              }
            ]
          }
        ]
      }
    }
    """

let expectedAssetLinks = """
    [
      {
        "relation" : [
          "delegate_permission/common.handle_all_urls"
        ],
        "target" : {
          "namespace" : "android_app",
          "package_name" : "com.example.shop",
          "sha256_cert_fingerprints" : [
            "\(TestServer.fingerprint)"
          ]
        }
      }
    ]
    """

/// A track/open of the summer link from an iPhone app.
let openSummer = post(
    "/api/v1/track/open", #"{"deepLink":"https://go.example/summer"}"#,
    headers: ["X-Li2-Key": TestServer.publishableKey, "User-Agent": iosApp])

/// The event `openSummer` leaves as the `n`th call (the counting token source numbers its click ids).
func summerOpenEvent(_ n: Int) -> String {
    #"{"at":"\#(TestServer.startText)","clickId":"\#(TestServer.token(n))","id":\#(n),"linkId":"link_summer","#
        + #""matchMethod":"universal_link","platform":"ios","type":"open"}"#
}

/// A sale that carries an email, so that it may create its customer (no lead came first).
let summerSale =
    #"{"click_id":"Xq2hT8bLm4RwZc1N","external_id":"user_42","amount":4999,"invoice_id":"in_1001","email":"ada@example.com"}"#

let endpointCases: [EndpointCase] = [
    // The server itself.
    EndpointCase(
        id: "healthz", source: "this book: the mock server's /healthz and /api/v1/openapi.json",
        request: get("/healthz"),
        expected: jsonResponse(200, #"{"status":"ok"}"#)),
    EndpointCase(
        id: "openapi", source: "this book: the mock server's /healthz and /api/v1/openapi.json",
        request: get("/api/v1/openapi.json"),
        expected: HTTPResponse(
            status: .ok, headers: ["Content-Type": "application/json"],
            body: ServerResources.openAPIDocument(for: TestServer.configuration))
    ),
    EndpointCase(
        id: "aasa", source: "this book: chapter 03, Hosting the file",
        request: get("/.well-known/apple-app-site-association"),
        expected: HTTPResponse(
            status: .ok, headers: ["Content-Type": "application/json"], body: Data(expectedAASA.utf8))),
    EndpointCase(
        id: "assetlinks", source: "this book: chapter 04, The site's half: assetlinks.json",
        request: get("/.well-known/assetlinks.json"),
        expected: HTTPResponse(
            status: .ok, headers: ["Content-Type": "application/json"], body: Data(expectedAssetLinks.utf8))),
    EndpointCase(
        id: "wrong-method", source: "RFC 9110 §15.5.6",
        request: get("/api/v1/track/open"),
        expected: errorResponse(
            405, "method_not_allowed", "GET is not allowed here; use POST", headers: ["Allow": "POST"])),
    EndpointCase(
        id: "unknown-path",
        source: "this book: short links are served at /l/DOMAIN/KEY, and at /KEY on a link domain",
        request: get("/favicon.ico"), expected: errorResponse(404, "not_found", "no route for /favicon.ico")),

    // track/open
    EndpointCase(
        id: "open-universal-link", source: "this book: chapter 08, Which platform?",
        request: post(
            "/api/v1/track/open", #"{"deepLink":"https://go.example/summer"}"#,
            headers: ["X-Li2-Key": TestServer.publishableKey, "User-Agent": iosApp]),
        expected: jsonResponse(
            200,
            #"{"clickId":"T000000000000001","link":\#(summerJSON),"matchMethod":"universal_link","platform":"ios"}"#
        )),
    EndpointCase(
        id: "open-clipboard-empty", source: "this book: chapter 08, Matches and misses",
        request: post(
            "/api/v1/track/open", #"{"li2Domains":["go.example"],"clipboardStatus":"empty"}"#,
            headers: publishable),
        expected: jsonResponse(
            200,
            #"{"clickId":"T000000000000001","link":null,"missReason":"clipboard_empty","platform":"ios"}"#)),
    EndpointCase(
        id: "open-secret-key-refused", source: "this book: chapter 08, Keys: publishable and secret",
        request: post(
            "/api/v1/track/open", #"{"deepLink":"https://go.example/nope"}"#,
            headers: ["Authorization": "Bearer \(TestServer.secretKey)", "X-Li2-Platform": "android"]),
        expected: errorResponse(
            401, "publishable_key_required",
            "a secret (server) key was sent where the app's publishable key (li2_pk_…) belongs",
            headers: unauthorizedHeaders)),
    EndpointCase(
        id: "open-without-key", source: "this book: chapter 08, Keys: publishable and secret",
        request: post("/api/v1/track/open", #"{"deepLink":"https://go.example/summer"}"#),
        expected: errorResponse(
            401, "missing_key", "an API key is required: send X-Li2-Key or Authorization: Bearer",
            headers: unauthorizedHeaders)),
    EndpointCase(
        id: "open-unknown-key", source: "this book: chapter 08, Keys: publishable and secret",
        request: post(
            "/api/v1/track/open", #"{"deepLink":"https://go.example/summer"}"#,
            headers: ["X-Li2-Key": "li2_pk_someone_else"]),
        expected: errorResponse(401, "invalid_key", "the API key is not valid", headers: unauthorizedHeaders)),
    EndpointCase(
        id: "open-nothing-to-resolve", source: "this book: chapter 08, Refusals",
        request: post("/api/v1/track/open", #"{"clipboardStatus":"empty"}"#, headers: publishable),
        expected: errorResponse(
            400, "missing_field", "one of deepLink, li2Domains or installReferrer is required")),
    EndpointCase(
        id: "open-wrong-type", source: "this book: chapter 08, Refusals",
        request: post("/api/v1/track/open", #"{"li2Domains":"go.example"}"#, headers: publishable),
        expected: errorResponse(400, "invalid_field", "field 'li2Domains' must be an array")),
    EndpointCase(
        id: "open-malformed-json", source: "this book: chapter 08, Refusals",
        request: post("/api/v1/track/open", #"{"deepLink":"#, headers: publishable),
        expected: errorResponse(
            400, "invalid_json",
            "request body is not valid JSON at line 1, column 13: the JSON text ends too early")),
    EndpointCase(
        id: "open-trailing-comma", source: "RFC 8259 §4",
        request: post(
            "/api/v1/track/open", #"{"deepLink":"https://go.example/summer",}"#, headers: publishable),
        expected: errorResponse(
            400, "invalid_json",
            "request body is not valid JSON at line 1, column 40: a comma before '}': remove the trailing comma"
        )),
    EndpointCase(
        id: "open-utf16-without-bom", source: "RFC 8259 §8.1",
        request: HTTPRequest(
            method: .post, target: "/api/v1/track/open", headers: publishable,
            body: #"{"li2Domains":["go.example"]}"#.data(using: .utf16LittleEndian)!),
        expected: errorResponse(
            400, "invalid_json",
            "request body is not valid JSON at line 1, column 2: expected a key in double quotes")),
    EndpointCase(
        id: "lead-trailing-comma", source: "this book: chapter 21, Refusals",
        request: post("/api/v1/track/lead", #"{"click_id":"Xq2hT8bLm4RwZc1N",}"#, headers: publishable),
        expected: jsonResponse(
            400,
            #"{"code":400,"data":null,"error_code":"INVALID_REQUEST","message":"request body is not valid JSON "#
                + #"at line 1, column 31: a comma before '}': remove the trailing comma"}"#)),
    EndpointCase(
        id: "open-invalid-utf8", source: "RFC 8259 §8.1",
        request: HTTPRequest(
            method: .post, target: "/api/v1/track/open", headers: publishable,
            body: Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])),
        expected: errorResponse(400, "invalid_utf8", "request body is not valid UTF-8")),
    EndpointCase(
        id: "open-oversize", source: "this book: chapter 21, The HTTP shell",
        request: HTTPRequest(
            method: .post, target: "/api/v1/track/open", headers: publishable, body: Data(count: 65_537)),
        expected: errorResponse(413, "payload_too_large", "request body exceeds 65536 bytes")),

    // Conversions
    EndpointCase(
        id: "lead-anonymous", source: "this book: chapter 08, Conversions: lead, sale, identify",
        request: post("/api/v1/track/lead", #"{"click_id":"Xq2hT8bLm4RwZc1N"}"#, headers: publishable),
        expected: jsonResponse(
            200,
            #"{"code":200,"data":{"customer_id":"anon_Xq2hT8bLm4RwZc1N","success":true},"#
                + #""message":"Lead tracked successfully"}"#)),
    EndpointCase(
        id: "lead-missing-click-id", source: "this book: chapter 08, Conversions: lead, sale, identify",
        request: post("/api/v1/track/lead", #"{"external_id":"user_42"}"#, headers: publishable),
        expected: jsonResponse(
            400, #"{"code":400,"data":null,"error_code":"INVALID_REQUEST","message":"click_id is required"}"#)
    ),
    EndpointCase(
        id: "lead-without-key",
        source: "this book: chapter 08, Conversions: lead, sale, identify",
        request: post("/api/v1/track/lead", #"{"click_id":""}"#),
        expected: jsonResponse(
            401,
            #"{"code":401,"data":null,"error_code":"UNAUTHORIZED","message":"an API key is required: send X-Li2-Key or Authorization: Bearer"}"#,
            headers: unauthorizedHeaders)),
    EndpointCase(
        id: "sale-secret-key-refused", source: "this book: chapter 08, Keys: publishable and secret",
        request: post(
            "/api/v1/track/sale", #"{"click_id":"","external_id":"user_42","amount":100}"#,
            headers: ["X-Li2-Key": TestServer.secretKey]),
        expected: jsonResponse(
            401,
            #"{"code":401,"data":null,"error_code":"UNAUTHORIZED","message":"a secret (server) key was sent where the app's publishable key (li2_pk_…) belongs"}"#,
            headers: unauthorizedHeaders)),
    EndpointCase(
        id: "sale-of-zero", source: "this book: chapter 08, When Li2 refuses a conversion",
        request: post(
            "/api/v1/track/sale", #"{"click_id":"","external_id":"user_42","amount":0}"#, headers: publishable
        ),
        expected: jsonResponse(
            400,
            #"{"code":400,"data":null,"error_code":"INVALID_REQUEST","message":"amount must be greater than 0, in minor units"}"#
        )),
    EndpointCase(
        id: "sale-attributed", source: "this book: chapter 08, Conversions: lead, sale, identify",
        request: post("/api/v1/track/sale", summerSale, headers: publishable),
        expected: jsonResponse(
            200,
            #"{"code":200,"data":{"customer_id":"user_42","sale_event_id":"sale_T000000000000001","success":true},"#
                + #""message":"Sale tracked successfully"}"#)),
    EndpointCase(
        id: "sale-customer-not-found", source: "this book: chapter 08, When Li2 refuses a conversion",
        request: post(
            "/api/v1/track/sale", #"{"click_id":"","external_id":"user_9","amount":100}"#,
            headers: publishable),
        expected: jsonResponse(
            400,
            #"{"code":400,"data":null,"error_code":"INVALID_REQUEST","message":"customer not found: no lead "#
                + #"names external_id user_9 yet; send email, name or phone to create the customer"}"#)),
    EndpointCase(
        id: "sale-repeated-invoice", source: "this book: chapter 08, The same invoice twice",
        setup: [post("/api/v1/track/sale", summerSale, headers: publishable)],
        request: post("/api/v1/track/sale", summerSale, headers: publishable),
        expected: jsonResponse(
            200,
            #"{"code":200,"data":{"customer_id":"user_42","sale_event_id":"sale_T000000000000001","success":true},"#
                + #""message":"Sale already tracked for invoice_id in_1001"}"#)),
    EndpointCase(
        id: "sale-wrong-type", source: "this book: chapter 21, Refusals",
        request: post(
            "/api/v1/track/sale", #"{"click_id":"","external_id":"u","amount":"12"}"#, headers: publishable),
        expected: jsonResponse(
            400,
            #"{"code":400,"data":null,"error_code":"INVALID_REQUEST","message":"field 'amount' must be an integer"}"#
        )),

    // Management
    EndpointCase(
        id: "create-link", source: "this book: chapter 08, Managing links",
        request: post(
            "/api/v1/links", #"{"domain":"go.example","key":"spring","url":"https://shop.example/spring"}"#,
            headers: secret),
        expected: jsonResponse(
            201,
            #"{"domain":"go.example","id":"link_T000000000000001","key":"spring","#
                + #""shortLink":"https://go.example/spring","url":"https://shop.example/spring"}"#)),
    EndpointCase(
        id: "create-link-taken", source: "this book: chapter 08, Trying it",
        request: post(
            "/api/v1/links", #"{"domain":"go.example","key":"summer","url":"https://shop.example/"}"#,
            headers: secret),
        expected: errorResponse(409, "key_taken", "the key summer is already used on go.example")),
    EndpointCase(
        id: "create-link-missing-url", source: "this book: chapter 08, Managing links",
        request: post("/api/v1/links", #"{"domain":"go.example"}"#, headers: secret),
        expected: errorResponse(400, "missing_field", "field 'url' is required")),
    EndpointCase(
        id: "create-link-publishable-header", source: "this book: chapter 08, Keys: publishable and secret",
        request: post(
            "/api/v1/links", #"{"domain":"go.example","url":"https://shop.example/"}"#, headers: publishable),
        expected: errorResponse(
            403, "secret_key_required",
            "this endpoint needs a secret key (li2_sk_…); a publishable key may only track")),
    EndpointCase(
        id: "list-links-publishable-bearer", source: "this book: chapter 08, Keys: publishable and secret",
        request: get("/api/v1/links", headers: ["Authorization": "Bearer \(TestServer.publishableKey)"]),
        expected: errorResponse(
            403, "secret_key_required",
            "this endpoint needs a secret key (li2_sk_…); a publishable key may only track")),
    EndpointCase(
        id: "list-links", source: "this book: chapter 08, Managing links",
        request: get("/api/v1/links", headers: secret),
        expected: jsonResponse(
            200,
            #"{"links":[{"domain":"go.example","id":"link_summer","key":"summer","#
                + #""shortLink":"https://go.example/summer","url":"https://shop.example/sale?campaign=summer"},"#
                + #"{"domain":"go.example","id":"link_winter","key":"winter","#
                + #""shortLink":"https://go.example/winter","url":"https://shop.example/winter"}]}"#)),
    EndpointCase(
        id: "events-newest-first", source: "this book: chapter 08, Managing links",
        setup: [
            post(
                "/api/v1/track/open", #"{"deepLink":"https://go.example/summer"}"#,
                headers: ["X-Li2-Key": TestServer.publishableKey, "User-Agent": iosApp]),
            post(
                "/api/v1/track/lead", #"{"click_id":"T000000000000001","external_id":"user_42"}"#,
                headers: publishable),
        ],
        request: get("/api/v1/events?limit=5", headers: secret),
        expected: jsonResponse(
            200,
            #"{"events":[{"at":"\#(TestServer.startText)","attribution":"attributed","clickId":"T000000000000001","#
                + #""customerId":"user_42","eventName":"Sign up","externalId":"user_42","id":2,"type":"lead"},"#
                + #"{"at":"\#(TestServer.startText)","clickId":"T000000000000001","id":1,"linkId":"link_summer","#
                + #""matchMethod":"universal_link","platform":"ios","type":"open"}],"next":null,"total":2}"#)),
    EndpointCase(
        id: "events-first-page", source: "this book: chapter 21, The HTTP shell",
        setup: [openSummer, openSummer, openSummer],
        request: get("/api/v1/events?limit=2", headers: secret),
        expected: jsonResponse(
            200,
            #"{"events":[\#(summerOpenEvent(3)),\#(summerOpenEvent(2))],"next":"2","total":3}"#)),
    EndpointCase(
        id: "events-last-page", source: "this book: chapter 21, The HTTP shell",
        setup: [openSummer, openSummer, openSummer],
        request: get("/api/v1/events?limit=2&after=2", headers: secret),
        expected: jsonResponse(200, #"{"events":[\#(summerOpenEvent(1))],"next":null,"total":3}"#)),
    EndpointCase(
        id: "events-bad-cursor", source: "this book: chapter 21, The HTTP shell",
        request: get("/api/v1/events?after=-3", headers: secret),
        expected: errorResponse(
            400, "invalid_parameter", "query parameter 'after' must be the 'next' of a previous page")),
    EndpointCase(
        id: "events-bad-limit", source: "this book: chapter 21, The HTTP shell",
        request: get("/api/v1/events?limit=0", headers: secret),
        expected: errorResponse(
            400, "invalid_parameter", "query parameter 'limit' must be an integer from 1 to 1000")),
    EndpointCase(
        id: "test-clock-absent", source: "this book: chapter 08, Trying it",
        request: post("/api/v1/test/clock", #"{"advanceSeconds":60}"#, headers: secret),
        expected: errorResponse(404, "not_found", "no route for /api/v1/test/clock")),
    EndpointCase(
        id: "test-clock", source: "this book: chapter 08, Trying it", testClock: true,
        request: post("/api/v1/test/clock", #"{"advanceSeconds":90}"#, headers: secret),
        expected: jsonResponse(200, #"{"now":"2025-06-15T15:08:10.000Z"}"#)),
    EndpointCase(
        id: "test-clock-needs-secret", source: "this book: chapter 08, Trying it",
        testClock: true,
        request: post("/api/v1/test/clock", #"{"advanceSeconds":90}"#, headers: publishable),
        expected: errorResponse(
            403, "secret_key_required",
            "this endpoint needs a secret key (li2_sk_…); a publishable key may only track")),

    // CORS
    EndpointCase(
        id: "preflight", source: "WHATWG Fetch: CORS protocol",
        request: HTTPRequest(
            method: .options, target: "/api/v1/track/open",
            headers: [
                "Origin": TestServer.siteOrigin, "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type,x-li2-key",
            ]),
        expected: HTTPResponse(
            status: .noContent,
            headers: [
                "Access-Control-Allow-Origin": TestServer.siteOrigin,
                "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
                "Access-Control-Allow-Headers": "Authorization, Content-Type, X-Li2-Key, X-Li2-Platform",
                "Access-Control-Max-Age": "600", "Vary": "Origin",
            ])),
    EndpointCase(
        id: "preflight-other-origin",
        source: "this book: CORS answers only the site's own origin, and a foreign preflight gets 403",
        request: HTTPRequest(
            method: .options, target: "/api/v1/track/open",
            headers: ["Origin": "https://evil.example", "Access-Control-Request-Method": "POST"]),
        expected: errorResponse(
            403, "cors_origin_not_allowed", "origin https://evil.example is not allowed",
            headers: ["Vary": "Origin"])),
    EndpointCase(
        id: "cors-response", source: "WHATWG Fetch: CORS protocol",
        request: get("/healthz", headers: ["Origin": TestServer.siteOrigin]),
        expected: jsonResponse(
            200, #"{"status":"ok"}"#,
            headers: ["Access-Control-Allow-Origin": TestServer.siteOrigin, "Vary": "Origin"])),

    // Short links
    EndpointCase(
        id: "interstitial", source: "this book: chapter 21, The visit that plants the token",
        request: get("/l/go.example/summer", headers: ["User-Agent": iPhoneSafari]),
        expected: HTTPResponse(
            status: .ok, headers: ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"],
            body: Data(
                InterstitialPage.render(
                    Interstitial(
                        link: Link(
                            id: "link_summer", domain: "go.example", key: "summer",
                            url: "https://shop.example/sale?campaign=summer"),
                        token: "T000000000000001",
                        clipboardLink: "https://go.example/summer?li2_cid=T000000000000001",
                        appStoreURL: "https://apps.apple.com/app/id1234567890")
                ).utf8))),
    EndpointCase(
        id: "play-store", source: "this book: chapter 21, The visit that plants the token",
        request: get("/l/go.example/summer", headers: ["User-Agent": androidChrome]),
        expected: HTTPResponse(
            status: HTTPStatus(302),
            headers: [
                "Location": "https://play.google.com/store/apps/details?id=com.example.shop&referrer="
                    + "li2_dl%3Dhttps%253A%252F%252Fgo.example%252Fsummer%253Fli2_cid%253DT000000000000001",
                "Cache-Control": "no-store",
            ])),
    EndpointCase(
        id: "destination", source: "this book: chapter 21, The visit that plants the token",
        request: get("/l/go.example/winter", headers: ["User-Agent": desktopFirefox]),
        expected: HTTPResponse(
            status: HTTPStatus(302),
            headers: ["Location": "https://shop.example/winter", "Cache-Control": "no-store"])),
    EndpointCase(
        id: "short-link-by-host",
        source: "this book: short links are served at /l/DOMAIN/KEY, and at /KEY on a link domain",
        request: get("/winter", headers: ["Host": "go.example", "User-Agent": desktopFirefox]),
        expected: HTTPResponse(
            status: HTTPStatus(302),
            headers: ["Location": "https://shop.example/winter", "Cache-Control": "no-store"])),
    EndpointCase(
        id: "short-link-unknown",
        source: "this book: short links are served at /l/DOMAIN/KEY, and at /KEY on a link domain",
        request: get("/l/go.example/autumn", headers: ["User-Agent": iPhoneSafari]),
        expected: errorResponse(404, "link_not_found", "no link autumn on go.example")),
    EndpointCase(
        id: "short-link-other-domain",
        source: "this book: short links are served at /l/DOMAIN/KEY, and at /KEY on a link domain",
        request: get("/l/elsewhere.example/summer"),
        expected: errorResponse(404, "not_found", "no route for /l/elsewhere.example/summer")),
]

/// Every status the API answers with appears in the table.
let requiredStatuses: Set<Int> = [200, 201, 204, 400, 401, 403, 404, 409, 413]
