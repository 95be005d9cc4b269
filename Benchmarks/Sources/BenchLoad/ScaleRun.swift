/// Scale mode: a warm-up cycle and a measured cycle, each on a client of its own, with snapshots
/// between them (`notes/scale-spec.md`, which the C clients follow too).
///
/// 1. Warm-up: make a client, complete `inFlight × 2` requests with `inFlight` in flight, free it.
///    It brings up what stays for the process's life (the event loops AsyncHTTPClient shares, the
///    runtime's caches), so "before" and "after" differ only by what a client leaves behind.
/// 2. Snapshot "before".
/// 3. Measured cycle: make a new client and keep `inFlight` requests in flight until `seconds`
///    have passed (or `count` were started). A task of its own wakes at the deadline and takes
///    snapshot "during" while every slot still has its request in flight, then stops the slots;
///    the started requests drain and the phase ends (rps and CPU cover start → drained, as in
///    the plain run); then the client is freed.
/// 4. Snapshot "after".
///
/// Every measured request's latency is kept, from calling `send` to having the whole response
/// (`LatencySamples`); the plain run records none, so it pays nothing for this mode.
struct ScaleRun {
    /// The run's settings; `warmup` is not used (the warm-up is `inFlight × 2` requests).
    let options: LoadOptions

    /// Runs both cycles with clients from `makeClient` and returns the measured one's result with its `ScaleFigures`.
    func run(makeClient: () async throws -> LoadClient) async throws -> LoadResult {
        try await warmUp(makeClient())
        await Self.settle()
        let before = ResourceSnapshot.now()
        let measured = try await measure(makeClient())
        // The client and the samples are gone by now: "after" sees neither.
        await Self.settle()
        let after = ResourceSnapshot.now()
        var result = measured.result
        result.scale = ScaleFigures(
            p50Milliseconds: measured.percentiles[0], p99Milliseconds: measured.percentiles[1],
            before: before, during: measured.during, after: after)
        return result
    }

    /// Waits 100 ms on the clock the measuring task sleeps on, before "before" and before "after".
    ///
    /// A client's shutdown can return a moment before its threads have let go of everything:
    /// CurlTransport's I/O thread resumes `shutdown()` and then closes its epoll set and wakeup
    /// eventfd as it exits. And the first sleep on a clock makes the runtime's timer descriptor
    /// for it (Dispatch's timerfd), which the measuring task would otherwise add between "before"
    /// and "after". Settling both snapshots alike leaves only what a freed client really keeps.
    private static func settle() async {
        try? await Task.sleep(until: ContinuousClock.now + .milliseconds(100), clock: ContinuousClock())
    }

    /// Completes `inFlight × 2` requests on `client`, then frees it.
    private func warmUp(_ client: LoadClient) async throws {
        try await Self.using(client) {
            _ = try await drive(client.send, gate: ScaleGate(count: options.inFlight * 2), measurer: nil)
        }
    }

    /// The measured cycle on `client`, which it frees: the phase's result, the p50 and p99 latencies
    /// (computed once the phase has ended, so the sort is not in it) and the "during" snapshot.
    private func measure(_ client: LoadClient) async throws
        -> (result: LoadResult, percentiles: [Double], during: ResourceSnapshot)
    {
        try await Self.using(client) {
            let clock = ContinuousClock()
            let start = clock.now
            let startCost = ProcessCost.now()
            let deadline = start + .milliseconds(Int64(options.seconds * 1000))
            let gate = ScaleGate(count: options.count)
            // Detached and high-priority: not behind the slots' work on the caller's executor, and
            // woken by the clock, not by a completion. A slot that starts the last of `count`
            // requests cancels the sleep, so the snapshot still catches the slots in flight.
            let measurer = Task.detached(priority: .high) {
                try? await Task.sleep(until: deadline, clock: clock)
                let during = ResourceSnapshot.now()
                gate.stop()
                return during
            }
            let samples: LatencySamples
            do {
                samples = try await drive(client.send, gate: gate, measurer: measurer)
            } catch {
                measurer.cancel()
                _ = await measurer.value
                throw error
            }
            let result = LoadResult(requests: samples.count, elapsed: clock.now - start, since: startCost)
            return (result, samples.percentiles([50, 99]), await measurer.value)
        }
    }

    /// Keeps `inFlight` slots sending through `send` until `gate` stops them, and returns every
    /// request's latency. One in flight runs in the caller's context, as the plain run does;
    /// more are child tasks, one per slot.
    private func drive(_ send: @escaping @Sendable () async throws -> Void, gate: ScaleGate,
                       measurer: Task<ResourceSnapshot, Never>?) async throws -> LatencySamples {
        guard options.inFlight > 1 else { return try await Self.slot(send, gate: gate, measurer: measurer) }
        return try await withThrowingTaskGroup(of: LatencySamples.self) { group in
            for _ in 0..<options.inFlight {
                group.addTask { try await Self.slot(send, gate: gate, measurer: measurer) }
            }
            var all = LatencySamples()
            for try await samples in group { all.merge(samples) }
            return all
        }
    }

    /// One slot: a request after another while the gate allows, each timed from the call to `send`
    /// to its return (the whole body read), into samples of the slot's own.
    private static func slot(_ send: @Sendable () async throws -> Void, gate: ScaleGate,
                             measurer: Task<ResourceSnapshot, Never>?) async throws -> LatencySamples {
        let clock = ContinuousClock()
        var samples = LatencySamples()
        while let number = gate.claim() {
            if number == gate.count - 1 { measurer?.cancel() }
            let start = clock.now
            try await send()
            samples.record(from: start, to: clock.now)
        }
        return samples
    }

    /// Runs `body`, then frees `client` whether or not `body` threw (an error of `body` is thrown
    /// rather than one of the shutdown after it).
    private static func using<T>(_ client: LoadClient, _ body: () async throws -> T) async throws -> T {
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await body())
        } catch {
            outcome = .failure(error)
        }
        do {
            try await client.shutdown()
        } catch {
            _ = try outcome.get()
            throw error
        }
        return try outcome.get()
    }
}
