package import Courier
package import Synchronization

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Dedicated threads for asynchronous sends and for C callbacks that may block.
///
/// These threads are Courier's own, never Swift's cooperative pool: a C callback that blocks holds
/// one of them and nothing else. A thread waiting inside a callback (a blocking `proceed`) drains
/// the pool's queue meanwhile, so all threads waiting at once still make progress; and while every
/// thread is inside a callback and work waits, the pool starts another (`JobQueue.Growth`, up to
/// `maxThreads`), so callbacks that block without draining (a slow `on_data`) hold only themselves.
/// The threads run with Linux's batch policy (`BatchScheduling`): a caller starting sends in a
/// row wakes them without being preempted by each.
package final class CallbackPool: DrainingExecutor, Sendable {
    /// The pool for work not tied to a client: callback bodies and `around` interceptors reached
    /// from Swift callers. One per process: a process made by fork() makes its own.
    package static var shared: CallbackPool { sharedPerProcess.value }

    private static let sharedPerProcess = PerProcess { CallbackPool(threads: 4, name: "courier-cb") }

    /// The most threads a pool runs at once, those added for blocked callbacks included.
    package static let maxThreads = 256

    private let queue: JobQueue
    private let name: String
    /// Numbers the threads, for their names.
    private let threadsMade = Atomic(0)
    /// Bit 0: stopped. The rest: twice the sends begun and not yet ended. One word, so that a
    /// `begin()` racing `stop()` either counts before the stop or is refused, never lost.
    private let state = Atomic(0)
    /// Runs once, when the pool is stopped and its last send has ended.
    private let whenFinished = Protected<(@Sendable () -> Void)?>(nil)

    package init(threads: Int, name: String) {
        let base = max(1, threads)
        self.name = name
        queue = JobQueue()
        // Unowned, not weak: only the pool holds the queue, and it asks for growth while the pool
        // is in use (a pool thread or a caller holds it), so the closure never outlives it. A weak
        // reference would give the pool a side table, which LeakSanitizer reports as leaked when
        // a program exits while the threads of a freed client are still ending.
        queue.allowGrowth(
            JobQueue.Growth(
                baseThreads: base, maxThreads: max(base, Self.maxThreads),
                startThread: { [unowned self] in self.startThread() }))
        for _ in 0..<base {
            queue.threadStarted()
            startThread()
        }
    }

    /// Starts a thread that drains the queue until the pool has finished (or, an extra one, until
    /// it has been idle a while).
    private func startThread() {
        let index = threadsMade.add(1, ordering: .relaxed).oldValue
        let threadName = "\(name)-\(index)"  // Linux keeps a name only up to 15 bytes: keep `name` short
        let started = PthreadThread.start(named: threadName) { [self] in
            BatchScheduling.adoptForCurrentThread()
            let member = ForkGate.shared.join()
            defer { ForkGate.shared.leave(member) }
            queue.drain(as: self, until: { self.isFinished }, forkGate: member)
        }
        // No thread left: the pool works with those it has (one at least: a client is made with
        // its threads or fails; see `ClientOptions.makeClient`).
        if !started { queue.threadEnded() }
    }

    /// Marks a send that will use the client; the threads, and what `stop` runs at the end, wait
    /// for it. Returns false, counting nothing, once the pool is stopped.
    package func begin() -> Bool {
        var current = state.load(ordering: .relaxed)
        while current & 1 == 0 {
            let (exchanged, original) = state.compareExchange(
                expected: current, desired: current + 2,
                ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Marks the end of a send begun with `begin()`.
    package func end() {
        let after = state.subtract(2, ordering: .acquiringAndReleasing).newValue
        // Only a stopping pool's threads wait on the count (`isFinished`); waking them after
        // every send, as this once did, cost each blocking send two futile thread wake-ups.
        if after & 1 == 1 { queue.wake() }
        if after == 1 { finish() }
    }

    /// Lets the threads exit once every send begun has ended and no work is left, then runs
    /// `whenFinished` (at once when nothing is under way), on the thread that ended the last send.
    package func stop(whenFinished action: (@Sendable () -> Void)? = nil) {
        whenFinished.withLock { $0 = action }
        let after = state.bitwiseOr(1, ordering: .acquiringAndReleasing).newValue
        queue.wake()
        if after == 1 { finish() }
    }

    private func finish() {
        whenFinished.withLock { $0.take() }?()
    }

    private var isFinished: Bool { state.load(ordering: .acquiring) == 1 }

    package func enqueue(_ job: consuming ExecutorJob) {
        queue.push(.job(UnownedJob(job)))
    }

    package func drain(until isDone: () -> Bool) {
        queue.drain(as: self, until: isDone)
    }

    package func wake() { queue.wake() }

    package func callbackWillRun() { queue.callbackWillRun() }

    package func callbackDidReturn() { queue.callbackDidReturn() }

    /// Runs `body` on a pool thread and returns its result: for C code that may block.
    package func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.push(.closure { continuation.resume(returning: body()) })
        }
    }
}
