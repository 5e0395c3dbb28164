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
    var merged = MergedData(schemes: [], authorities: [], paths: [])
    for element in elements {
        if let scheme = element.scheme, !merged.schemes.contains(scheme) {
            merged.schemes.append(scheme)
        }
        // A port means nothing without a host beside it.
        if let host = element.host {
            merged.authorities.append(Authority(host: host, port: element.port))
        }
        if let path = element.path { merged.paths.append(.exact(path)) }
        if let prefix = element.pathPrefix { merged.paths.append(.prefix(prefix)) }
        if let suffix = element.pathSuffix { merged.paths.append(.suffix(suffix)) }
    }
    return merged
}

/// The data test of AOSP `IntentFilter.matchData` for a tapped link: `nil` when the link fits.
func matchData(_ filter: [DataElement], uri: AndroidURI) -> DataMismatch? {
    let merged = merge(filter)
    guard !merged.schemes.isEmpty else { return .noSchemeDeclared }
    guard let scheme = uri.scheme, merged.schemes.contains(scheme) else {
        return .schemeNotDeclared(uri.scheme)
    }
    // Paths count only when the filter declares a host.
    guard !merged.authorities.isEmpty else { return nil }
    guard merged.authorities.contains(where: { matches($0, uri) }) else {
        return .hostNotDeclared(uri.host)
    }
    if !merged.paths.isEmpty, !merged.paths.contains(where: { matches($0, path: uri.path) }) {
        return .pathNotDeclared(uri.path)
    }
    return nil
}

/// `*.example.com` keeps `.example.com` and compares the host's tail with it, so it never
/// matches `example.com` itself; `*example.com` also takes `badexample.com`.
private func matches(_ authority: Authority, _ uri: AndroidURI) -> Bool {
    guard let host = uri.host?.lowercased() else { return false }
    let declared = authority.host.lowercased()
    let hostMatches =
        declared.hasPrefix("*") ? host.hasSuffix(String(declared.dropFirst())) : host == declared
    guard hostMatches else { return false }
    // A declared port must be spelled in the URL: https://example.com/ has no port at all.
    guard let port = authority.port else { return true }
    return Int(port) == uri.port
}

private func matches(_ rule: PathRule, path: String) -> Bool {
    switch rule {
    case .exact(let expected): return path == expected
    case .prefix(let prefix): return path.hasPrefix(prefix)
    case .suffix(let suffix): return path.hasSuffix(suffix)
    }
}
