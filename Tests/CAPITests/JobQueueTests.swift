import Courier
import Foundation
import Synchronization
import Testing

@testable import CourierCAPI
@testable import CourierCInterceptors

/// `JobQueue` wakes a sleeping thread only when none is already on its way, so every push must
/// still reach a thread: pushes from outside, from a thread coalescing its wakes, and work left
/// behind by a thread whose own wait ended.
@Suite struct JobQueueTests {
    @Test(arguments: [false, true])
    func everyPushedClosureRunsWithTwoSleepingThreads(coalescing: Bool) async throws {
        let queue = JobQueue()
        let stop = Atomic(false)
        let ran = Atomic(0)
        let threads = (0..<2).map { _ in
            Thread { while let work = queue.next(until: { stop.load(ordering: .acquiring) }) { Self.run(work) } }
        }
        for thread in threads { thread.start() }
        for round in 0..<200 {
            let push = { for _ in 0..<(1 + round % 7) { queue.push(.closure { ran.add(1, ordering: .relaxed) }) } }
            if coalescing { WakeCoalescing.coalescingWakes(push) } else { push() }
            if round.isMultiple(of: 10) { usleep(500) }  // lets the threads fall asleep again
        }
        let expected = (0..<200).reduce(0) { $0 + 1 + $1 % 7 }
        for _ in 0..<2000 where ran.load(ordering: .relaxed) < expected { try await Task.sleep(for: .milliseconds(5)) }
        #expect(ran.load(ordering: .relaxed) == expected)
        stop.store(true, ordering: .releasing)
        queue.wake()
    }

    /// The first thread's wait ends while it sleeps; the one wake a single push sends may reach it,
    /// and it must pass the wake on rather than leave the closure queued. Twenty rounds, so a wake
    /// lost half the time cannot pass.
    @Test func aWakeTakenByAThreadWhoseWaitEndedIsPassedOn() async throws {
        for _ in 0..<20 {
            let queue = JobQueue()
            let firstDone = Atomic(false)
            let stop = Atomic(false)
            let ran = Atomic(0)
            Thread { while let work = queue.next(until: { firstDone.load(ordering: .acquiring) }) { Self.run(work) } }
                .start()
            Thread { while let work = queue.next(until: { stop.load(ordering: .acquiring) }) { Self.run(work) } }
                .start()
            try await Task.sleep(for: .milliseconds(20))  // both asleep
            firstDone.store(true, ordering: .releasing)
            queue.push(.closure { ran.add(1, ordering: .relaxed) })
            for _ in 0..<400 where ran.load(ordering: .relaxed) == 0 { try await Task.sleep(for: .milliseconds(5)) }
            #expect(ran.load(ordering: .relaxed) == 1)
            stop.store(true, ordering: .releasing)
            queue.wake()
        }
    }

    private static func run(_ work: JobQueue.Work) {
        guard case .closure(let body) = work else { return }
        body()
    }
}

/// A pool's queue adds a thread while every one is held in a callback and work waits, and the
/// added thread ends once it has been idle: a callback that blocks holds only its own thread.
@Suite struct JobQueueGrowthTests {
    @Test func heldCallbacksGetAThreadAddedWhichLeavesWhenIdle() async throws {
        let queue = JobQueue()
        let stop = Atomic(false)
        let drain: @Sendable () -> Void = {
            while let work = queue.next(until: { stop.load(ordering: .acquiring) }) {
                guard case .closure(let body) = work else { continue }
                body()
            }
        }
        queue.allowGrowth(
            JobQueue.Growth(
                baseThreads: 2, maxThreads: 8, idleTimeout: 1, startThread: { Thread(block: drain).start() }))
        for _ in 0..<2 {
            queue.threadStarted()
            Thread(block: drain).start()
        }
        let release = Atomic(false)
        let held = Atomic(0)
        for _ in 0..<2 {
            queue.push(
                .closure {
                    queue.callbackWillRun()
                    held.add(1, ordering: .relaxed)
                    while !release.load(ordering: .acquiring) { usleep(1000) }
                    queue.callbackDidReturn()
                })
        }
        for _ in 0..<2000 where held.load(ordering: .relaxed) < 2 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(held.load(ordering: .relaxed) == 2)
        // The third closure stays until the count is read, so the added thread cannot have gone
        // idle (and ended) first however slowly this task is scheduled.
        let ran = Atomic(false)
        let counted = Atomic(false)
        queue.push(
            .closure {
                ran.store(true, ordering: .releasing)
                while !counted.load(ordering: .acquiring) { usleep(1000) }
            })
        for _ in 0..<2000 where !ran.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(5)) }
        #expect(ran.load(ordering: .acquiring) == true, "a closure waited behind two held callbacks")
        #expect(queue.threadCount == 3)
        counted.store(true, ordering: .releasing)
        release.store(true, ordering: .releasing)
        for _ in 0..<4000 where queue.threadCount > 2 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(queue.threadCount == 2, "the added thread ends once idle")
        stop.store(true, ordering: .releasing)
        queue.wake()
    }
}
