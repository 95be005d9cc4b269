import Synchronization

/// Drives one load scenario: a warmup, then a measured phase bounded by count and by time; or, in
/// scale mode, the two cycles of `ScaleRun`, each on a client of its own.
public enum LoadRunner {
    /// Runs `options`' scenario with clients from `makeClient`.
    ///
    /// Without scale mode it makes one client, sends `options.warmup` requests, measures, and shuts
    /// the client down: the same requests as `run(_:request:)`, with nothing added per request.
    /// (A name of its own rather than another `run`, so a trailing closure picks one unambiguously.)
    /// In scale mode (`options.scale`) it makes a client per cycle and frees each at the cycle's
    /// end, so that what a client holds per request in flight, and what it leaves once freed,
    /// can be measured (`ScaleRun`).
    public static func runWithClients(
        _ options: LoadOptions, makeClient: () async throws -> LoadClient
    ) async throws -> LoadResult {
        if options.scale { return try await ScaleRun(options: options).run(makeClient: makeClient) }
        let client = try await makeClient()
        let outcome: Result<LoadResult, any Error>
        do {
            outcome = .success(try await warmThenMeasure(options, request: client.send))
        } catch {
            outcome = .failure(error)
        }
        try await client.shutdown()
        return try outcome.get()
    }

    /// Sends `options.warmup` requests, then measures sends of `request` with `options.inFlight` in flight.
    ///
    /// Each in-flight slot is a child task that sends one request after another, so the figure is
    /// the steady rate of `inFlight` concurrent clients, as `wrk -c` reports it.
    ///
    /// - Throws: `LoadError.usage` in scale mode, which needs a client per cycle
    ///   (`runWithClients(_:makeClient:)`): a row is never filled with figures of the wrong mode.
    public static func run(_ options: LoadOptions, request: @escaping @Sendable () async throws -> Void) async throws -> LoadResult {
        guard !options.scale else {
            throw LoadError.usage("this client has no scale mode (BENCH_SCALE=1 or --scale 1)")
        }
        return try await warmThenMeasure(options, request: request)
    }

    private static func warmThenMeasure(
        _ options: LoadOptions, request: @escaping @Sendable () async throws -> Void
    ) async throws -> LoadResult {
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

/// Hands out request numbers to the in-flight slots, so together they send at most `count`.
private final class Claims: Sendable {
    private let claimed = Atomic<Int>(0)

    /// The next request number, from 0.
    func next() -> Int { claimed.add(1, ordering: .relaxed).oldValue }
}
