import Foundation
import Synchronization

/// Dedicated threads for asynchronous sends and for C callbacks that may block.
///
/// These threads are Courier's own, never Swift's cooperative pool: a C callback that blocks holds
/// one of them and nothing else. A thread waiting inside a callback (a blocking `proceed`) drains
/// the pool's queue meanwhile, so all threads waiting at once still make progress.
final class CallbackPool: DrainingExecutor, @unchecked Sendable {
    /// The pool for work not tied to a client: callback bodies and `around` interceptors reached
    /// from Swift callers.
    static let shared = CallbackPool(threads: 4, name: "courier-callbacks")

    private let queue = JobQueue()
    private let stopped = Atomic(false)
    private let active = Atomic(0)

    init(threads: Int, name: String) {
        for index in 0..<max(1, threads) {
            let thread = Thread { [self] in
                queue.drain(as: self, until: { self.isFinished })
            }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    /// Marks a send that will run on the pool; the threads outlive it.
    func begin() { active.add(1, ordering: .relaxed) }

    /// Marks the end of a send begun with `begin()`.
    func end() {
        active.subtract(1, ordering: .relaxed)
        queue.wake()
    }

    /// Lets the threads exit once every send begun has ended and no work is left.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        queue.wake()
    }

    private var isFinished: Bool { stopped.load(ordering: .relaxed) && active.load(ordering: .relaxed) == 0 }

    func enqueue(_ job: consuming ExecutorJob) {
        queue.push(.job(UnownedJob(job)))
    }

    func drain(until isDone: () -> Bool) {
        queue.drain(as: self, until: isDone)
    }

    func wake() { queue.wake() }

    /// Runs `body` on a pool thread and returns its result: for C code that may block.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.push(.closure { continuation.resume(returning: body()) })
        }
    }
}
