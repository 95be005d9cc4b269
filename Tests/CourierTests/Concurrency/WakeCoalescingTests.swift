import Courier
import Foundation
import Synchronization
import Testing

/// `WakeCoalescing`: wakes owed during a run happen once each as it ends, and none is owed outside one.
@Suite("Wake coalescing")
struct WakeCoalescingTests {
    /// Counts the wakes it is given.
    final class CountingWaker: CoalescedWaker {
        let wakes = Atomic(0)
        func wakeOwed() { wakes.add(1, ordering: .relaxed) }
    }

    @Test func outsideARunNoWakeIsOwed() {
        let waker = CountingWaker()
        #expect(!WakeCoalescing.owesWake(waker))
        #expect(waker.wakes.load(ordering: .relaxed) == 0)
    }

    @Test func wakesOwedDuringARunHappenWhenItEnds() {
        let first = CountingWaker()
        let second = CountingWaker()
        WakeCoalescing.coalescingWakes {
            #expect(WakeCoalescing.owesWake(first))
            #expect(WakeCoalescing.owesWake(first))
            #expect(WakeCoalescing.owesWake(second))
            #expect(first.wakes.load(ordering: .relaxed) == 0, "deferred, not done")
        }
        #expect(first.wakes.load(ordering: .relaxed) == 2)
        #expect(second.wakes.load(ordering: .relaxed) == 1)
        #expect(!WakeCoalescing.owesWake(first), "the run is over")
    }

    @Test func aNestedRunLeavesTheWakesToTheOuterOne() {
        let waker = CountingWaker()
        WakeCoalescing.coalescingWakes {
            WakeCoalescing.coalescingWakes { #expect(WakeCoalescing.owesWake(waker)) }
            #expect(waker.wakes.load(ordering: .relaxed) == 0)
        }
        #expect(waker.wakes.load(ordering: .relaxed) == 1)
    }

    @Test func anotherThreadOwesNothingDuringThisOnesRun() async {
        let waker = CountingWaker()
        let owedElsewhere = Protected<Bool?>(nil)
        WakeCoalescing.coalescingWakes {
            let thread = Thread { owedElsewhere.withLock { $0 = WakeCoalescing.owesWake(waker) } }
            thread.start()
            while owedElsewhere.withLock({ $0 }) == nil { usleep(1000) }
        }
        #expect(owedElsewhere.withLock { $0 } == false)
        #expect(waker.wakes.load(ordering: .relaxed) == 0)
    }
}
