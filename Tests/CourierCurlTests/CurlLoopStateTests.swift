import Testing

@testable import CourierCurl

/// The I/O thread's lifecycle, driven without a thread: commands are strings, waiters numbers.
@Suite("CurlLoop lifecycle state machine")
struct CurlLoopStateTests {
    private typealias State = CurlLoopState<String, Int>

    private func commands(of state: inout State) -> [String] {
        var batch: [String] = []
        state.takeCommands(into: &batch)
        return batch
    }

    @Test func theFirstCommandStartsTheThreadAndLaterOnesQueueBehindIt() {
        var state = State()
        #expect(!state.isRunning && !state.driverOwnsMulti)
        guard case .start = state.submit("a", canStart: true) else {
            Issue.record("not started")
            return
        }
        guard case .queued(ring: false) = state.submit("b", canStart: true) else {
            Issue.record("not queued")
            return
        }
        #expect(state.isRunning && state.driverOwnsMulti && !state.hasStopped)
        let first = commands(of: &state)
        let second = commands(of: &state)
        #expect(first == ["a", "b"] && second.isEmpty)
    }

    @Test func aLoopThatCannotStartRefusesTheCommandAndStaysIdle() {
        var state = State()
        guard case .refuse("a") = state.submit("a", canStart: false) else {
            Issue.record("not refused")
            return
        }
        #expect(!state.isRunning && !state.hasStopped)
    }

    @Test func aCommandForASleepingThreadRingsTheWakeupOnce() {
        var state = State()
        _ = state.submit("a", canStart: true)
        _ = commands(of: &state)
        guard case .poll = state.nextStep(activeTransfers: 1) else {
            Issue.record("not polling")
            return
        }
        guard case .queued(ring: true) = state.submit("b", canStart: true) else {
            Issue.record("no ring")
            return
        }
        guard case .queued(ring: false) = state.submit("c", canStart: true) else {
            Issue.record("rang twice")
            return
        }
        guard case .work = state.nextStep(activeTransfers: 1) else {
            Issue.record("queued work not seen")
            return
        }
        let taken = commands(of: &state)
        #expect(taken == ["b", "c"])
    }

    @Test func wakingClearsTheSleepFlagSoTheNextCommandDoesNotRing() {
        var state = State()
        _ = state.submit("a", canStart: true)
        _ = commands(of: &state)
        _ = state.nextStep(activeTransfers: 0)
        state.didWake()
        guard case .queued(ring: false) = state.submit("b", canStart: true) else {
            Issue.record("rang after wake")
            return
        }
    }

    @Test func shutdownOfALoopThatNeverRanResumesAtOnceAndRefusesLaterCommands() {
        var state = State()
        guard case .resumeNow(1) = state.shutdown(1) else {
            Issue.record("did not resume")
            return
        }
        #expect(state.hasStopped && !state.driverOwnsMulti)
        guard case .refuse("a") = state.submit("a", canStart: true) else {
            Issue.record("not refused")
            return
        }
        guard case .resumeNow(2) = state.shutdown(2) else {
            Issue.record("second shutdown waited")
            return
        }
    }

    @Test func shutdownOfARunningLoopWaitsThenExitsFailingTransfersWithTheQueueAndEveryWaiter() {
        var state = State()
        _ = state.submit("a", canStart: true)
        _ = commands(of: &state)
        _ = state.nextStep(activeTransfers: 3)
        guard case .wait(ring: true) = state.shutdown(1) else {
            Issue.record("did not wait and ring")
            return
        }
        guard case .wait(ring: false) = state.shutdown(2) else {
            Issue.record("rang twice")
            return
        }
        #expect(state.hasStopped && state.isRunning)
        guard case .queued = state.submit("late", canStart: true) else {
            Issue.record("late command lost")
            return
        }
        guard
            case .exit(failTransfers: true, leftovers: ["late"], waiters: [1, 2]) = state.nextStep(activeTransfers: 3)
        else {
            Issue.record("did not exit with the queue and waiters")
            return
        }
        #expect(!state.isRunning && state.driverOwnsMulti)
        guard case .refuse = state.submit("after", canStart: true) else {
            Issue.record("not refused")
            return
        }
    }

    @Test func aReleasedOwnerStopsTheThreadOnlyOnceItsTransfersAndQueueAreDone() {
        var state = State()
        _ = state.submit("a", canStart: true)
        _ = commands(of: &state)
        _ = state.nextStep(activeTransfers: 1)
        let rang = state.ownerReleased()
        #expect(rang)
        guard case .poll = state.nextStep(activeTransfers: 1) else {
            Issue.record("stopped with a transfer")
            return
        }
        _ = state.submit("b", canStart: true)
        guard case .work = state.nextStep(activeTransfers: 0) else {
            Issue.record("stopped with a queue")
            return
        }
        _ = commands(of: &state)
        guard case .exit(failTransfers: false, leftovers: [], waiters: []) = state.nextStep(activeTransfers: 0) else {
            Issue.record("did not stop")
            return
        }
        #expect(!state.isRunning && state.hasStopped)
    }

    @Test func releasingAnIdleLoopStopsItAndLeavesTheMultiHandleToTheLoop() {
        var state = State()
        let rang = state.ownerReleased()
        #expect(!rang)
        #expect(state.hasStopped && !state.driverOwnsMulti)
    }

    @Test func aThreadThatCannotMakeItsPollerGivesBackTheQueueTheWaitersAndTheMultiHandle() {
        var state = State()
        _ = state.submit("a", canStart: true)
        _ = state.submit("b", canStart: true)
        _ = state.shutdown(7)
        let (leftovers, waiters) = state.abandonStart()
        #expect(leftovers == ["a", "b"] && waiters == [7])
        #expect(state.hasStopped && !state.isRunning && !state.driverOwnsMulti)
    }
}
