#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the whole process has spent so far: CPU time of every thread, and allocations when the
/// benchmarks' `libmalloc_count.so` is preloaded (run.sh preloads it for every client row).
struct ProcessCost {
    /// User and system CPU time, in seconds.
    var cpuSeconds: Double
    /// `malloc`, `calloc`, `realloc` and aligned allocations so far; `nil` without the preload.
    var allocations: Int?

    /// The process's cost now.
    static func now() -> ProcessCost {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        return ProcessCost(cpuSeconds: cpu, allocations: mallocCounter.map { Int($0()) })
    }

    /// `bench_malloc_count` from the preloaded counter, looked up once.
    private static let mallocCounter: (@convention(c) () -> UInt)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "bench_malloc_count") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) () -> UInt).self)
    }()
}
