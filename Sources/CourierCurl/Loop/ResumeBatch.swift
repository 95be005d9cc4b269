import Courier

/// The `send`s one round of the I/O thread answers, resumed together by one job on Swift's
/// global executor rather than one by one from the I/O thread.
///
/// Each resumption from the I/O thread wakes a thread of the pool. Where the pool and the I/O
/// thread share a core (one usable CPU, or a loaded machine), the woken thread preempts the I/O
/// thread at once, runs one task to its next suspension and sleeps again: two context switches per
/// request, measured at 1.3 per request at 32 in flight. One job per round wakes the pool once;
/// the tasks it resumes then run one after another on that thread. A round that answers one
/// `send` resumes it directly, since a job would only add a hop.
struct ResumeBatch {
    typealias Answer = (continuation: CheckedContinuation<Response, any Error>, outcome: Result<Response, any Error>)

    /// Kept between rounds by the driver, so its storage is reused.
    private var answers: [Answer] = []

    var isEmpty: Bool { answers.isEmpty }

    mutating func add(_ continuation: CheckedContinuation<Response, any Error>, _ outcome: Result<Response, any Error>)
    {
        answers.append((continuation, outcome))
    }

    /// Resumes every `send` added since the last flush, and empties the batch.
    mutating func flush() {
        switch answers.count {
        case 0:
            return
        case 1:
            let (continuation, outcome) = answers[0]
            answers.removeAll(keepingCapacity: true)
            continuation.resume(with: outcome)
        default:
            let batch = answers
            answers.removeAll(keepingCapacity: true)
            Task.detached {
                for (continuation, outcome) in batch { continuation.resume(with: outcome) }
            }
        }
    }
}
