import DeepLinkCore
import Foundation

/// The AndroidManifest.xml reader and the intent-filter matcher: any bytes as the manifest,
/// every filter it yields asked about a few links, at the newest and an old API level.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAndroidManifest(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let manifest = try? AndroidManifestReader.read(data) else { return 0 }
    let links = ["https://go.example/summer?x=1#f", "myapp://product/42", "http://EXAMPLE.com:8080/a/b"]
    for activity in manifest.activities {
        for filter in activity.intentFilters {
            for link in links {
                guard let uri = AndroidURI(link) else { continue }
                _ = IntentFilterMatcher.evaluate(filter, uri: uri)
                _ = IntentFilterMatcher.evaluate(filter, uri: uri, apiLevel: 30)
            }
        }
    }
    return 0
}
