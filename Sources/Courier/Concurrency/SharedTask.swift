import Synchronization

/// One piece of work that several callers await, each of which may leave on its own cancellation
/// without disturbing the others: the work runs in its own task, not in any caller's.
///
/// Single flight shares a transport call this way (abandoned when every caller has left, so the
/// transfer stops), and authentication shares a credential refresh (never abandoned: the new
/// credential serves later requests). `SharedTaskState` holds the rules.
package final class SharedTask<Success: Sendable>: Sendable {
    private typealias Waiter = CheckedContinuation<Success, any Error>

    private struct Guarded {
        var machine: SharedTaskState<Success, Waiter>
        var work: Task<Void, Never>?
    }

    private let guarded: Protected<Guarded>

    /// Starts `operation` in a task of its own, with the caller as the first member.
    ///
    /// - Parameters:
    ///   - cancelsWhenAbandoned: whether the last member leaving before the result cancels the work.
    ///   - finished: runs with this task once the work has ended, before any member sees its result.
    package init(
        cancelsWhenAbandoned: Bool, operation: @escaping @Sendable () async throws -> Success,
        finished: @escaping @Sendable (SharedTask<Success>) -> Void = { _ in }
    ) {
        guarded = Protected(Guarded(machine: SharedTaskState(cancelsWhenAbandoned: cancelsWhenAbandoned)))
        let work = Task { [self] in
            let result: Result<Success, any Error>
            do {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            finished(self)
            let waiters = guarded.withLock { $0.machine.finish(result) }
            for waiter in waiters { waiter.resume(with: result) }
        }
        guarded.withLock { $0.work = work }
    }

    /// Adds a member, who must then call `value()`; `false` when every earlier member left and
    /// the work was cancelled, so the caller starts new work instead.
    package func join() -> Bool {
        guarded.withLock { $0.machine.join() }
    }

    /// The work's result, for a member; throws `CancellationError` when this member's task is
    /// cancelled first, and the work's own error when it failed.
    package func value() async throws -> Success {
        let id = guarded.withLock { $0.machine.nextWaiterID() }
        return try await withCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: Waiter) in
                let (action, work) = guarded.withLock { guarded in
                    (guarded.machine.wait(id: id, waiter: waiter, isCancelled: Task.isCancelled), guarded.work)
                }
                switch action {
                case .suspend:
                    break
                case .resume(let result):
                    waiter.resume(with: result)
                case .leave(let cancelsWork):
                    if cancelsWork { work?.cancel() }
                    waiter.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let (left, work) = guarded.withLock { guarded in (guarded.machine.cancel(id: id), guarded.work) }
            guard let left else { return }
            if left.cancelsWork { work?.cancel() }
            left.waiter.resume(throwing: CancellationError())
        }
    }
}
