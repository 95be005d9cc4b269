import Synchronization

/// Drives one load scenario: a warmup, then a measured phase bounded by count and by time.
public enum LoadRunner {
    /// Sends `options.warmup` requests, then measures sends of `request` with `options.inFlight` in flight.
    ///
    /// Each in-flight slot is a child task that sends one request after another, so the figure is
    /// the steady rate of `inFlight` concurrent clients, as `wrk -c` reports it.
    public static func run(_ options: LoadOptions, request: @escaping @Sendable () async throws -> Void) async throws -> LoadResult {
        _ = try await phase(count: options.warmup, seconds: options.seconds, inFlight: options.inFlight, request: request)
        return try await phase(count: options.count, seconds: options.seconds, inFlight: options.inFlight, request: request)
    }

    private static func phase(count: Int, seconds: Double, inFlight: Int,
                              request: @escaping @Sendable () async throws -> Void) async throws -> LoadResult {
        let clock = ContinuousClock()
        let start = clock.now
        let startCost = ProcessCost.now()
        let deadline = start + .milliseconds(Int64(seconds * 1000))
        let claimed = Claims()
        guard inFlight > 1 else {
            var sent = 0
            while sent < count, clock.now < deadline {
                try await request()
                sent += 1
            }
            return LoadResult(requests: sent, elapsed: clock.now - start, since: startCost)
        }
        let sent = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<inFlight {
                group.addTask {
                    var mine = 0
                    while claimed.next() < count, clock.now < deadline {
                        try await request()
                        mine += 1
                    }
                    return mine
                }
            }
            return try await group.reduce(0, +)
        }
        return LoadResult(requests: sent, elapsed: clock.now - start, since: startCost)
    }
}

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

    /// Prints the human line and the `RESULT` line that `run.sh` collects, in the C clients' format.
    public func report(scenario: String, perHost: Int, interceptors: Int = 0) {
        let rate = Int(requestsPerSecond.rounded())
        let mallocs = allocationsPerRequest.map(Self.oneDecimal) ?? "-1"
        print("\(scenario): \(requests) requests in \(elapsed), requests/s: \(rate)")
        print("RESULT scenario=\(scenario) requests=\(requests) rps=\(rate) "
              + "cpu_us=\(Self.oneDecimal(cpuMicrosecondsPerRequest)) mallocs=\(mallocs) "
              + "per_host=\(perHost) interceptors=\(interceptors)")
    }

    private static func oneDecimal(_ value: Double) -> String {
        String((value * 10).rounded() / 10)
    }
}

/// Hands out request numbers to the in-flight slots, so together they send at most `count`.
private final class Claims: Sendable {
    private let claimed = Atomic<Int>(0)

    /// The next request number, from 0.
    func next() -> Int { claimed.add(1, ordering: .relaxed).oldValue }
}
