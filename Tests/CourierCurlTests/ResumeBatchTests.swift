import Courier
import Foundation
import HTTPTypes
import Testing

@testable import CourierCurl

/// The sends a round answers are resumed together, each exactly once with its own outcome, whether
/// it goes by the global executor's batch job or is resumed directly.
@Suite("ResumeBatch")
struct ResumeBatchTests {
    @Test(arguments: [1, 2, 32])
    func everySendInTheBatchGetsItsOwnOutcome(count: Int) async throws {
        let waiting = Waiting()
        try await withThrowingTaskGroup(of: (Int, Result<Int, CourierError>).self) { group in
            for index in 0..<count {
                group.addTask {
                    do {
                        let response = try await withUnsafeThrowingContinuation { continuation in
                            waiting.list.withLock { $0.append((index, continuation)) }
                        }
                        return (index, .success(response.status.code))
                    } catch let error as CourierError {
                        return (index, .failure(error))
                    }
                }
            }
            while waiting.list.withLock({ $0.count }) < count { await Task.yield() }
            let request = Request(url: URL(string: "http://127.0.0.1/")!)
            var batch = ResumeBatch()
            for (index, continuation) in waiting.list.withLock({ $0 }) {
                let directly = index % 3 == 0
                if index.isMultiple(of: 2) {
                    batch.add(
                        continuation, .success(Response(status: .init(code: 200 + index), request: request)),
                        directly: directly)
                } else {
                    batch.add(
                        continuation, .failure(CourierError(.timedOut, "send \(index)")), directly: directly
                    )
                }
            }
            batch.flush()
            #expect(batch.isEmpty)
            var answered = 0
            for try await (index, outcome) in group {
                answered += 1
                switch outcome {
                case .success(let code): #expect(index.isMultiple(of: 2) && code == 200 + index)
                case .failure(let error): #expect(!index.isMultiple(of: 2) && error.message == "send \(index)")
                }
            }
            #expect(answered == count)
        }
    }
}

/// Which sends the I/O thread resumes itself: only those whose task says its executor coalesces
/// its wakes, never merely any task executor's, whose wakes would preempt the I/O thread per send.
@Suite("Direct resumption")
struct DirectResumptionTests {
    /// A task executor of the user's kind: runs its jobs on a dispatch queue.
    final class QueueTaskExecutor: TaskExecutor {
        private let queue = DispatchQueue(label: "direct-resumption-tests")
        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedTaskExecutor()
            queue.async { job.runSynchronously(on: executor) }
        }
    }

    private static func transfer() -> CurlTransfer {
        CurlTransfer(
            id: 1, request: Request(url: URL(string: "http://127.0.0.1/")!), context: TransportContext(),
            upload: nil, uploadLength: nil, proxy: nil)
    }

    @Test func onlyATaskMarkedAsCoalescingIsResumedDirectly() async {
        #expect(!Self.transfer().resumesDirectly)
        await withTaskExecutorPreference(QueueTaskExecutor()) {
            #expect(!Self.transfer().resumesDirectly, "a user's task executor goes by the global job")
        }
        await WakeCoalescing.$taskExecutorCoalesces.withValue(true) {
            #expect(Self.transfer().resumesDirectly)
        }
    }
}

/// The continuations of the sends a test holds, by index, filled from their tasks.
private final class Waiting: Sendable {
    let list = Protected<[(Int, SendContinuation)]>([])
}
