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
        // The fork's preparation, on a thread of its own: it returns once the member is done.
        Thread {
            gate.close()
            closed.store(true, ordering: .releasing)
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
        gate.reopen(inChild: false)
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
        let waited = await Task.detached { clock.measure { gate.close() } }.value
        gate.reopen(inChild: false)
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
        let waited = await Task.detached { clock.measure { gate.close() } }.value
        let parkedAt = rounds.load(ordering: .relaxed)
        try await Task.sleep(for: .milliseconds(50))
        #expect(rounds.load(ordering: .relaxed) == parkedAt, "the member worked on while the gate was closed")
        gate.reopen(inChild: false)
        stop.store(true, ordering: .releasing)
        #expect(waited < .seconds(10))
    }
}
