import Foundation

/// State behind a lock, for the objects C handles name: any thread may call in at any time.
final class Locked<State>: @unchecked Sendable {
    private var state: State
    private let lock = NSLock()

    init(_ state: State) { self.state = state }

    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
