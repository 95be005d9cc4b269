import Synchronization

/// State behind a lock, for the objects C handles name: any thread may call in at any time.
///
/// A `Mutex` stored inline, so making an object costs no separate lock allocation: C interceptor
/// exchanges create several per send.
final class Locked<State>: @unchecked Sendable {
    private let mutex = Mutex<Void>(())
    private var state: State

    init(_ state: State) { self.state = state }

    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try mutex.withLock { _ in try body(&self.state) }
    }
}
