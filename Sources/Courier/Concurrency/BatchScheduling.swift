#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Marks Courier's callback threads as batch work for Linux's scheduler (`SCHED_BATCH`), so that
/// waking one never preempts the thread that woke it.
///
/// A program's thread that starts many asynchronous sends in a row (an asyncio loop settling a
/// batch of responses, then sending again) wakes a pool thread with each. On a shared core each
/// wake-up preempted the caller, the pool thread started one send and slept, and the caller
/// resumed: 1.4 context switches per request for `courier.AsyncClient` at 32 in flight, 0.25 after,
/// and 20% more requests a second (Benchmarks/README.md). A batch thread waits for the waker to
/// block or its time slice to end, then starts every send queued meanwhile. On an idle core it runs
/// at once, as before; it keeps its nice value and its share of the CPU.
package enum BatchScheduling {
    /// Linux's `SCHED_BATCH`, which the Glibc module does not export (it is a GNU extension).
    private static let batchPolicy: Int32 = 3

    /// Gives the calling thread the batch policy; false where there is none (not Linux) or the
    /// system refused it (a seccomp filter, say), and the thread then keeps the usual one.
    @discardableResult
    package static func adoptForCurrentThread() -> Bool {
        #if os(Linux)
        var parameters = sched_param()
        parameters.sched_priority = 0
        return sched_setscheduler(0, batchPolicy, &parameters) == 0
        #else
        return false
        #endif
    }

    /// Whether the calling thread runs with the batch policy.
    package static var isCurrentThreadBatch: Bool {
        #if os(Linux)
        return sched_getscheduler(0) == batchPolicy
        #else
        return false
        #endif
    }
}
