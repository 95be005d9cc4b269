#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Lets a send whose caller blocks anyway drive curl on the caller's own thread, as
/// `curl_easy_perform` does, instead of handing the transfer to the I/O thread and sleeping
/// until it is handed back: two thread wake-ups fewer per request.
///
/// The C library's blocking `courier_client_send` sets it (through `withValue`) around a send
/// whose body it collects whole anyway. `CurlTransport` honours it only on the thread it names,
/// and only for a request with no body to produce and no progress to report; a send from any
/// other thread (a task an interceptor started, say) goes through the I/O thread as usual.
package struct CurlCallerDriving: Sendable {
    /// The thread that may block in curl: the one that set this.
    let thread: pthread_t
    /// The most response body bytes kept (`Limits.maxBodyBytes` of the caller).
    let maxBodyBytes: Int64
    /// Asked while the transfer waits (every 100 ms, and when a signal interrupts the wait)
    /// whether the caller gives up: `true` aborts the transfer with `cancelled`.
    let shouldCancel: (@Sendable () -> Bool)?

    /// Names the current thread as the one that drives its transfers.
    package init(maxBodyBytes: Int64, shouldCancel: (@Sendable () -> Bool)? = nil) {
        thread = pthread_self()
        self.maxBodyBytes = maxBodyBytes
        self.shouldCancel = shouldCancel
    }

    /// Set around a blocking send; `nil` everywhere else.
    @TaskLocal package static var current: CurlCallerDriving?

    /// Whether the current thread is the one named.
    var isCurrentThread: Bool { pthread_equal(thread, pthread_self()) != 0 }
}
