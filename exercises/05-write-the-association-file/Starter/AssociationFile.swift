/// The demo shop's `apple-app-site-association` file, as `https://example.com` serves it at
/// `/.well-known/apple-app-site-association`. The tests lint it with the book's `AASALinter` and
/// ask the book's `AASAMatcher` which URLs open the app.
///
/// The app is `com.example.shop`, signed by the team `ABCDE12345`.
// TODO: Write the file in the modern format (iOS 13 and later): one `details` entry with
//       `appIDs` and `components`. The README lists which URLs must open the app and which must
//       stay in Safari.
// TODO: Order matters: the first rule that matches decides, so exclusions come first.
// TODO: Paths must match in any case (`/Product/42` too). One setting in `applinks.defaults`
//       does it for every rule.
let associationFile = """
    {
      "applinks": {
        "details": []
      }
    }
    """
