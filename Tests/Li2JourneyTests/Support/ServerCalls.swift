import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one plain HTTP request got back: the status, the `Location` header, the body.
struct HTTPAnswer: Sendable {
    var status: Int
    var location: String?
    var body: String
}

extension MockServerProcess {
    static var sessionConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        configuration.timeoutIntervalForResource = 10
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        return configuration
    }

    /// Sends one request to the server as a browser or a backend would, without following
    /// redirects: a test wants to see the 302 itself.
    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil
    ) async throws -> HTTPAnswer {
        var request = URLRequest(url: URL(string: baseURL.absoluteString + path)!)
        request.httpMethod = method
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        if let body {
            request.httpBody = Data(body.utf8)
        }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return HTTPAnswer(
            status: http.statusCode, location: http.value(forHTTPHeaderField: "Location"),
            body: String(decoding: data, as: UTF8.self))
    }
}

/// Refuses every redirect, so that the caller receives the 302 itself.
final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
