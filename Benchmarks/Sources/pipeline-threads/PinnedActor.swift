import Foundation
import Synchronization

/// A serial executor that runs every job on one thread of its own, so "the caller's thread" is one
/// fixed thread (on Linux the main actor is served by whichever thread drains the main queue).
final class PinnedThreadExecutor: SerialExecutor, @unchecked Sendable {
    // `jobs` is guarded by `condition`; the thread is the only consumer.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private let started = Mutex<UInt?>(nil)

    init() {
        let thread = Thread { [unowned self] in self.drain() }
        thread.name = "pinned-actor"
        thread.start()
    }

    /// The thread every job runs on.
    var thread: UInt {
        while true {
            if let thread = started.withLock({ $0 }) { return thread }
            usleep(100)
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func drain() {
        started.withLock { $0 = UInt(pthread_self()) }
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
        }
    }
}

/// An actor whose code always runs on the pinned thread: a caller with a thread of its own, like a UI thread.
actor PinnedActor {
    nonisolated let executor = PinnedThreadExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Runs `body` isolated to this actor, so on the pinned thread.
    func run<T: Sendable>(_ body: @Sendable (isolated PinnedActor) async throws -> T) async throws -> T {
        try await body(self)
    }
}
