import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Hands memory freed by a purge back to the operating system.
///
/// A million expired deferred records are a million small blocks freed at once. glibc keeps
/// freed blocks in its per-thread arenas for reuse, so without help the process would keep its
/// peak size for good, and a second wave of visits, served by other threads, would grow it
/// further. `malloc_trim` returns the free pages of every arena. Swift does not import it
/// (it lives in `malloc.h`), so it is looked up by name; elsewhere this does nothing.
///
/// ```swift
/// await service.purge()
/// HeapTrim.releaseFreedMemory()
/// ```
enum HeapTrim {
    static func releaseFreedMemory() {
        #if canImport(Glibc)
            typealias Trim = @convention(c) (Int) -> Int32
            // RTLD_DEFAULT is the null handle: look in every loaded library.
            guard let symbol = dlsym(nil, "malloc_trim") else { return }
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }
}
