import Courier
import Dispatch
import Synchronization
import Testing

/// `withCancellationHandler`: the operation stays on the caller's actor, and cancelling still reaches the handler.
@Suite("Cancellation handler")
struct CancellationHandlerTests {
    /// Runs an actor's jobs on one dispatch queue, so a job can tell whether it runs on the actor.
    final class QueueExecutor: SerialExecutor {
        static let marker = DispatchSpecificKey<Bool>()
        private let queue = DispatchQueue(label: "cancellation-handler-tests")

        init() { queue.setSpecific(key: Self.marker, value: true) }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedSerialExecutor()
            queue.async { job.runSynchronously(on: executor) }
        }
    }

    actor QueueActor {
        private let executor = QueueExecutor()

        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        /// Whether the calling code runs on this actor's queue.
        nonisolated static var isOnQueue: Bool { DispatchQueue.getSpecific(key: QueueExecutor.marker) == true }

        /// Where the operation of each helper ran, for `rounds` calls that each wait on another thread.
        func whereOperationsRan(rounds: Int) async -> (standard: Int, courier: Int) {
            var onActor = (standard: 0, courier: 0)
            for _ in 0..<rounds {
                if await Self.standardHandlerRanOnQueue() { onActor.standard += 1 }
                if await Self.courierHandlerRanOnQueue() { onActor.courier += 1 }
            }
            return onActor
        }

        /// The standard library's handler, as transports called it before.
        private nonisolated(nonsending) static func standardHandlerRanOnQueue() async -> Bool {
            await withTaskCancellationHandler {
                let startedOnQueue = isOnQueue
                await waitForAnotherThread()
                return startedOnQueue
            } onCancel: {
            }
        }

        private nonisolated(nonsending) static func courierHandlerRanOnQueue() async -> Bool {
            await withCancellationHandler {
                let startedOnQueue = isOnQueue
                await waitForAnotherThread()
                return startedOnQueue && isOnQueue
            } onCancel: {
            }
        }

        private nonisolated(nonsending) static func waitForAnotherThread() async {
            await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async { resumed.resume() }
            }
        }
    }

    @Test func theOperationRunsOnTheCallersActorWhereTheStandardOneLeavesIt() async {
        let onActor = await QueueActor().whereOperationsRan(rounds: 20)
        #expect(onActor.courier == 20, "every operation, before and after its wait, on the caller's actor")
        // What the helper exists for: if this starts failing, the standard library stopped hopping
        // and the helper can go.
        #expect(onActor.standard == 0)
    }

    @Test func cancellingTheTaskRunsTheHandlerWhileTheOperationWaits() async throws {
        final class Flag: Sendable { let isSet = Atomic(false) }
        let cancelled = Flag()
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let task = Task {
            try await withCancellationHandler {
                startedContinuation.yield()
                try await Task.sleep(for: .seconds(60))
            } onCancel: {
                cancelled.isSet.store(true, ordering: .relaxed)
            }
        }
        var iterator = started.makeAsyncIterator()
        await iterator.next()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        let handlerRan = cancelled.isSet.load(ordering: .relaxed)
        #expect(handlerRan)
    }
}
