import DeepLinkCore
import Foundation

/// The assetlinks.json linter and verifier: any bytes as the file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAssetLinks(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    _ = AssetLinksLinter.lint(data)
    let fingerprint =
        "28:7B:49:7C:15:52:8C:FD:AC:4E:40:AB:46:E9:70:67:DE:CF:FB:88:43:1D:56:81:02:1B:6D:C5:49:35:74:7D"
    if let verdict = try? AssetLinksVerifier.verify(
        data, package: "com.example.shop", fingerprint: fingerprint)
    {
        precondition(!AssetLinksVerifier.message(verdict).isEmpty)
    }
    return 0
}
