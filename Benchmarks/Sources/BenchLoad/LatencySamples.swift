/// Every measured request's latency, in milliseconds, and its percentiles.
///
/// Scale mode keeps all of them rather than a histogram, as the C clients do: 10,000 in flight
/// for 15 s is about 150,000 samples, 1.2 MB of doubles, and nearest-rank percentiles on the
/// sorted samples need no bucket choice that could differ between clients. Each in-flight slot
/// appends to a value of its own (no lock, no atomic on the request path), and the slots' values
/// are merged once the cycle has drained.
struct LatencySamples: Sendable {
    /// The samples, in milliseconds, in no particular order.
    private(set) var milliseconds: [Double] = []

    /// The number of samples.
    var count: Int { milliseconds.count }

    /// Adds the latency of a request sent at `start` and complete at `end`.
    @inline(__always)
    mutating func record(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) {
        let (seconds, attoseconds) = (end - start).components
        milliseconds.append(Double(seconds) * 1e3 + Double(attoseconds) * 1e-15)
    }

    /// Adds another slot's samples.
    mutating func merge(_ other: LatencySamples) {
        milliseconds.append(contentsOf: other.milliseconds)
    }

    /// The `p`th percentiles (whole percents, 1...100) by nearest rank: the smallest sample with at
    /// least p % of the samples at or below it, the ⌈p·n/100⌉-th of the n sorted samples (in
    /// integers, so 99 % of 200 is rank 198 exactly, not 199 by a rounding error); 0 without samples.
    func percentiles(_ ps: [Int]) -> [Double] {
        guard !milliseconds.isEmpty else { return ps.map { _ in 0 } }
        let sorted = milliseconds.sorted()
        return ps.map { p in
            let rank = (p * sorted.count + 99) / 100
            return sorted[min(max(rank, 1), sorted.count) - 1]
        }
    }
}
