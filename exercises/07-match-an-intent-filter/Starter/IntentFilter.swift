import Foundation

/// One `<data>` element of an `<intent-filter>`, with the attributes that decide a link.
struct DataElement: Equatable, Sendable {
    var scheme: String?
    var host: String?
    var port: String?
    var path: String?
    var pathPrefix: String?
    var pathSuffix: String?

    init(
        scheme: String? = nil, host: String? = nil, port: String? = nil, path: String? = nil,
        pathPrefix: String? = nil, pathSuffix: String? = nil
    ) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.pathPrefix = pathPrefix
        self.pathSuffix = pathSuffix
    }
}

/// A host, with the port declared beside it (as text, the way the manifest spells it).
struct Authority: Equatable, Sendable {
    var host: String
    var port: String?
}

/// One path attribute of the filter.
enum PathRule: Equatable, Sendable {
    case exact(String)
    case prefix(String)
    case suffix(String)
}

/// What Android really matches against: every `<data>` element of a filter merged into three lists.
struct MergedData: Equatable, Sendable {
    var schemes: [String]
    var authorities: [Authority]
    var paths: [PathRule]
}

/// Why a link's data does not fit a filter, checked in this order.
enum DataMismatch: Equatable, Sendable {
    case noSchemeDeclared
    case schemeNotDeclared(String?)
    case hostNotDeclared(String?)
    case pathNotDeclared(String)
}

/// A URL split the way `android.net.Uri` reports it: the scheme keeps its case, the port is
/// `nil` unless the URL spells it out, and the path is percent-decoded. Already written.
struct AndroidURI: Equatable, Sendable {
    var scheme: String?
    var host: String?
    var port: Int?
    var path: String

    init?(_ text: String) {
        guard let components = URLComponents(string: text) else { return nil }
        scheme = components.scheme
        host = components.host
        port = components.port
        path = components.path
    }
}

/// Merges a filter's `<data>` elements into the lists Android matches against: all schemes, all
/// hosts (each with the port written beside it), all path attributes, in manifest order.
///
/// ```swift
/// merge([DataElement(scheme: "https"), DataElement(host: "example.com", pathPrefix: "/p/")])
/// // schemes ["https"], authorities [example.com], paths [.prefix("/p/")]
/// ```
func merge(_ elements: [DataElement]) -> MergedData {
    // TODO: Collect every scheme (once each), every host with its port, and every path,
    //       pathPrefix and pathSuffix. A port on an element without a host is ignored.
    return MergedData(schemes: [], authorities: [], paths: [])
}

/// The data test of AOSP `IntentFilter.matchData` for a tapped link: `nil` when the link fits.
func matchData(_ filter: [DataElement], uri: AndroidURI) -> DataMismatch? {
    // TODO: Using merge(filter), in this order:
    //       1. no scheme declared at all -> .noSchemeDeclared;
    //       2. the URL's scheme must be declared, compared exactly (HTTPS is not https);
    //       3. if hosts are declared, one must match: case-insensitive; a host starting with "*"
    //          matches any host that ends with the rest; a declared port must equal the URL's;
    //       4. only if hosts are declared and paths are declared, one path rule must match.
    return nil
}
