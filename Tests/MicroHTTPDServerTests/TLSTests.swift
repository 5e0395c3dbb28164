import Foundation
import HTTPCore
import HTTPDemoApp
import MicroHTTPDServer
import ProcessRunner
import TestSupport
import Testing

/// A self-signed certificate for 127.0.0.1 (P-256, valid for a century), made for this test
/// only. Its private key protects nothing.
private let testCertificatePEM = """
    -----BEGIN CERTIFICATE-----
    MIIBkTCCATagAwIBAgIUGVmI8r69jXVmQrZosgbsRvlTWuMwCgYIKoZIzj0EAwIw
    FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEzMDAxMTc0OFoYDzIxMjYxMTA2
    MDExNzQ4WjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
    PQMBBwNCAATxT/GetoyXUhPRUNDAvyHvQKW/fAhm2cy2+6Dt8HVpdxdmxkLAEAz4
    F1sL4EgCfAzjklY/WFRMVeL24f8m1+jJo2QwYjAdBgNVHQ4EFgQUHXqZxyzeaL2n
    agSSLCIsvcqPtqAwHwYDVR0jBBgwFoAUHXqZxyzeaL2nagSSLCIsvcqPtqAwDwYD
    VR0TAQH/BAUwAwEB/zAPBgNVHREECDAGhwR/AAABMAoGCCqGSM49BAMCA0kAMEYC
    IQDR6cNDrXksZvjplT5mokrSokBspQ5Ouzhfrk9Q2c1G+AIhANGIbDGgPMOghSM1
    C4+T4NO8pmpdETCZXqnpUEJzH7PM
    -----END CERTIFICATE-----

    """

private let testPrivateKeyPEM = """
    -----BEGIN PRIVATE KEY-----
    MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgTGcGlqFzoMI8Dwlv
    w6y/1wBJt7hkPxMEltOnw/1annmhRANCAATxT/GetoyXUhPRUNDAvyHvQKW/fAhm
    2cy2+6Dt8HVpdxdmxkLAEAz4F1sL4EgCfAzjklY/WFRMVeL24f8m1+jJ
    -----END PRIVATE KEY-----

    """

/// The curl command-line tool, if installed. URLSession on Linux cannot be told to trust a
/// private certificate, so the HTTPS check speaks through curl with `--cacert`.
private let curlPath: String? = {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    return directories.map { "\($0)/curl" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}()

@Suite("HTTPS")
struct TLSTests {
    @Test(.enabled(if: curlPath != nil, "needs curl"))
    func serverSpeaksTLSWithPEMFiles() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificate = folder.appendingPathComponent("cert.pem")
        let key = folder.appendingPathComponent("key.pem")
        try Data(testCertificatePEM.utf8).write(to: certificate)
        try Data(testPrivateKeyPEM.utf8).write(to: key)

        var configuration = quietConfiguration()
        configuration.tls = HTTPServer.TLSFiles(certificatePath: certificate.path, privateKeyPath: key.path)
        try await withLoopbackServer(DemoApp.make(), configuration: configuration) { _, port in
            let curlExecutable = try #require(curlPath)
            let result = await offPool {
                Subprocess.run(
                    curlExecutable,
                    [
                        "--silent", "--show-error", "--max-time", "30", "--cacert", certificate.path,
                        "https://127.0.0.1:\(port)/health",
                    ], timeout: 60, separateErrors: true, stopsOnInterrupt: false)
            }
            #expect(result.status == 0, "\(result.errors)")
            #expect(result.output == #"{"status":"ok"}"#)
        }
    }

    @Test func missingCertificateFileIsReported() {
        var configuration = quietConfiguration()
        configuration.tls = HTTPServer.TLSFiles(
            certificatePath: "no-such-cert.pem", privateKeyPath: "no-such-key.pem")
        let server = HTTPServer(responder: DemoApp.make(), configuration: configuration)
        #expect(throws: HTTPServerError.unreadableTLSFile(path: "no-such-cert.pem")) {
            try server.start(port: 0)
        }
    }
}
