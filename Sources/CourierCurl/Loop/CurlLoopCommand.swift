import Courier

/// What other threads ask of the I/O thread; queued by `CurlLoop.submit`, run in order by `CurlLoopDriver`.
enum CurlLoopCommand: Sendable {
    /// Add a transfer; `send` waits on the continuation for the response head.
    case start(CurlTransfer, SendContinuation)
    /// The sending task was cancelled: abort the transfer if its head has not been delivered yet.
    case cancel(UInt64)
    /// The response body was abandoned: abort the transfer (its connection is closed, not reused).
    case abort(UInt64)
    /// The response body stream drained below its low watermark: receive again.
    case resumeDownload(UInt64)
    /// The request body has bytes (or its end) ready: send again.
    case resumeUpload(UInt64)
}
