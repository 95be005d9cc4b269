import Synchronization
import Testing

@testable import Courier

/// `Protected`, the lock every piece of Courier's state is taken through.
@Suite struct ProtectedTests {
    /// Counts releases.
    final class Tally: Sendable {
        let released = Atomic(0)
    }

    /// Notes its release, so a test can see a value behind a lock go with its owner.
    final class Canary: Sendable {
        let tally: Tally
        init(counting tally: Tally) { self.tally = tally }
        deinit { tally.released.add(1, ordering: .relaxed) }
    }

    final class Owner: Sendable {
        let state: Protected<[Canary]>
        init(_ canaries: [Canary]) { state = Protected(canaries) }
    }

    /// A struct with a `deinit` of its own once left its value undestroyed: every value behind a
    /// lock leaked, and a C program's request body was never released (found by the
    /// ThreadSanitizer run, whose timing made the leak visible).
    @Test func theValueIsReleasedWithItsOwner() {
        let tally = Tally()
        do {
            let owner = Owner([Canary(counting: tally)])
            owner.state.withLock { $0.append(Canary(counting: tally)) }
            #expect(tally.released.load(ordering: .relaxed) == 0)
        }
        #expect(tally.released.load(ordering: .relaxed) == 2)
    }

    final class Counter: Sendable {
        let total = Protected(0)
    }

    @Test func threadsTakeTheLockInTurn() async {
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<1000 { counter.total.withLock { $0 += 1 } }
                }
            }
        }
        #expect(counter.total.withLock { $0 } == 8000)
    }
}
