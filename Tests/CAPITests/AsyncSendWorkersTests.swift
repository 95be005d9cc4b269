import Courier
import Testing

@testable import CourierCAPI
@testable import CourierCInterceptors

/// `AsyncSendWorkers` on a pool of its own, with sends that stand in for the C library's: each
/// counted on the pool, reporting its outcome to its call box as the real one does.
@Suite struct AsyncSendWorkersTests {
    private let pool = CallbackPool(threads: 2, name: "test-workers")
    private let workers: AsyncSendWorkers

    init() {
        workers = AsyncSendWorkers(pool: pool)
    }

    @Test func aWorkerParksAfterItsSendAndRunsTheNextOnTheSameTask() async throws {
        let first = try await send { Self.currentTask }
        try await parked(1)
        let second = try await send { Self.currentTask }
        try await parked(1)
        #expect(first == second)
        await finish()
    }

    @Test func aWorkersSendsSayTheirExecutorCoalescesItsWakes() async throws {
        #expect(try await send { WakeCoalescing.taskExecutorCoalesces })
        await finish()
    }

    @Test func aCancelledWorkerEndsInsteadOfParking() async throws {
        let call = CallBox()
        let cancelled = try await send(reportingTo: call, whenRunning: { call.cancel() }) {
            try? await Task.sleep(for: .seconds(30))
            return Task.isCancelled
        }
        #expect(cancelled)
        try await Task.sleep(for: .milliseconds(100))
        #expect(workers.parkedCount == 0, "its task stays cancelled, so it must not take another send")
        #expect(try await send { Task.isCancelled } == false)
        await finish()
    }

    @Test func aCancelAfterTheOutcomeNeverReachesTheWorkersNextSend() async throws {
        // Its completion still waits in the program's queue, so the box has not seen it end.
        let early = CallBox()
        let first = try await send(reportingTo: early, completing: false) { Self.currentTask }
        try await parked(1)
        let (second, cancelled) = try await send(reportingTo: CallBox(), whenRunning: { early.cancel() }) {
            try? await Task.sleep(for: .milliseconds(200))
            return (Self.currentTask, Task.isCancelled)
        }
        #expect(second == first, "the same worker ran both sends")
        #expect(!cancelled)
        await finish()
    }

    @Test func closingEndsTheParkedWorkersAndRefusesNewSends() async throws {
        _ = try await send { 0 }
        try await parked(1)
        await finish()
        #expect(workers.parkedCount == 0)
        let accepted = workers.run({}, reportingTo: nil)
        #expect(!accepted)
    }

    /// Runs `body` as one send and returns its result; `whenRunning` runs on the test's task once
    /// `body` has started. Without `completing`, the completion is left as if queued for later.
    private func send<T: Sendable>(
        reportingTo call: CallBox? = nil, completing: Bool = true, whenRunning: @Sendable () -> Void = {},
        _ body: @escaping @Sendable () async -> T
    ) async throws -> T {
        let started = Protected(false)
        let result = Protected<T?>(nil)
        try #require(pool.begin())
        let accepted = workers.run(
            { [pool] in
                started.withLock { $0 = true }
                let value = await body()
                call?.outcomeKnown()
                result.withLock { $0 = value }
                if completing { call?.finish() }
                pool.end()
            }, reportingTo: call)
        try #require(accepted)
        while !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        whenRunning()
        while true {
            if let value = result.withLock({ $0 }) { return value }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits until `count` workers are parked.
    private func parked(_ count: Int) async throws {
        for _ in 0..<1000 where workers.parkedCount != count {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(workers.parkedCount == count)
    }

    /// Closes the workers and stops the pool; returns once its last worker has ended.
    private func finish() async {
        workers.close()
        await withCheckedContinuation { finished in
            pool.stop(whenFinished: { finished.resume() })
        }
    }

    /// The running task's hash, to tell one worker from another.
    private static var currentTask: Int? { withUnsafeCurrentTask { $0?.hashValue } }
}
