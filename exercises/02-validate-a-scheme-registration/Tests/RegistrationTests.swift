import Testing

@testable import ValidateASchemeRegistration

/// A scheme name and whether RFC 3986 allows it.
struct NameCase: CustomTestStringConvertible, Sendable {
    var id: String
    var source: String
    var name: String
    var valid: Bool
    var rule: String

    var testDescription: String { "\(id): \"\(name)\"" }
}

/// A registration and every finding it must produce, in order.
struct RegistrationCase: CustomTestStringConvertible, Sendable {
    var id: String
    var source: String
    var types: [URLType]
    var expected: [Finding]
    var rule: String

    var testDescription: String { id }
}

struct RegistrationTests {
    static let names: [NameCase] = [
        NameCase(
            id: "plain", source: "this book: chapter 01, What makes a good scheme name", name: "myapp",
            valid: true,
            rule: "letters only is the simplest valid scheme"),
        NameCase(
            id: "reverse-dns", source: "this book: chapter 01, What makes a good scheme name",
            name: "com.example.shop",
            valid: true, rule: "dots are allowed after the first letter"),
        NameCase(
            id: "plus-minus-digits", source: "this book: chapter 01, What makes a good scheme name",
            name: "x-app+v2", valid: true,
            rule: "'+', '-' and digits are allowed after the first letter"),
        NameCase(
            id: "upper-case", source: "this book: chapter 01, What makes a good scheme name", name: "MyApp",
            valid: true,
            rule: "upper-case letters are letters too; schemes are case-insensitive"),
        NameCase(
            id: "empty", source: "this book: chapter 01, What makes a good scheme name", name: "",
            valid: false,
            rule: "an empty name is no scheme"),
        NameCase(
            id: "separator", source: "this book: chapter 01, What makes a good scheme name", name: "myapp://",
            valid: false,
            rule: "register the name only, without ':' or '//'"),
        NameCase(
            id: "digit-first", source: "this book: chapter 01, What makes a good scheme name", name: "2fa",
            valid: false,
            rule: "the first character must be a letter"),
        NameCase(
            id: "underscore", source: "this book: chapter 01, What makes a good scheme name", name: "my_app",
            valid: false,
            rule: "'_' is not in the scheme grammar"),
        NameCase(
            id: "non-ascii-letter", source: "this book: chapter 01, What makes a good scheme name",
            name: "café",
            valid: false,
            rule: "only ASCII letters count: Character.isLetter is also true for 'é'"),
        NameCase(
            id: "non-ascii-first", source: "this book: chapter 01, What makes a good scheme name",
            name: "жapp",
            valid: false,
            rule: "only ASCII letters count, also as the first character"),
        NameCase(
            id: "space", source: "this book: chapter 01, What makes a good scheme name", name: "my app",
            valid: false,
            rule: "spaces are not in the scheme grammar"),
    ]

    static let registrations: [RegistrationCase] = [
        RegistrationCase(
            id: "clean", source: "this book: chapter 01, Registering a scheme",
            types: [URLType(name: "com.example.shop", schemes: ["myapp"], role: "Editor")], expected: [],
            rule: "the book's own registration has no findings"),
        RegistrationCase(
            id: "missing-name", source: "this book: chapter 01, Reading the registration back",
            types: [URLType(name: nil, schemes: ["myapp"])],
            expected: [
                Finding(severity: .warning, code: "url-type.missing-name", path: "CFBundleURLTypes[0]")
            ],
            rule: "a URL type without CFBundleURLName is a warning at the type's own path"),
        RegistrationCase(
            id: "name-not-reverse-dns", source: "this book: chapter 01, Reading the registration back",
            types: [URLType(name: "Shop", schemes: ["myapp"])],
            expected: [
                Finding(
                    severity: .warning, code: "url-type.name-not-reverse-dns",
                    path: "CFBundleURLTypes[0].CFBundleURLName")
            ],
            rule: "a name that is not reverse-DNS is a warning at .CFBundleURLName"),
        RegistrationCase(
            id: "unknown-role", source: "this book: chapter 01, Reading the registration back",
            types: [URLType(name: "com.example.shop", schemes: ["myapp"], role: "Owner")],
            expected: [
                Finding(
                    severity: .warning, code: "url-type.unknown-role",
                    path: "CFBundleURLTypes[0].CFBundleTypeRole")
            ],
            rule: "roles are Editor, Viewer, Shell or None; anything else is a warning"),
        RegistrationCase(
            id: "no-schemes", source: "this book: chapter 01, Reading the registration back",
            types: [URLType(name: "com.example.shop", schemes: [])],
            expected: [
                Finding(
                    severity: .error, code: "url-type.empty-schemes",
                    path: "CFBundleURLTypes[0].CFBundleURLSchemes")
            ],
            rule: "a URL type that registers no scheme is an error"),
        RegistrationCase(
            id: "separator", source: "this book: chapter 01, Reading the registration back",
            types: [URLType(name: "com.example.shop", schemes: ["myapp://"])],
            expected: [
                Finding(
                    severity: .error, code: "scheme.invalid-name",
                    path: "CFBundleURLTypes[0].CFBundleURLSchemes[0]")
            ],
            rule: "'myapp://' is an invalid name, found at its own index"),
        RegistrationCase(
            id: "well-known", source: "this book: chapter 01, Schemes you cannot have",
            types: [URLType(name: "com.example.shop", schemes: ["myapp", "HTTPS"])],
            expected: [
                Finding(
                    severity: .error, code: "scheme.well-known",
                    path: "CFBundleURLTypes[0].CFBundleURLSchemes[1]")
            ],
            rule: "https belongs to Safari in any case, so compare lower-cased"),
        RegistrationCase(
            id: "duplicate-across-types", source: "this book: chapter 01, Reading the registration back",
            types: [
                URLType(name: "com.example.shop", schemes: ["MyApp"]),
                URLType(name: "com.example.shop.widget", schemes: ["myapp"]),
            ],
            expected: [
                Finding(
                    severity: .error, code: "scheme.duplicate",
                    path: "CFBundleURLTypes[1].CFBundleURLSchemes[0]")
            ],
            rule: "MyApp and myapp are one scheme; the second registration is the error"),
        RegistrationCase(
            id: "duplicate-in-one-type", source: "this book: chapter 01, Reading the registration back",
            types: [URLType(name: "com.example.shop", schemes: ["myapp", "other", "myapp"])],
            expected: [
                Finding(
                    severity: .error, code: "scheme.duplicate",
                    path: "CFBundleURLTypes[0].CFBundleURLSchemes[2]")
            ],
            rule: "a scheme listed twice in one type is a duplicate too"),
        RegistrationCase(
            id: "everything-in-order", source: "this book: chapter 14, Findings",
            types: [
                URLType(name: nil, schemes: ["2fa", "tel", "ok"], role: "Boss"),
                URLType(name: "shop", schemes: ["OK"]),
            ],
            expected: [
                Finding(severity: .warning, code: "url-type.missing-name", path: "CFBundleURLTypes[0]"),
                Finding(
                    severity: .warning, code: "url-type.unknown-role",
                    path: "CFBundleURLTypes[0].CFBundleTypeRole"),
                Finding(
                    severity: .error, code: "scheme.invalid-name",
                    path: "CFBundleURLTypes[0].CFBundleURLSchemes[0]"),
                Finding(
                    severity: .error, code: "scheme.well-known",
                    path: "CFBundleURLTypes[0].CFBundleURLSchemes[1]"),
                Finding(
                    severity: .warning, code: "url-type.name-not-reverse-dns",
                    path: "CFBundleURLTypes[1].CFBundleURLName"),
                Finding(
                    severity: .error, code: "scheme.duplicate",
                    path: "CFBundleURLTypes[1].CFBundleURLSchemes[0]"),
            ],
            rule: "findings come in document order: name, role, schemes; then the next type"),
    ]

    /// Read: chapters/01-custom-url-schemes.md#what-makes-a-good-scheme-name
    @Test(arguments: names)
    func schemeNamesFollowTheRFCGrammar(_ testCase: NameCase) {
        #expect(
            isValidSchemeName(testCase.name) == testCase.valid,
            "\"\(testCase.name)\" should be \(testCase.valid ? "valid" : "invalid"): \(testCase.rule)")
    }

    /// Read: chapters/01-custom-url-schemes.md#reading-the-registration-back
    /// Read: chapters/01-custom-url-schemes.md#schemes-you-cannot-have
    @Test(arguments: registrations)
    func aRegistrationGivesEveryFindingInDocumentOrder(_ testCase: RegistrationCase) {
        #expect(lint(testCase.types) == testCase.expected, "\(testCase.id): \(testCase.rule)")
    }
}
