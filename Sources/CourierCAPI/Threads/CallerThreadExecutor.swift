/// Runs a blocking send's tasks on the thread that called it, while that thread waits.
///
/// `courier_client_send` blocks its caller anyway, so instead of handing the work to Swift's
/// pool and sleeping, the caller's thread runs the jobs itself: the pipeline, every interceptor
/// callback and the response handling run there, and a send costs one wake-up from the
/// transport's I/O thread, as a plain libcurl easy call would.
final class CallerThreadExecutor: DrainingExecutor, @unchecked Sendable {
    private let queue = JobQueue()

    func enqueue(_ job: consuming ExecutorJob) {
        queue.push(.job(UnownedJob(job)))
    }

    func drain(until isDone: () -> Bool) {
        let role = ThreadRole.current
        role.executors.append(self)
        defer { role.executors.removeLast() }
        while let work = queue.next(until: isDone) {
            switch work {
            case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
            case .closure(let body): body()
            }
        }
    }

    func wake() { queue.wake() }

    /// Runs `operation` on this thread and returns its result once it finishes.
    func run<T: Sendable>(_ operation: sending @escaping @isolated(any) () async throws -> T) -> Result<T, any Error> {
        let slot = ResultSlot<T>()
        Task(executorPreference: self) {
            let result: Result<T, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            slot.set(result)
            self.wake()
        }
        drain(until: { slot.isSet })
        return slot.value!
    }
}

/// A result set once by one thread and read by another after it is set.
final class ResultSlot<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Result<T, any Error>?

    func set(_ result: Result<T, any Error>) {
        lock.lock()
        stored = result
        lock.unlock()
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stored != nil
    }

    var value: Result<T, any Error>? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}

import Foundation
