import Testing

@testable import CourierCAPI

/// `CallBox.Phase` on its own: which worker a cancel reaches, and when `wait` may return.
@Suite struct CallBoxPhaseTests {
    private static let worker = Task<Void, Never> {}

    @Test func aCancelBeforeTheWorkerIsKnownCancelsItAsItStarts() {
        var phase = CallBox.Phase.starting(cancelled: false)
        #expect(phase.cancel() == .none)
        #expect(phase.start(on: Self.worker) == .cancel(Self.worker))
        #expect(phase == .running(worker: Self.worker))
    }

    @Test func aCancelWhileTheSendRunsCancelsItsWorker() {
        var phase = CallBox.Phase.starting(cancelled: false)
        #expect(phase.start(on: Self.worker) == .none)
        #expect(phase.cancel() == .cancel(Self.worker))
    }

    @Test func onceTheOutcomeIsKnownACancelReachesNoWorker() {
        var phase = CallBox.Phase.starting(cancelled: false)
        _ = phase.start(on: Self.worker)
        #expect(phase.endSend() == .none)
        #expect(phase.cancel() == .none)
        #expect(phase == .ended(completed: false))
    }

    @Test func aWorkerReportedAfterTheOutcomeIsIgnored() {
        var phase = CallBox.Phase.starting(cancelled: true)
        _ = phase.endSend()
        #expect(phase.start(on: Self.worker) == .none, "the worker may already run another send")
        #expect(phase == .ended(completed: false))
    }

    @Test func onlyTheCompletionEndsTheWait() {
        var phase = CallBox.Phase.starting(cancelled: false)
        _ = phase.start(on: Self.worker)
        _ = phase.endSend()
        #expect(phase != .ended(completed: true))
        _ = phase.complete()
        #expect(phase == .ended(completed: true))
        _ = phase.endSend()
        #expect(phase == .ended(completed: true), "a late outcome report does not undo the completion")
    }
}
