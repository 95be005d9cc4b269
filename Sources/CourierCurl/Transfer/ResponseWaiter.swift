import Courier

/// Who receives a transfer's response or error: a task suspended in `CurlTransport.send` until
/// the I/O thread resumes it, or the caller that drives the transfer on its own thread
/// (`CurlDrivenSession`), which reads `ActiveTransfer.drivenOutcome` once curl is done and so
/// needs no continuation.
enum ResponseWaiter {
    case task(CheckedContinuation<Response, any Error>)
    case driver
}
