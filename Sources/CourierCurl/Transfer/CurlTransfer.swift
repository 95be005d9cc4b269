import Courier
import Synchronization

/// What one `send` hands to the I/O thread: the request, its context, its body channel, and a
/// cancellation flag. Immutable except for the flag, so it may cross threads.
final class CurlTransfer: Sendable {
    /// Names this transfer in commands; unique within a transport.
    let id: UInt64
    let request: Request
    let context: TransportContext
    /// The request body on its way to curl's read callback; `nil` when no body is sent.
    let upload: UploadChannel?
    /// The body length put on the wire as `Content-Length`, when known.
    let uploadLength: Int64?
    /// The proxy this request goes through, `nil` for direct; decided on the caller's thread.
    let proxy: ProxyServer?
    /// Whether the sending task, the one that creates the transfer, runs on an executor whose
    /// wakes coalesce (the C library's callback pool): the I/O thread then resumes it directly
    /// (`ResumeBatch`).
    let resumesDirectly: Bool
    private let cancelled = Atomic(false)

    init(
        id: UInt64, request: Request, context: TransportContext, upload: UploadChannel?, uploadLength: Int64?,
        proxy: ProxyServer?
    ) {
        self.proxy = proxy
        self.resumesDirectly = WakeCoalescing.taskExecutorCoalesces
        self.id = id
        self.request = request
        self.context = context
        self.upload = upload
        self.uploadLength = uploadLength
    }

    /// Whether the sending task was cancelled; checked when the I/O thread picks the transfer up.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Records that the sending task was cancelled.
    func markCancelled() { cancelled.store(true, ordering: .releasing) }

    /// A `CourierError` about this transfer's request.
    func error(_ code: CourierError.Code, _ message: String, underlying: (any Error & Sendable)? = nil) -> CourierError
    {
        CourierError(code, message, source: "CurlTransport", request: request, underlying: underlying)
    }
}

extension CurlTransfer {
    /// Tells ThreadSanitizer that what the I/O thread made for this transfer (the response, its
    /// body stream, an error) is `send`'s from here (fresh-clone run 59 reported a body stream made
    /// on the I/O thread and read by the resumed task).
    func releaseToSend() { ThreadSanitizerAnnotations.handingOver(from: self) }

    /// The other half of `releaseToSend()`, in `send` once its continuation has returned.
    func acquireInSend() { ThreadSanitizerAnnotations.acquired(from: self) }
}
