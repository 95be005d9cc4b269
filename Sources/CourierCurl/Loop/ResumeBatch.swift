import Courier

/// The `send`s one round of the I/O thread answers, resumed together at the end of the round.
///
/// Each resumption from the I/O thread wakes a thread of the pool. Where the pool and the I/O
/// thread share a core (one usable CPU, or a loaded machine), the woken thread preempts the I/O
/// thread at once, runs one task to its next suspension and sleeps again: two context switches per
/// request, measured at 1.3 per request at 32 in flight. So:
///
/// - Tasks on Swift's global executor are resumed by one job on it per round, which wakes the pool
///   once; the tasks then run one after another on that thread. A round that answers one such
///   `send` resumes it directly, since a job would only add a hop.
/// - Tasks on an executor whose wakes coalesce (the C library's callback pool,
///   `WakeCoalescing.taskExecutorCoalesces`) are resumed from the I/O thread, each sleeping thread
///   woken at most once, as the round ends. A job on the global executor would only add a hop
///   there: at 32 in flight, C asynchronous sends went from about 46,500 to 51,000 req/s. Any
///   other task executor goes by the global job, since its wakes cannot be deferred.
struct ResumeBatch {
    typealias Answer = (continuation: SendContinuation, outcome: Result<Response, any Error>)

    /// Kept between rounds by the driver, so their storage is reused.
    private var onGlobalExecutor: [Answer] = []
    private var direct: [Answer] = []

    var isEmpty: Bool { onGlobalExecutor.isEmpty && direct.isEmpty }

    /// Adds a `send` to resume; `directly` when its task's executor coalesces its wakes.
    mutating func add(
        _ continuation: SendContinuation, _ outcome: Result<Response, any Error>,
        directly: Bool
    ) {
        if directly {
            direct.append((continuation, outcome))
        } else {
            onGlobalExecutor.append((continuation, outcome))
        }
    }

    /// Resumes every `send` added since the last flush, and empties the batch.
    mutating func flush() {
        if !direct.isEmpty {
            WakeCoalescing.coalescingWakes {
                for (continuation, outcome) in direct { continuation.resume(with: outcome) }
            }
            direct.removeAll(keepingCapacity: true)
        }
        switch onGlobalExecutor.count {
        case 0:
            return
        case 1:
            let (continuation, outcome) = onGlobalExecutor[0]
            onGlobalExecutor.removeAll(keepingCapacity: true)
            continuation.resume(with: outcome)
        default:
            let batch = onGlobalExecutor
            onGlobalExecutor.removeAll(keepingCapacity: true)
            Task.detached {
                for (continuation, outcome) in batch { continuation.resume(with: outcome) }
            }
        }
    }
}
