import Foundation
import Synchronization
import Testing

@testable import Courier

/// `ForkGate` without a fork: closing it waits for a member at work and parks one that would
/// start, and reopening lets it go on.
@Suite struct ForkGateTests {
    @Test func closingWaitsForAMemberAtWorkAndParksOneThatWouldStart() async throws {
        let gate = ForkGate(longestWait: .seconds(60))
        let working = Atomic(false)
        let endWork = Atomic(false)
        let started = Atomic(false)
        let closed = Atomic(false)
        let reopenNow = Atomic(false)
        // A member at work until told to stop.
        Thread {
            let member = gate.join()
            gate.beginWork(member)
            working.store(true, ordering: .releasing)
            while !endWork.load(ordering: .acquiring) { usleep(1000) }
            gate.endWork(member)
            gate.leave(member)
        }.start()
        while !working.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(1)) }
        // The fork's preparation, on a thread of its own: it returns once the member is done. The
        // same thread reopens the gate, as the fork handlers do: the gate's mutex is unlocked by
        // the thread that locked it (ThreadSanitizer loses track of a mutex unlocked by another).
        Thread {
            gate.close()
            closed.store(true, ordering: .releasing)
            while !reopenNow.load(ordering: .acquiring) { usleep(1000) }
            gate.reopen(inChild: false)
        }.start()
        try await Task.sleep(for: .milliseconds(200))
        #expect(closed.load(ordering: .acquiring) == false, "closed while a member was still at work")
        endWork.store(true, ordering: .releasing)
        for _ in 0..<500 where !closed.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(2)) }
        #expect(closed.load(ordering: .acquiring) == true)
        // While closed, a member that would start work parks.
        Thread {
            let member = gate.join()
            gate.beginWork(member)
            started.store(true, ordering: .releasing)
            gate.endWork(member)
            gate.leave(member)
        }.start()
        try await Task.sleep(for: .milliseconds(200))
        #expect(started.load(ordering: .acquiring) == false, "a member started work while a fork was being prepared")
        reopenNow.store(true, ordering: .releasing)
        for _ in 0..<500 where !started.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(2)) }
        #expect(started.load(ordering: .acquiring) == true)
    }

    @Test func closingWaitsAtMostItsLongestWaitForAMemberThatNeverStops() async throws {
        let gate = ForkGate(longestWait: .milliseconds(300))
        let working = Atomic(false)
        let release = Atomic(false)
        Thread {
            let member = gate.join()
            gate.beginWork(member)  // held, as by a C callback that blocks
            working.store(true, ordering: .releasing)
            while !release.load(ordering: .acquiring) { usleep(1000) }
            gate.endWork(member)
            gate.leave(member)
        }.start()
        while !working.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(1)) }
        let clock = ContinuousClock()
        // Closed and reopened on one thread, as the fork handlers do.
        let waited = await Task.detached {
            let waited = clock.measure { gate.close() }
            gate.reopen(inChild: false)
            return waited
        }.value
        release.store(true, ordering: .releasing)
        #expect(waited >= gate.longestWait)
        #expect(waited < .seconds(30))
    }
}

extension ForkGateTests {
    /// A member that works without pause passes checkpoints; a fork waits for the next one, not
    /// for the member's work to end.
    @Test func aMemberAlwaysAtWorkParksAtItsNextCheckpoint() async throws {
        let gate = ForkGate(longestWait: .seconds(60))
        let stop = Atomic(false)
        let rounds = Atomic(0)
        Thread {
            let member = gate.join()
            gate.beginWork(member)
            while !stop.load(ordering: .acquiring) {
                gate.checkpoint(member)
                rounds.add(1, ordering: .relaxed)
            }
            gate.endWork(member)
            gate.leave(member)
        }.start()
        while rounds.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let clock = ContinuousClock()
        // Closed and reopened on one thread, as the fork handlers do: the gate's mutex must be
        // unlocked by the thread that locked it.
        let results = await Task.detached {
            let waited = clock.measure { gate.close() }
            let parkedAt = rounds.load(ordering: .relaxed)
            usleep(50_000)
            let afterPause = rounds.load(ordering: .relaxed)
            gate.reopen(inChild: false)
            return (waited, parkedAt, afterPause)
        }.value
        let (waited, parkedAt, afterPause) = results
        #expect(afterPause == parkedAt, "the member worked on while the gate was closed")
        stop.store(true, ordering: .releasing)
        #expect(waited < .seconds(10))
    }
}
