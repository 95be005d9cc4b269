#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Lets a thread that resumes many tasks in a row wake their executor's sleeping threads once,
/// when it is done, instead of once per task.
///
/// Where the waker and the woken share a core, a thread woken in the middle of a run of resumptions
/// preempts the waker at once, runs one job and sleeps again: a context switch pair per task. The
/// curl I/O thread resumes the sends its round answered inside `coalescingWakes`; a queue that
/// would wake a thread meanwhile (`owesWake`) is woken once, as the run ends.
package enum WakeCoalescing {
    /// Runs `body`; wakes owed during it on this thread happen, once each, as it returns.
    package static func coalescingWakes(_ body: () -> Void) {
        let owed = Owed.current
        guard !owed.isCoalescing else { return body() }
        owed.isCoalescing = true
        body()
        owed.isCoalescing = false
        // No longer coalescing, so no wake joins the list while it is read; emptied in place
        // afterwards, so its storage serves the next run without an allocation.
        for waker in owed.wakers { waker.wakeOwed() }
        owed.wakers.removeAll(keepingCapacity: true)
    }

    /// Whether the calling thread is coalescing wakes; when it is, `waker` will be woken as the
    /// run ends, so the caller must not wake now.
    package static func owesWake(_ waker: any CoalescedWaker) -> Bool {
        guard let owed = Owed.ifCreated, owed.isCoalescing else { return false }
        owed.wakers.append(waker)
        return true
    }

    /// Whether the current task runs on a task executor whose wakes coalesce (the C library's job
    /// queues): a thread that resumes many tasks may then resume it inside `coalescingWakes`
    /// rather than through a job of its own. Any other executor's wakes cannot be deferred, and a
    /// resumer that woke such an executor once per task would be preempted once per task.
    @TaskLocal package static var taskExecutorCoalesces = false

    /// The wakes one thread owes; thread-confined.
    private final class Owed {
        @exclusivity(unchecked) var isCoalescing = false
        @exclusivity(unchecked) var wakers: [any CoalescedWaker] = []

        private static let key: pthread_key_t = {
            var key = pthread_key_t()
            pthread_key_create(&key) { pointer in
                guard let pointer else { return }
                Unmanaged<Owed>.fromOpaque(pointer).release()
            }
            return key
        }()

        static var ifCreated: Owed? {
            pthread_getspecific(key).map { Unmanaged<Owed>.fromOpaque($0).takeUnretainedValue() }
        }

        static var current: Owed {
            if let owed = ifCreated { return owed }
            let owed = Owed()
            pthread_setspecific(key, Unmanaged.passRetained(owed).toOpaque())
            return owed
        }
    }
}

/// A queue whose sleeping threads a coalescing thread wakes once its run ends.
package protocol CoalescedWaker: AnyObject, Sendable {
    /// Wakes one sleeping thread: the wake deferred by `owesWake`.
    func wakeOwed()
}
