package import Courier
package import Synchronization

/// Runs a blocking send's tasks on the thread that called it, while that thread waits.
///
/// `courier_client_send` blocks its caller anyway, so instead of handing the work to Swift's
/// pool and sleeping, the caller's thread runs the jobs itself: the pipeline, every interceptor
/// callback and the response handling run there. On the curl transport the transfer runs there
/// too (`CurlCallerDriving`), as a plain libcurl easy call would, so a send costs no thread wake-up;
/// on another transport it costs one, from the transport's thread. `CallerThreadWorker` owns one per
/// calling thread.
package final class CallerThreadExecutor: DrainingExecutor, Sendable {
    private let queue = JobQueue()

    package func enqueue(_ job: consuming ExecutorJob) {
        queue.push(.job(UnownedJob(job)))
    }

    package func drain(until isDone: () -> Bool) {
        queue.drain(as: self, until: isDone)
    }

    /// `drain(until:)`, running `check` every `interval` seconds the thread waits for work.
    package func drain(until isDone: () -> Bool, checkingEvery interval: Double, _ check: @escaping () -> Void) {
        queue.drain(as: self, until: isDone, idleCheck: JobQueue.IdleCheck(interval: interval, check: check))
    }

    package func wake() { queue.wake() }
}

/// A result set once by one thread and read by another after it is set.
///
/// A `Protected` rather than an `NSLock`: made per use (an exchange's `ExchangeBox` answer), and a
/// `Protected` lives inside the object instead of being two more allocations. The blocking send's
/// worker keeps its own non-generic slot instead (`CallerThreadWorker.run`).
package final class ResultSlot<T: Sendable>: Sendable {
    private let stored = Protected<Result<T, any Error>?>(nil)

    package func set(_ result: Result<T, any Error>) {
        stored.withLock { $0 = result }
    }

    package var isSet: Bool {
        stored.withLock { $0 != nil }
    }

    package var value: Result<T, any Error>? {
        stored.withLock { $0 }
    }
}
