#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic nanoseconds straight from `clock_gettime`, as a plain `Int64`: every C callback reads
/// the clock to catch one that runs past the request's timeout, and transports time each exchange's
/// phases with it. It costs a third of `ContinuousClock.now`, and its differences need no
/// `Duration` (whose conversion to nanoseconds divides 128-bit numbers).
package enum MonotonicClock {
    package static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
