import CommandLineKit
import DeepLinkCore
import Doctor
import Foundation

/// `workbook assetlinks`: questions about a Digital Asset Links file (chapter 4).
let assetLinksCommand = Command(
    CommandSpec(
        name: "assetlinks",
        abstract: "Ask questions of an assetlinks.json file.",
        discussion: """
            assetlinks.json is the website's half of an Android App Link: a list of statements
            granting apps, named by package and signing-certificate fingerprint, the right to open
            the site's links. 'lint' checks the file; 'verify' says whether one build of one app
            is authorised.
            """),
    subcommands: [assetLinksLintCommand, assetLinksVerifyCommand])

/// `workbook assetlinks lint FILE`
let assetLinksLintCommand = jsonLintCommand(
    file: "assetlinks.json",
    question: "can Android's verifier use this file, and does it say what its author meant?",
    pathExample: "[0].target.sha256_cert_fingerprints[1]", codeExample: "assetlinks.fingerprint-format",
    chapter: 4,
    example: (
        "workbook assetlinks lint assetlinks.json",
        """
        assetlinks.json: error assetlinks.missing-field [0].target.package_name: required field \
        "package_name" is missing
        """
    ),
    lint: AssetLinksLinter.lint)

/// `workbook assetlinks verify FILE --package P --fingerprint F`
let assetLinksVerifyCommand = Command(
    CommandSpec(
        name: "verify",
        abstract: "Say whether an assetlinks.json file authorises an app to open the site's links.",
        discussion: """
            Answers the question Android's verifier asks the site: does this file grant
            delegate_permission/common.handle_all_urls to package P signed with the certificate
            whose SHA-256 fingerprint is F? Prints one sentence: which statement authorises the
            app, or what is missing (the package, this fingerprint, or the relation). A file that
            says nothing of the app itself but includes another statement list names that list:
            'workbook doctor' fetches and checks it.

            Use the fingerprint of the certificate that signed the build on the device: with Play
            App Signing that is Google's key, not your upload key. keytool -list -v and
            'adb shell pm get-app-links PACKAGE' print it. Case and colons do not matter in
            --fingerprint. They do in the file: Android compares the file's text exactly with the
            uppercase, colon-separated fingerprint it computes, so an entry in lower case
            authorises nothing, and the answer says so.

            Exit status: 0 when the app is authorised, 1 when it is not, 2 when the file is
            missing or not a JSON array, or F is not a SHA-256 fingerprint.

            Example:
              $ workbook assetlinks verify assetlinks.json --package com.example.shop \\
                  --fingerprint A4:D4:51:EC:23:46:37:26:F7:2C:43:D6:4C:71:09:68:F6:B6:02:CD:65:3B:4D:E8:AD:EE:1B:55:62:40:A8:29
              authorised by statement [0]
            """,
        arguments: [ArgumentSpec("FILE", help: "The assetlinks.json file.")],
        options: [
            OptionSpec("package", value: "PACKAGE", help: "The app's package name (application ID)."),
            OptionSpec(
                "fingerprint", value: "SHA256", help: "The SHA-256 fingerprint of the signing certificate."),
        ],
        usage: ["<FILE> --package PACKAGE --fingerprint SHA256"])
) { arguments, console in
    let command = ["workbook", "assetlinks", "verify"]
    let package = try CommandInput.requiredValue("package", in: arguments, command: command)
    let fingerprint = try CommandInput.requiredValue("fingerprint", in: arguments, command: command)
    let path = arguments[0] ?? ""
    let data = try CommandInput.readJSON(path)
    let verdict: AssetLinksVerifier.Verdict
    do throws(AssetLinks.DecodeError) {
        verdict = try AssetLinksVerifier.verify(data, package: package, fingerprint: fingerprint)
    } catch {
        throw CommandError.badInput("\(path): \(error.message)")
    }
    switch verdict {
    case .invalidFingerprint:
        throw CommandError.badInput(
            AssetLinksVerifier.message(verdict) + "; expected 32 hex bytes such as 14:6D:E9:...")
    case .authorised:
        console.print(AssetLinksVerifier.message(verdict))
        return .success
    case .packageNotListed, .fingerprintNotListed, .fingerprintNotCanonical, .relationMissing, .delegated:
        console.print(AssetLinksVerifier.message(verdict))
        return .failure
    }
}
