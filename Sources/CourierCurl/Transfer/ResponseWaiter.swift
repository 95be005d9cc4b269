import Courier

/// Who receives a transfer's response or error: a task suspended in `CurlTransport.send` until
/// the I/O thread resumes it, or the caller that drives the transfer on its own thread
/// (`CurlDrivenSession`), which reads `ActiveTransfer.drivenOutcome` once curl is done and so
/// needs no continuation.
enum ResponseWaiter {
    case task(SendContinuation)
    case driver
}

/// How the I/O thread resumes a suspended `CurlTransport.send`.
///
/// Unsafe rather than checked: a checked continuation allocates its canary on every send, and the
/// transfer's own phases (`TransferState`) already answer each send exactly once, which the
/// conformance, fault and cancellation suites pin on every path.
typealias SendContinuation = UnsafeContinuation<Response, any Error>
