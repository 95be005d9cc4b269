import Courier
import Synchronization
import Testing

/// `SharedTask` with real tasks: shared results, cancellation one member at a time, abandonment.
@Suite("Shared task")
struct SharedTaskTests {
    struct Failed: Error {}

    /// Lets a test hold the shared work until it says so, and see whether it was cancelled.
    final class Gate: Sendable {
        private let opened = AsyncStream<Void>.makeStream()
        private let started = AsyncStream<Void>.makeStream()
        private let cancelled = Atomic(false)

        var wasCancelled: Bool { cancelled.load(ordering: .acquiring) }

        /// The work's body: says it started, then waits for `open()` or its cancellation.
        func pass() async throws {
            started.continuation.yield()
            await withTaskCancellationHandler {
                for await _ in opened.stream { break }
            } onCancel: {
                cancelled.store(true, ordering: .releasing)
                opened.continuation.finish()
            }
            try Task.checkCancellation()
        }

        func waitUntilStarted() async {
            for await _ in started.stream { break }
        }

        func open() { opened.continuation.yield() }
    }

    @Test func everyMemberGetsTheOneResult() async throws {
        let runs = Atomic(0)
        let gate = Gate()
        let shared = SharedTask<Int>(cancelsWhenAbandoned: true) {
            runs.add(1, ordering: .relaxed)
            try await gate.pass()
            return 42
        }
        for _ in 0..<4 { #expect(shared.join()) }
        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<5 { group.addTask { try await shared.value() } }
            await gate.waitUntilStarted()
            gate.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == Array(repeating: 42, count: 5))
        #expect(runs.load(ordering: .relaxed) == 1)
    }

    @Test func theWorksErrorReachesEveryMember() async {
        let shared = SharedTask<Int>(cancelsWhenAbandoned: true) { throw Failed() }
        #expect(shared.join())
        await #expect(throws: Failed.self) { try await shared.value() }
        await #expect(throws: Failed.self) { try await shared.value() }
    }

    @Test func aCancelledMemberLeavesAtOnceAndTheOthersStillGetTheResult() async throws {
        let gate = Gate()
        let shared = SharedTask<Int>(cancelsWhenAbandoned: true) {
            try await gate.pass()
            return 1
        }
        #expect(shared.join())
        let leaving = Task { try await shared.value() }
        let staying = Task { try await shared.value() }
        await gate.waitUntilStarted()
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        #expect(!gate.wasCancelled, "one member leaving does not cancel the work")
        gate.open()
        #expect(try await staying.value == 1)
    }

    @Test func whenEveryMemberLeavesTheWorkIsCancelledAndCannotBeJoined() async {
        let gate = Gate()
        let finished = Atomic(false)
        let shared = SharedTask<Int>(
            cancelsWhenAbandoned: true,
            operation: {
                try await gate.pass()
                return 1
            }, finished: { _ in finished.store(true, ordering: .releasing) })
        let only = Task { try await shared.value() }
        await gate.waitUntilStarted()
        only.cancel()
        await #expect(throws: CancellationError.self) { try await only.value }
        #expect(!shared.join())
        while !finished.load(ordering: .acquiring) { await Task.yield() }
        #expect(gate.wasCancelled)
    }

    @Test func workThatOutlivesItsMembersFinishesForALaterOne() async throws {
        let gate = Gate()
        let shared = SharedTask<Int>(cancelsWhenAbandoned: false) {
            try await gate.pass()
            return 5
        }
        let first = Task { try await shared.value() }
        await gate.waitUntilStarted()
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        #expect(shared.join())
        gate.open()
        #expect(try await shared.value() == 5)
        #expect(!gate.wasCancelled)
    }

    @Test func aMemberAlreadyCancelledLeavesWithoutWaiting() async throws {
        let gate = Gate()
        let shared = SharedTask<Int>(cancelsWhenAbandoned: false) {
            try await gate.pass()
            return 1
        }
        #expect(shared.join())
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await shared.value()
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        gate.open()
        #expect(try await shared.value() == 1)
    }
}
