import Foundation
import HTTPCore

/// What the HTTP core checks before a handler runs: any bytes as a request head and body,
/// split as a server would, through the framing rules, the body limit, the target parser and
/// the JSON body decoder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequest(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Data(bytes: start, count: count)
    let separator = Data("\r\n\r\n".utf8)
    let headEnd = bytes.range(of: separator)
    let head = String(decoding: bytes[..<(headEnd?.lowerBound ?? bytes.endIndex)], as: UTF8.self)
    let body = headEnd.map { Data(bytes[$0.upperBound...]) } ?? Data()
    var lines = head.components(separatedBy: "\r\n")
    let requestLine = lines.isEmpty ? [] : lines.removeFirst().split(separator: " ")
    var headers = HTTPHeaders()
    for line in lines {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers.add(
            name: String(line[..<colon]),
            value: String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
    }
    let version = requestLine.count > 2 ? String(requestLine[2]) : "HTTP/1.1"
    try? RequestFraming.check(headers: headers, version: version)
    try? BodyLimit().admit(headers: headers)
    let target = requestLine.count > 1 ? String(requestLine[1]) : "/"
    let request = HTTPRequest(
        method: HTTPMethod(rawValue: requestLine.first.map(String.init) ?? "GET"), target: target,
        headers: headers, body: body)
    _ = request.queryValue(for: "limit")
    struct Body: Decodable {
        var deepLink: String?
        var li2Domains: [String]?
        var amount: Int?
    }
    _ = try? request.decodeJSON(Body.self)
    return 0
}
