import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches one well-known file the way Apple's and Google's fetchers do: one GET, no redirect
/// followed, no cache, no cookies. A redirect comes back as the 3xx response itself, with its
/// `Location`, because "the server redirects" is the finding the doctor must report.
///
/// This is the only part of `workbook doctor` that touches the network; everything it returns
/// goes to the pure ``DoctorReport``.
///
/// ```swift
/// let outcome = WellKnownFetcher.fetch(target.aasaURL, timeout: 10)
/// ```
package enum WellKnownFetcher {
    /// Fetches `url`, giving up after `timeout` seconds.
    package static func fetch(_ url: URL, timeout: TimeInterval) -> FetchOutcome {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        let session = URLSession(
            configuration: configuration, delegate: RefuseRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("workbook-doctor", forHTTPHeaderField: "User-Agent")

        let result = ResultBox()
        let task = session.dataTask(with: request) { data, response, error in
            if let http = response as? HTTPURLResponse {
                result.set(
                    .response(
                        FetchedResponse(
                            url: url, statusCode: http.statusCode,
                            location: http.value(forHTTPHeaderField: "Location"),
                            contentType: http.value(forHTTPHeaderField: "Content-Type"), body: data ?? Data())
                    ))
            } else {
                result.set(.failed(describe(error, timeout: timeout)))
            }
        }
        task.resume()
        // URLSession enforces the timeout; the extra seconds only guard against a lost callback.
        if result.wait(seconds: timeout + 5) == .timedOut {
            task.cancel()
            return .failed("timed out after \(format(timeout)) s")
        }
        return result.value ?? .failed("no response")
    }

    private static func describe(_ error: (any Error)?, timeout: TimeInterval) -> String {
        guard let error else { return "no response" }
        if let urlError = error as? URLError {
            switch urlError.code {
            case .timedOut: return "timed out after \(format(timeout)) s"
            case .cannotConnectToHost: return "could not connect to the server"
            case .cannotFindHost, .dnsLookupFailed: return "the host name does not resolve"
            case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot,
                .serverCertificateNotYetValid, .secureConnectionFailed:
                return "the TLS connection failed (\(urlError.localizedDescription)); "
                    + "iOS and Android need a certificate they trust"
            default: break
            }
        }
        return error.localizedDescription
    }

    private static func format(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// Answers every redirect with "do not follow": the task then completes with the 3xx response.
private final class RefuseRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// The one value a completion handler hands to the waiting command.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)
    private var stored: FetchOutcome?

    func set(_ outcome: FetchOutcome) {
        lock.withLock { stored = outcome }
        done.signal()
    }

    func wait(seconds: TimeInterval) -> DispatchTimeoutResult {
        done.wait(timeout: .now() + seconds)
    }

    var value: FetchOutcome? { lock.withLock { stored } }
}
