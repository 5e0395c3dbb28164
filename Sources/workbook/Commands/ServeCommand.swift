import CommandLineKit
import Foundation
import LiterateCLI
import LiveSite
import MockServer
import SDKReference
import Serve

/// `workbook serve [--host ADDRESS] [--port PORT] [--config FILE] [--data-dir DIR] [--reset]
/// [--tls-cert FILE --tls-key FILE] [--test-clock] [--seed N] [--book DIR] [--no-site] [--reference]
/// [--request-head-timeout SECONDS] [--request-body-timeout SECONDS] [--max-connections-per-address N]`
let serveCommand = Command(
    CommandSpec(
        name: "serve",
        abstract: "Run the mock attribution server the book teaches (chapter 8), with the book's site.",
        discussion: """
            Serves the attribution API on your machine: POST /api/v1/track/open, the conversion
            endpoints, link management, the short links with their interstitial page, and the
            apple-app-site-association and assetlinks.json files generated from the configured
            apps. Every answered call is stored as an event in DIR/events.sqlite before the answer
            leaves; GET /api/v1/events (with the secret key) reads them back.

            Beside the API it serves the book as a live site at / (open the address it prints).
            The site is built in the background into BOOK/.build/serve-site/ (never committed),
            so the server answers at once; until the first build is ready, pages answer
            "Building the site..." and refresh themselves. While it runs, a save in chapters/,
            exercises/ or site/ rebuilds the site and open pages reload; the snippet checks run
            after each rebuild and their findings appear in a banner at the top of the page.
            When a chapter's Swift changes, the page also says to run ./wb tangle and restart,
            because the running server cannot load new code. API routes always win over site
            files. The "Try it" panels of chapter 8 and the API reference send real requests to
            this server. The simulator page (simulator.html) plays a deferred deep link step by
            step with the real SDK running inside the server, through POST /api/v1/sim/sessions
            and POST /api/v1/sim/sessions/{id}/events (at most 64 sessions, each ending after
            15 idle minutes). --no-site serves the API alone; --book DIR serves another book folder.
            The live routes: GET /_workbook/status, /_workbook/config and /_workbook/events.

            --reference (./wb serve passes it) also builds the SDK's API reference once, in the
            background, with 'workbook reference' into BOOK/.build/reference (its output goes to
            BOOK/.build/reference.log), and serves it at /reference/: the SDK's pages at
            /reference/documentation/li2sdk/. Until it is ready, /reference/ answers a page saying
            it is being built. It is not rebuilt on save; restart the server for a new one.

            Once it accepts connections it prints one line 'listening on http://HOST:PORT', then
            the URLs to try and the keys in use. Ctrl-C (or SIGTERM) stops it gracefully: requests
            in flight finish and their events are on disk before it exits.

            The configuration (JSON) names the link domains, the iOS and Android apps, the links
            and the two keys; the repository ships config/demo.json. The environment variables
            WORKBOOK_PUBLISHABLE_KEY and WORKBOOK_SECRET_KEY, when set, replace the configured keys.

            --test-clock runs the service on a clock that only moves when you call
            POST /api/v1/test/clock {"advanceSeconds": N} with the secret key, so a test can let a
            deferred record expire without waiting. Without the flag that route does not exist.
            --seed N draws every token (click tokens, clickIds, link keys and ids) from a generator
            seeded with N, so that the same calls get the same answers on every run; the console
            checker of 'workbook check' uses it. Seeded tokens are guessable: tests only.

            Binding to an address other than 127.0.0.1 exposes the server, and the keys it prints,
            to your network: do it only on a network you trust (chapter 12 explains how to try
            Universal Links from a phone with --tls-cert and --tls-key).

            Slow clients: a connection must deliver each request head within
            --request-head-timeout seconds (10 by default) of its start or of its previous
            request's end, however slowly it trickles bytes; it is closed otherwise. A request
            body must arrive within --request-body-timeout seconds (30 by default) of its head,
            plus 1 s for every 16 KiB it announces: a late body is answered 408 request_timeout
            and its connection closed. One client address may hold at most
            --max-connections-per-address connections at once (64 by default; a load test from
            127.0.0.1 with more connections must raise it); more are closed as they arrive. A
            request target (path and query) over 8 KiB is answered 414 uri_too_long, header
            fields over 32 KiB 431 header_fields_too_large.

            The Link Lab (lab.html, POST /api/v1/lab/…) answers questions about files a reader
            pastes; its doctor route fetches a domain's association files. It refuses a target
            that resolves to a loopback, private, link-local, multicast or reserved address, or
            whose port is not 443 (403 fetch_refused), connects to the address it checked,
            follows no redirect, and gives each fetch 5 s and 128 KB; one client address may ask
            10 times a minute. --lab-fetch-private lifts the address and port rules, to check a
            test server on this machine or your network.

            Exit status: 0 after a graceful stop, 1 when the server cannot start (the port is
            taken, the data folder cannot be written), 2 for an unusable configuration.

            Example:
              $ workbook serve --port 0
              listening on http://127.0.0.1:41873
              try:
                curl http://127.0.0.1:41873/healthz
                …
            """,
        options: [
            OptionSpec("host", value: "ADDRESS", help: "The numeric address to bind (default: 127.0.0.1)."),
            OptionSpec(
                "port", value: "PORT",
                help: "The port (default: \(MockServerRuntime.defaultPort)); 0 picks a free one."),
            OptionSpec("config", value: "FILE", help: "The configuration (default: config/demo.json)."),
            OptionSpec("data-dir", value: "DIR", help: "Where the event log lives (default: .workbook)."),
            OptionSpec("reset", help: "Delete the stored events before starting."),
            OptionSpec("tls-cert", value: "FILE", help: "Serve HTTPS with this PEM certificate (chain)."),
            OptionSpec("tls-key", value: "FILE", help: "The PEM private key for --tls-cert."),
            OptionSpec(
                "test-clock", help: "Start on a manual clock and enable POST /api/v1/test/clock (tests only)."
            ),
            OptionSpec("seed", value: "N", help: "Draw tokens from a generator seeded with N (tests only)."),
            OptionSpec(
                "book", value: "DIR",
                help: "The book whose site to serve (default: the repository root, holding chapters/)."),
            OptionSpec("no-site", help: "Serve the API only: no site, no rebuilds."),
            OptionSpec(
                "full-rebuild",
                help: "Weave the whole site on every save, keeping nothing of the previous build."),
            OptionSpec("timings", help: "After each rebuild, print how long each stage of it took."),
            OptionSpec(
                "reference",
                help: "Build the SDK's API reference once, in the background; serve it at /reference/."),
            OptionSpec(
                "request-head-timeout", value: "SECONDS",
                help: "Close a connection whose request head takes longer (default: 10)."),
            OptionSpec(
                "request-body-timeout", value: "SECONDS",
                help: "Answer 408 to a body slower than this plus 1 s per 16 KiB (default: 30)."),
            OptionSpec(
                "max-connections-per-address", value: "N",
                help: "Connections one client address may hold at once (default: 64)."),
            OptionSpec(
                "lab-fetch-private",
                help: "Let the Link Lab's doctor fetch from loopback and private addresses, any port."),
        ])
) { arguments, console in
    var options = try ServeOptions.parse(arguments)
    let site = try ServeOptions.site(arguments, console: console)
    if let site {
        options.liveSite = LiveSite(words: site.serverWords)
        options.version = workbookVersion
    }
    // The reference is served beside the site, so --no-site serves none.
    let reference = site.flatMap {
        arguments.flag("reference") ? ReferenceSession.Settings(bookRoot: $0.bookRoot) : nil
    }
    return ServeSession.run(options, site: site, reference: reference, console: console)
}
