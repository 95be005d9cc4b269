/// What scale mode adds to a result: latency percentiles of the measured cycle and the three snapshots.
///
/// The keys, names and units are those of every client's `RESULT` line in scale mode (the C
/// clients print the same from `bench_common.h`), so `scripts/summarize.py` reads them alike.
struct ScaleFigures: Sendable {
    /// The 50th percentile of the measured requests' latencies, in milliseconds.
    var p50Milliseconds: Double
    /// The 99th percentile, in milliseconds.
    var p99Milliseconds: Double
    /// After the warm-up cycle's client was freed, before the measured cycle's was made.
    var before: ResourceSnapshot
    /// At the measured cycle's deadline, with every slot's request in flight.
    var during: ResourceSnapshot
    /// After the measured cycle's client was freed.
    var after: ResourceSnapshot

    /// `p50_ms=… p99_ms=… heap_before=… … rss_kib_after=…`, space-separated, the milliseconds
    /// with three decimals and the rest integers.
    var resultKeys: String {
        let snapshots = [("before", before), ("during", during), ("after", after)]
        return (["p50_ms=\(Self.threeDecimals(p50Milliseconds))", "p99_ms=\(Self.threeDecimals(p99Milliseconds))"]
            + snapshots.map { "heap_\($0.0)=\($0.1.heap)" }
            + snapshots.map { "fds_\($0.0)=\($0.1.fds)" }
            + snapshots.map { "rss_kib_\($0.0)=\($0.1.rssKiB)" })
            .joined(separator: " ")
    }

    /// `value` as `%.3f` prints it, for the non-negative figures here, without Foundation.
    private static func threeDecimals(_ value: Double) -> String {
        let thousandths = Int((max(value, 0) * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
