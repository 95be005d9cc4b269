import Courier

/// The two probes, run from whatever executor calls them (`nonisolated(nonsending)`).
enum Probe {
    /// One recorded send: the caller notes its thread before and after.
    nonisolated(nonsending) static func trace(_ client: Client, _ request: Request, log: ThreadLog, caller: String) async throws {
        log.record("caller (\(caller)), before send")
        _ = try await client.send(request)
        log.record("caller (\(caller)), after send")
    }

    /// The time of `count` sends, one after another.
    nonisolated(nonsending) static func time(_ client: Client, _ request: Request, count: Int) async throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<count { _ = try await client.send(request) }
        return clock.now - start
    }
}
