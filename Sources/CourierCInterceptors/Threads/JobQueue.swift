package import Courier
package import Synchronization

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// The jobs and closures waiting for a Courier thread, and the condition threads sleep on.
///
/// A push wakes one sleeping thread, and only when no wake already sent is still on its way to
/// one: the I/O thread's round resumes many sends at once, and on a shared core the woken thread
/// cannot run until the pusher yields, so waking per push (or every thread per push, as a
/// broadcast did) cost a futex call per request and threads fighting over the lock.
///
/// A queue with `Growth` keeps its promise that a C callback which blocks holds only its own
/// thread: while every thread is inside a callback and work waits, it starts one more thread (up to
/// `Growth.maxThreads`); a thread beyond `Growth.baseThreads` ends after `Growth.idleTimeout` seconds with
/// nothing to do. This is the compensation of Java's `ForkJoinPool.managedBlock` and Go's
/// scheduler for a blocked thread, needed because a C callback's blocking cannot be seen coming.
///
/// Unchecked `Sendable`: every `var` is read and written under `condition`'s lock, except `growth`,
/// set once before any thread drains.
package final class JobQueue: CoalescedWaker, @unchecked Sendable {
    package enum Work {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    /// How a pool's queue adds threads while its threads are held in callbacks.
    package struct Growth: Sendable {
        /// The threads the pool starts with and keeps.
        package var baseThreads: Int
        /// The most threads at once, extra ones included.
        package var maxThreads: Int
        /// How long an extra thread waits for work before it ends, in seconds.
        package var idleTimeout: Double = 2
        /// Starts one more thread that drains the queue until it is done (or told to end).
        package var startThread: @Sendable () -> Void
    }

    private let condition = PthreadCondition()
    /// Set once, by `allowGrowth`, before any thread drains the queue.
    @exclusivity(unchecked) private var growth: Growth?
    /// Threads draining this queue (counted by `threadStarted`), under `condition`'s lock; read
    /// without it only as a hint.
    private let threads = Atomic(0)
    /// Threads of this queue running a C callback, which may block for as long as it likes.
    private let threadsInCallbacks = Atomic(0)
    /// Waiting work from `head` on; taken slots are cleared at once, so a closure that ran
    /// releases what it captured (a request body, a C callback's user data) right away.
    /// Unchecked: read and written only under `condition`'s lock, and each checked access cost a
    /// runtime call several times per blocking send.
    @exclusivity(unchecked) private var items: [Work?] = []
    @exclusivity(unchecked) private var head = 0
    /// Threads asleep in `next`, and the wakes sent to them that none has taken yet; a push
    /// signals only while the first exceeds the second. Under `condition`'s lock.
    @exclusivity(unchecked) private var sleeping = 0
    @exclusivity(unchecked) private var wakesOnTheirWay = 0

    /// Lets the queue start threads as `growth` says; called once, before any thread drains it.
    package func allowGrowth(_ growth: Growth) {
        self.growth = growth
    }

    package func push(_ work: Work) {
        condition.lock()
        items.append(work)
        let wakesOne = claimWake()
        let grows = !wakesOne && claimExtraThread()
        condition.unlock()
        if wakesOne, !WakeCoalescing.owesWake(self) { condition.signal() }
        if grows { growth?.startThread() }
    }

    /// A thread of this queue is about to call C code that may block (see `Growth`): when it is
    /// the last one free and work waits, another thread starts.
    package func callbackWillRun() {
        guard let growth else { return }
        let inCallbacks = threadsInCallbacks.add(1, ordering: .relaxed).newValue
        guard inCallbacks >= threads.load(ordering: .relaxed) else { return }
        condition.lock()
        let grows = head < items.count && claimExtraThread()
        condition.unlock()
        if grows { growth.startThread() }
    }

    /// The callback announced by `callbackWillRun` returned.
    package func callbackDidReturn() {
        guard growth != nil else { return }
        threadsInCallbacks.subtract(1, ordering: .relaxed)
    }

    /// The threads draining this queue, those added for held callbacks included.
    package var threadCount: Int { threads.load(ordering: .relaxed) }

    /// Counts a thread that starts draining this queue (before it takes any work).
    package func threadStarted() {
        condition.lock()
        threads.add(1, ordering: .relaxed)
        condition.unlock()
    }

    /// Uncounts a thread that was counted but could not be started.
    package func threadEnded() {
        condition.lock()
        threads.subtract(1, ordering: .relaxed)
        condition.unlock()
    }

    /// Whether to start one more thread, counting it as started: no thread sleeps, every thread is
    /// inside a callback, and the pool may grow. Under the lock.
    private func claimExtraThread() -> Bool {
        guard let growth, sleeping == 0 else { return false }
        let count = threads.load(ordering: .relaxed)
        guard count < growth.maxThreads, threadsInCallbacks.load(ordering: .relaxed) >= count else { return false }
        threads.add(1, ordering: .relaxed)
        return true
    }

    package func wakeOwed() { condition.signal() }

    /// Whether the caller should signal: a thread sleeps that no wake is on its way to. Counts the
    /// wake as sent. Under the lock.
    private func claimWake() -> Bool {
        guard sleeping > wakesOnTheirWay else { return false }
        wakesOnTheirWay += 1
        return true
    }

    /// Wakes every waiting thread so it checks its condition again.
    package func wake() {
        condition.lock()
        condition.unlock()
        condition.broadcast()
    }

    /// Something a draining thread does every `interval` seconds while it waits for work (outside
    /// the lock): a blocking send asking its caller whether to give up.
    package struct IdleCheck {
        package var interval: Double
        package var check: () -> Void
    }

    /// The next work item, waiting for one; `nil` once `isDone` holds. With `idleCheck`, a wait
    /// lasts at most its interval, and the check runs after each wait that long.
    package func next(until isDone: () -> Bool, idleCheck: IdleCheck? = nil) -> Work? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if isDone() {
                // This thread may have taken the wake meant for work still queued: pass it on.
                if head < items.count, claimWake() { condition.signal() }
                return nil
            }
            if head < items.count {
                let work = items[head].take()!
                head += 1
                if head == items.count {
                    items.removeAll(keepingCapacity: true)
                    head = 0
                } else if head > 64, head * 2 > items.count {
                    items.removeFirst(head)
                    head = 0
                }
                return work
            }
            sleeping += 1
            if let idleCheck {
                let timedOut = !condition.wait(seconds: idleCheck.interval)
                sleeping -= 1
                if wakesOnTheirWay > 0 { wakesOnTheirWay -= 1 }
                if timedOut {
                    condition.unlock()
                    idleCheck.check()
                    condition.lock()
                }
                continue
            }
            if let growth, threads.load(ordering: .relaxed) > growth.baseThreads {
                let timedOut = !condition.wait(seconds: growth.idleTimeout)
                sleeping -= 1
                if wakesOnTheirWay > 0 { wakesOnTheirWay -= 1 }
                // An extra thread with nothing to do for a while ends; the pool is back to its size.
                if timedOut, head == items.count, threads.load(ordering: .relaxed) > growth.baseThreads {
                    threads.subtract(1, ordering: .relaxed)
                    return nil
                }
                continue
            }
            condition.wait()
            sleeping -= 1
            // A wake taken (or a spurious one, which only makes later pushes wake more eagerly).
            if wakesOnTheirWay > 0 { wakesOnTheirWay -= 1 }
        }
    }

    /// Runs queued work on the current thread, as `executor`, until `isDone` holds; the thread
    /// counts as draining `executor` meanwhile, so a blocking wait inside the work drains it too.
    /// A pool thread passes its `ForkGate` membership, so that a fork waits for its work in hand.
    package func drain(
        as executor: some DrainingExecutor, until isDone: () -> Bool, idleCheck: IdleCheck? = nil,
        forkGate member: ForkGate.Member? = nil
    ) {
        let role = ThreadRole.current
        role.executors.append(executor)
        defer { role.executors.removeLast() }
        while let work = next(until: isDone, idleCheck: idleCheck) {
            if let member { ForkGate.shared.beginWork(member) }
            switch work {
            case .job(let job): job.runSynchronously(on: executor.asUnownedTaskExecutor())
            case .closure(let body): body()
            }
            if let member { ForkGate.shared.endWork(member) }
        }
    }
}
