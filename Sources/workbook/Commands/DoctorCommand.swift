import CommandLineKit
import DeepLinkCore
import Doctor
import Foundation

/// `workbook doctor URL-OR-DOMAIN [--timeout SECONDS]`
let doctorCommand = Command(
    CommandSpec(
        name: "doctor",
        abstract: "Check how a site serves its Universal Link and App Link files.",
        discussion: """
            Answers: would iOS and Android accept this site's association files, and which apps
            open this link? Fetches /.well-known/apple-app-site-association and
            /.well-known/assetlinks.json from the site the way Apple and Google do: one GET each,
            following no redirect (a redirect is reported with its Location). Then applies the
            hosting rules (HTTPS, status 200, Content-Type application/json, at most 128 KB for
            the AASA file), lints both files, and prints a verdict for iOS and one for Android.

            Given a URL with a path, also lists the iOS app IDs the AASA file lets open it, and the
            Android packages that assetlinks.json grants handle_all_urls (each app's intent
            filters then decide which paths it takes; see 'workbook applinks match').

            A bare domain means https://domain. Plain http:// is accepted only for 127.0.0.1 and
            localhost, to check a local server; the report then reminds you that production needs
            HTTPS.

            Exit status: 0 when both platforms pass, 1 when either fails (including a file that
            cannot be fetched), 2 when the argument is neither a domain nor a URL.

            Example (the site serves its AASA file well, but has no assetlinks.json):
              $ workbook doctor https://example.com/product/42
              Checking https://example.com
              Link: https://example.com/product/42

              iOS (Universal Links): https://example.com/.well-known/apple-app-site-association
                status 200, Content-Type: application/json, 103 bytes
                no problems found
                apps that open the link: ABCDE12345.com.example.shop
                verdict: pass

              Android (App Links): https://example.com/.well-known/assetlinks.json
                status 404, Content-Type: text/html, 9 bytes
                error hosting.status response.status: status 404; the file must be served with status 200
                error hosting.content-type response.headers.Content-Type: Content-Type is text/html; it must \
            be application/json
                file not checked: the body of a status 404 response is not the file
                who opens the link: unknown, there is no readable file
                verdict: FAIL (2 errors)

              Result: iOS pass, Android FAIL
            """,
        arguments: [
            ArgumentSpec(
                "URL-OR-DOMAIN", help: "A domain (example.com) or a link (https://example.com/product/42).")
        ],
        options: [
            OptionSpec(
                "timeout", value: "SECONDS", help: "Give up on each fetch after this long (default: 10).")
        ])
) { arguments, console in
    let command = ["workbook", "doctor"]
    var timeout: TimeInterval = 10
    if let text = arguments.value("timeout") {
        guard let seconds = TimeInterval(text), seconds > 0, seconds <= 600 else {
            throw CommandError.usage(
                "--timeout needs a number of seconds between 0 and 600", command: command)
        }
        timeout = seconds
    }
    let target = try DoctorTarget.parse(arguments[0] ?? "")
    var outcomes: [FetchOutcome] = []
    for url in [target.aasaURL, target.assetLinksURL] {
        if console.isInteractive { console.error("fetching \(url.absoluteString)") }
        outcomes.append(WellKnownFetcher.fetch(url, timeout: timeout))
    }
    // One level of the statement lists assetlinks.json includes, as Android reads them.
    var included: [URL: FetchOutcome] = [:]
    for url in DoctorReport.includedURLs(outcomes[1]) {
        if console.isInteractive { console.error("fetching \(url.absoluteString) (included)") }
        included[url] = WellKnownFetcher.fetch(url, timeout: timeout)
    }
    let report = DoctorReport(target: target, aasa: outcomes[0], assetLinks: outcomes[1], included: included)
    for line in report.lines { console.print(line) }
    return report.passed ? .success : .failure
}
