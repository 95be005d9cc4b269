import Courier
import Foundation

/// The jobs and closures waiting for a Courier thread, and the condition threads sleep on.
///
/// A push wakes one sleeping thread, and only when no wake already sent is still on its way to
/// one: the I/O thread's round resumes many sends at once, and on a shared core the woken thread
/// cannot run until the pusher yields, so waking per push (or every thread per push, as a
/// broadcast did) cost a futex call per request and threads fighting over the lock.
final class JobQueue: CoalescedWaker, @unchecked Sendable {
    enum Work {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    private let condition = NSCondition()
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

    func push(_ work: Work) {
        condition.lock()
        items.append(work)
        let wakesOne = claimWake()
        condition.unlock()
        if wakesOne, !WakeCoalescing.owesWake(self) { condition.signal() }
    }

    func wakeOwed() { condition.signal() }

    /// Whether the caller should signal: a thread sleeps that no wake is on its way to. Counts the
    /// wake as sent. Under the lock.
    private func claimWake() -> Bool {
        guard sleeping > wakesOnTheirWay else { return false }
        wakesOnTheirWay += 1
        return true
    }

    /// Wakes every waiting thread so it checks its condition again.
    func wake() {
        condition.lock()
        condition.unlock()
        condition.broadcast()
    }

    /// The next work item, waiting for one; `nil` once `isDone` holds.
    func next(until isDone: () -> Bool) -> Work? {
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
            condition.wait()
            sleeping -= 1
            // A wake taken (or a spurious one, which only makes later pushes wake more eagerly).
            if wakesOnTheirWay > 0 { wakesOnTheirWay -= 1 }
        }
    }

    /// Runs queued work on the current thread, as `executor`, until `isDone` holds; the thread
    /// counts as draining `executor` meanwhile, so a blocking wait inside the work drains it too.
    func drain(as executor: some DrainingExecutor, until isDone: () -> Bool) {
        let role = ThreadRole.current
        role.executors.append(executor)
        defer { role.executors.removeLast() }
        while let work = next(until: isDone) {
            switch work {
            case .job(let job): job.runSynchronously(on: executor.asUnownedTaskExecutor())
            case .closure(let body): body()
            }
        }
    }
}
