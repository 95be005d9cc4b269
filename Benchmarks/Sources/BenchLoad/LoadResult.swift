/// How many requests a measured phase completed, how long it took and what the process spent on them.
public struct LoadResult: Sendable {
    /// Completed requests.
    public var requests: Int
    /// Wall-clock time of the phase.
    public var elapsed: Duration
    /// CPU time of the whole process (every thread) during the phase, per request, in microseconds.
    public var cpuMicrosecondsPerRequest: Double
    /// Allocations during the phase per request; `nil` when the malloc counter is not preloaded.
    public var allocationsPerRequest: Double?
    /// Scale mode's latency percentiles and snapshots; `nil` outside scale mode, whose `RESULT`
    /// line then has exactly the keys it had before scale mode existed.
    var scale: ScaleFigures?

    init(requests: Int, elapsed: Duration, since start: ProcessCost) {
        let end = ProcessCost.now()
        let count = Double(max(requests, 1))
        self.requests = requests
        self.elapsed = elapsed
        cpuMicrosecondsPerRequest = (end.cpuSeconds - start.cpuSeconds) * 1e6 / count
        if let before = start.allocations, let after = end.allocations {
            allocationsPerRequest = Double(after - before) / count
        }
    }

    /// Completed requests per second.
    public var requestsPerSecond: Double {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds > 0 ? Double(requests) / seconds : 0
    }

    /// Prints the human line and the `RESULT` line that `run.sh` collects, in the C clients' format;
    /// in scale mode the line ends with the keys `ScaleFigures` adds.
    public func report(scenario: String, perHost: Int, interceptors: Int = 0) {
        let rate = Int(requestsPerSecond.rounded())
        let mallocs = allocationsPerRequest.map(Self.oneDecimal) ?? "-1"
        print("\(scenario): \(requests) requests in \(elapsed), requests/s: \(rate)")
        print("RESULT scenario=\(scenario) requests=\(requests) rps=\(rate) "
              + "cpu_us=\(Self.oneDecimal(cpuMicrosecondsPerRequest)) mallocs=\(mallocs) "
              + "per_host=\(perHost) interceptors=\(interceptors)"
              + (scale.map { " " + $0.resultKeys } ?? ""))
    }

    private static func oneDecimal(_ value: Double) -> String {
        String((value * 10).rounded() / 10)
    }
}
