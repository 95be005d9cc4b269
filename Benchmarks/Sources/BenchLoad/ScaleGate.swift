import Synchronization

/// Says whether an in-flight slot of a scale cycle may start another request.
///
/// Unlike the plain run's slots, which stop at the deadline themselves, scale slots stop only when
/// told: the measuring task takes the "during" snapshot at the deadline first and stops them
/// after, so every slot still has a request in flight when it is taken. A count still bounds the
/// requests started.
final class ScaleGate: Sendable {
    /// The most requests the cycle starts.
    let count: Int
    private let claimed = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    /// A gate that lets `count` requests start, until `stop()`.
    init(count: Int) {
        self.count = count
    }

    /// The number of the request a slot may start next, from 0; `nil` once stopped or `count` were started.
    @inline(__always)
    func claim() -> Int? {
        guard !stopped.load(ordering: .relaxed) else { return nil }
        let number = claimed.add(1, ordering: .relaxed).oldValue
        return number < count ? number : nil
    }

    /// Lets no more requests start; those in flight complete.
    func stop() {
        stopped.store(true, ordering: .relaxed)
    }
}
