#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic nanoseconds straight from `clock_gettime`: every C callback reads the clock once to
/// catch one that runs past the request's timeout, and this costs a third of `ContinuousClock.now`.
package enum MonotonicClock {
    package static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
