import Courier
import Testing

@testable import CourierCInterceptors

/// A pool thread woken by a caller on the same core waits for the caller to block instead of
/// preempting it, so a loop starting many sends in a row pays one switch for all of them.
@Suite struct CallbackPoolSchedulingTests {
    #if os(Linux)
    @Test func aPoolThreadRunsWithTheBatchPolicy() async {
        let pool = CallbackPool(threads: 1, name: "test-batch")
        defer { pool.stop() }
        #expect(await pool.run { BatchScheduling.isCurrentThreadBatch })
    }

    @Test func theSharedPoolRunsWithTheBatchPolicyButSwiftsPoolDoesNot() async {
        #expect(!BatchScheduling.isCurrentThreadBatch)
        #expect(await CallbackPool.shared.run { BatchScheduling.isCurrentThreadBatch })
    }
    #endif
}
