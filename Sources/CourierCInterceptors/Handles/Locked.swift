package import Courier
package import Synchronization

/// State behind a lock, for the objects C handles name: any thread may call in at any time.
///
/// The handle objects subclass it, so the lock and the state live in the object itself: a C
/// interceptor crossing creates two such objects and no separate lock allocations.
///
/// Unchecked `Sendable`: `lockedState` is touched only inside `withLock`. A subclass adds only
/// `let`s of `Sendable` types and restates the conformance (Swift requires it of a subclass).
package class Locked<State>: @unchecked Sendable {
    private let mutex = PthreadMutex()
    /// Only touched under `mutex`, which already gives exclusive access: the runtime's exclusivity
    /// check on this class property would cost a thread-local lookup on every call.
    @exclusivity(unchecked) private var lockedState: State

    package init(_ state: State) { self.lockedState = state }

    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try mutex.withLock { try body(&self.lockedState) }
    }
}
