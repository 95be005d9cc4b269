#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex and a condition variable, for threads that sleep until told (the C library's job
/// queues, a call's waiters): Foundation's `NSCondition` is in full Foundation only. Timed waits
/// count on the monotonic clock, so a change of the wall clock neither cuts nor stretches them.
package final class PthreadCondition: @unchecked Sendable {
    // Unchecked: the two are used only through pthreads, whose calls are the synchronization.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if !canImport(Darwin)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }

    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits, with the lock held, until signalled (or woken spuriously).
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits, with the lock held, at most `seconds`; `false` when the time ran out.
    package func wait(seconds: Double) -> Bool {
        #if canImport(Darwin)
        var relative = timespec(
            tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.towardZero)) * 1_000_000_000))
        return pthread_cond_timedwait_relative_np(condition, mutex, &relative) == 0
        #else
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = Int(now.tv_nsec) + Int((seconds - seconds.rounded(.towardZero)) * 1_000_000_000)
        var deadline = timespec(
            tv_sec: now.tv_sec + Int(seconds) + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        return pthread_cond_timedwait(condition, mutex, &deadline) == 0
        #endif
    }

    package func signal() { pthread_cond_signal(condition) }

    package func broadcast() { pthread_cond_broadcast(condition) }
}
