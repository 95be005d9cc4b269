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
///
/// Each answer is taken out of the batch before its `send` is resumed: a response the batch still
/// held would be shared with the task that reads it, and that task's first change to it (the
/// collected body) would copy the whole response.
struct ResumeBatch {
    typealias Answer = (continuation: SendContinuation, outcome: Result<Response, any Error>)

    /// Kept between rounds by the driver, so their storage is reused; an answer is `nil` once taken.
    private var onGlobalExecutor: [Answer?] = []
    private var direct: [Answer?] = []

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
            WakeCoalescing.coalescingWakes { Self.resumeTaking(&direct) }
            direct.removeAll(keepingCapacity: true)
        }
        switch onGlobalExecutor.count {
        case 0:
            return
        case 1:
            Self.resumeTaking(&onGlobalExecutor)
            onGlobalExecutor.removeAll(keepingCapacity: true)
        default:
            // The box becomes the only owner of these answers once the driver's array lets go of
            // them, so the job takes each out in place.
            let batch = Batch(answers: onGlobalExecutor)
            onGlobalExecutor.removeAll(keepingCapacity: true)
            Task.detached { Self.resumeTaking(&batch.answers) }
        }
    }

    /// Resumes each answer in order, taking it out of `answers` first.
    private static func resumeTaking(_ answers: inout [Answer?]) {
        for index in answers.indices {
            guard let (continuation, outcome) = answers[index].take() else { continue }
            // Consumed, not left to the end of the scope: a task resumed at once must find it gone.
            continuation.resume(with: consume outcome)
        }
    }

    /// A round's answers on their way to the global executor's job, which alone uses them.
    // Unchecked: the driver lets go of the answers before the job starts, so one thread at a time uses them.
    private final class Batch: @unchecked Sendable {
        var answers: [Answer?]

        init(answers: [Answer?]) { self.answers = answers }
    }
}
