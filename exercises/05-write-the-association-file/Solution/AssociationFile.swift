/// The demo shop's `apple-app-site-association` file, as `https://example.com` serves it at
/// `/.well-known/apple-app-site-association`. The tests lint it with the book's `AASALinter` and
/// ask the book's `AASAMatcher` which URLs open the app.
///
/// The app is `com.example.shop`, signed by the team `ABCDE12345`.
let associationFile = """
    {
      "applinks": {
        "defaults": { "caseSensitive": false },
        "details": [
          {
            "appIDs": ["ABCDE12345.com.example.shop"],
            "components": [
              { "#": "no_universal_links", "exclude": true, "comment": "the page asked to stay in Safari" },
              { "/": "/promo/internal/*", "exclude": true, "comment": "previews for the marketing team" },
              { "/": "/product/?*" },
              { "/": "/order/?*" },
              { "/": "/profile" },
              { "/": "/promo/?*" }
            ]
          }
        ]
      }
    }
    """
