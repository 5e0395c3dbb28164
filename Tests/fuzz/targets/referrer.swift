import AttributionService
import Foundation

/// The install-referrer decoder: any text as the referrer Google Play hands the app; what it
/// plants, it reads back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReferrer(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    _ = InstallReferrerDecoder.deepLink(in: text)
    return 0
}
