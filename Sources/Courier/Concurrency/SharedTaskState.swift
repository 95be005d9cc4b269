/// The phases of a `SharedTask`, as a value its owner drives under a lock: each event returns what
/// the owner must do (resume a waiter, cancel the work), so the rules are tested without tasks.
///
/// A member is a caller that joined; a waiter is a member suspended for the result. A member
/// leaves early only through its own cancellation. When the last member leaves before the result
/// and the task cancels when abandoned (single flight), the work is cancelled and no one may join
/// again, so a later caller starts fresh work instead of inheriting a cancelled one.
struct SharedTaskState<Success: Sendable, Waiter> {
    enum Phase {
        /// The work runs; `members` callers joined, `waiters` of them (by id) are suspended.
        case running(members: Int, waiters: [Int: Waiter])
        /// The work ended; a member that asks now gets this at once.
        case finished(Result<Success, any Error>)
        /// Every member left before the result and the work was cancelled; no one may join.
        case abandoned
    }

    /// What a member asking for the result does.
    enum WaitAction {
        /// Stay suspended: the waiter is kept and resumed by `finish` or `cancel`.
        case suspend
        /// Resume at once with this result.
        case resume(Result<Success, any Error>)
        /// The member was cancelled before it could wait: it leaves, and cancels the work if it was the last.
        case leave(cancelsWork: Bool)
    }

    private(set) var phase: Phase
    /// Whether the last member leaving before the result cancels the work.
    let cancelsWhenAbandoned: Bool
    private var lastWaiterID = 0

    /// A running task whose creator is its first member.
    init(cancelsWhenAbandoned: Bool) {
        self.cancelsWhenAbandoned = cancelsWhenAbandoned
        phase = .running(members: 1, waiters: [:])
    }

    /// Adds a member; `false` when the work was abandoned and must not be joined.
    mutating func join() -> Bool {
        switch phase {
        case .running(let members, let waiters):
            phase = .running(members: members + 1, waiters: waiters)
            return true
        case .finished:
            return true
        case .abandoned:
            return false
        }
    }

    /// An id for a member about to wait, so its cancellation finds its waiter.
    mutating func nextWaiterID() -> Int {
        lastWaiterID += 1
        return lastWaiterID
    }

    /// A member asks for the result with `waiter`; `isCancelled` says its task is already cancelled.
    mutating func wait(id: Int, waiter: Waiter, isCancelled: Bool) -> WaitAction {
        switch phase {
        case .finished(let result):
            return .resume(result)
        case .abandoned:
            return .leave(cancelsWork: false)
        case .running(let members, var waiters):
            if isCancelled { return .leave(cancelsWork: leave(members: members, waiters: waiters)) }
            waiters[id] = waiter
            phase = .running(members: members, waiters: waiters)
            return .suspend
        }
    }

    /// The member waiting as `id` was cancelled: its waiter, to resume with the cancellation, and
    /// whether the work must be cancelled; `nil` when it is not waiting (the result came first).
    mutating func cancel(id: Int) -> (waiter: Waiter, cancelsWork: Bool)? {
        guard case .running(let members, var waiters) = phase,
            let waiter = waiters.removeValue(forKey: id)
        else { return nil }
        return (waiter, leave(members: members, waiters: waiters))
    }

    /// The work ended: every suspended waiter, to resume with `result`. After abandonment, none.
    mutating func finish(_ result: Result<Success, any Error>) -> [Waiter] {
        guard case .running(_, let waiters) = phase else { return [] }
        phase = .finished(result)
        return Array(waiters.values)
    }

    /// Drops one member from a running task (its waiter already removed); whether that abandons it.
    private mutating func leave(members: Int, waiters: [Int: Waiter]) -> Bool {
        let remaining = members - 1
        if remaining == 0, cancelsWhenAbandoned {
            phase = .abandoned
            return true
        }
        phase = .running(members: remaining, waiters: waiters)
        return false
    }
}
