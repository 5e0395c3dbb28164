import CMicroHTTPD
import Foundation
import HTTPCore

/// The engine half of a streamed body (``HTTPStream``, the pure half, lives in the HTTP core):
/// what libmicrohttpd's content reader needs, the stream, its connection (suspended between
/// pieces) and the server core (to forget the stream when it ends).
///
/// ```swift
/// // In the server core, for a response whose `stream` is set:
/// let created = StreamBinding.response(for: stream, on: connection, core: self)
/// ```
final class StreamBinding: HTTPStreamConnection, @unchecked Sendable {
    let stream: HTTPStream
    let connection: OpaquePointer
    let core: ServerCore

    init(stream: HTTPStream, connection: OpaquePointer, core: ServerCore) {
        (self.stream, self.connection, self.core) = (stream, connection, core)
    }

    /// A libmicrohttpd response that reads its body from `stream`, or nil (the stream is then
    /// ended) when libmicrohttpd cannot make one. An unknown size makes libmicrohttpd send
    /// HTTP/1.1 chunks, each as it is read.
    static func response(for stream: HTTPStream, on connection: OpaquePointer, core: ServerCore)
        -> OpaquePointer?
    {
        let binding = Unmanaged.passRetained(
            StreamBinding(stream: stream, connection: connection, core: core))
        let created = MHD_create_response_from_callback(
            UInt64.max, 4096, streamReaderCallback, binding.toOpaque(), streamFreeCallback)
        if created == nil {
            binding.release()
            core.streamEnded(stream)
        }
        return created
    }

    /// Called by the stream, under its lock, from the content reader: the one place (besides
    /// the access handler) where libmicrohttpd allows a suspend.
    func suspend() {
        MHD_suspend_connection(connection)
    }

    /// Called by the stream, under its lock, when a piece arrives or the stream is finished.
    func resume() {
        MHD_resume_connection(connection)
    }
}

// The C callbacks: they capture nothing, find the binding through the context pointer, and
// hand over at once.

private let streamReaderCallback: MHD_ContentReaderCallback = { context, _, buffer, capacity in
    let binding = Unmanaged<StreamBinding>.fromOpaque(context!).takeUnretainedValue()
    switch binding.stream.read(into: buffer!, capacity: capacity, connection: binding) {
    case .bytes(let count): return count
    case .suspended: return 0
    case .end: return -1  // MHD_CONTENT_READER_END_OF_STREAM: the last chunk, then done
    }
}

private let streamFreeCallback: MHD_ContentReaderFreeCallback = { context in
    let binding = Unmanaged<StreamBinding>.fromOpaque(context!).takeRetainedValue()
    binding.core.streamEnded(binding.stream)
}
