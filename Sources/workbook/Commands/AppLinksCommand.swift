import CommandLineKit
import DeepLinkCore
import Doctor
import Foundation
import Lab

/// `workbook applinks`: questions about the app's half of an Android App Link (chapter 4).
let appLinksCommand = Command(
    CommandSpec(
        name: "applinks",
        abstract: "Ask questions of an AndroidManifest.xml about the links it handles.",
        discussion: """
            An Android app declares the links it opens with intent filters in its manifest.
            'match' says which of them take a given URL, and whether each one is an App Link
            (verified, opens without asking) or a plain deep link.
            """),
    subcommands: [appLinksMatchCommand])

private let latest = IntentFilter.latestAPILevel

/// `workbook applinks match MANIFEST URL [--explain] [--api-level N] [--target-sdk N]`
let appLinksMatchCommand = Command(
    CommandSpec(
        name: "match",
        abstract: "List the intent filters of a manifest that accept a URL.",
        discussion: """
            Answers: which activities of this app take URL, and as what? Prints one line per
            intent filter that accepts it, in manifest order: the activity's full name, then
            app-link or deep-link. A filter accepts the URL when it declares the VIEW action
            and its <data> elements, merged as Android merges them, accept the scheme, host,
            port and path; categories do not change the list. Reads the source manifest (not
            the binary one inside an APK).

            An accepting filter is an app-link when it takes http or https links from a
            browser (VIEW, DEFAULT, BROWSABLE) and some filter of the app asks Android to
            verify the URL's host (autoVerify, VIEW, DEFAULT, BROWSABLE, only http/https, and
            that host). Android verifies hosts for the whole app, so one such filter is enough
            for every filter that uses the host.

            With --explain, prints instead one line per intent filter of the manifest, with its
            line number and what happens when a browser sends URL: accepted as an app link or a
            deep link, or rejected and why, including a missing BROWSABLE category (browsers only
            send links to BROWSABLE filters).

            With --api-level N, answers for a device at that API level (default 35). An
            attribute newer than the device is unknown there and adds no path:
            pathAdvancedPattern and pathSuffix need API 31, so below it a filter whose only
            path is pathSuffix takes every path of its host; the ssp attributes need API 19
            (sspAdvancedPattern and sspSuffix 31) and <uri-relative-filter-group> API 35.
            --explain names what it ignored.

            Which hosts Android verifies depends on the API level the app targets. From API 31,
            only the hosts of filters that ask for verification themselves count; an app that
            targets API 30 or lower has the hosts of every web filter verified as soon as one
            filter asks. The target comes from the manifest's <uses-sdk
            android:targetSdkVersion>, or from --target-sdk N when the manifest states none (a
            Gradle build usually sets it in build.gradle). Without either, the answer is for API
            31 and later, and a note says when an app targeting API 30 or lower would get
            another.

            Exit status: 0 when at least one filter accepts the URL, 1 when none does, 2 when the
            manifest is missing or malformed or the URL cannot be parsed, 64 when the command
            line is wrong (an --api-level out of range, for one).

            Example:
              $ workbook applinks match AndroidManifest.xml https://example.com/product/42
              com.example.shop.MainActivity app-link
            """,
        arguments: [
            ArgumentSpec("MANIFEST", help: "The source AndroidManifest.xml."),
            ArgumentSpec("URL", help: "The link to ask about, such as https://example.com/product/42."),
        ],
        options: [
            OptionSpec("explain", help: "Print the verdict of every intent filter instead of the list."),
            OptionSpec(
                "api-level", value: "N",
                help: "Answer for a device at this Android API level, 1 to \(latest) (default: \(latest))."),
            OptionSpec(
                "target-sdk", value: "N",
                help: "The API level the app targets, when the manifest states no targetSdkVersion."),
        ])
) { arguments, console in
    let apiLevel = try apiLevelOption("api-level", in: arguments) ?? latest
    let targetSDK = try apiLevelOption("target-sdk", in: arguments)
    let path = arguments[0] ?? ""
    let manifest = try CommandInput.readManifest(path)
    let url = try CommandInput.url(arguments[1] ?? "")
    let accepting = AppLinksListing.accepting(manifest, url: url, apiLevel: apiLevel, targetSDK: targetSDK)
    if arguments.flag("explain") {
        for line in AppLinksListing.explanation(manifest, url: url, apiLevel: apiLevel, targetSDK: targetSDK)
        {
            console.print(line)
        }
    } else {
        for line in accepting { console.print(line.description) }
        if accepting.isEmpty {
            console.error("no intent filter accepts \(url.absoluteString); run with --explain to see why")
        }
    }
    if let note = AppLinksListing.legacyNote(manifest, url: url, apiLevel: apiLevel, targetSDK: targetSDK) {
        console.error(note)
    }
    return accepting.isEmpty ? .failure : .success
}

/// The value of `--NAME N`, an Android API level from 1 to ``IntentFilter/latestAPILevel``; nil
/// when the option is not given.
private func apiLevelOption(_ name: String, in arguments: ParsedArguments) throws -> Int? {
    guard let text = arguments.value(name) else { return nil }
    guard let level = Int(text), (1...latest).contains(level) else {
        throw CommandError.usage(
            "--\(name) needs a whole number from 1 to \(latest), got '\(text)'",
            command: ["workbook", "applinks", "match"])
    }
    return level
}
