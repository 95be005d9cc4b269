import Courier
import CourierCInterceptors

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a `courier_call` handle names: an asynchronous send, to cancel or wait for.
///
/// The send runs on a worker task that goes on to run other sends (`AsyncSendWorkers`), so the
/// box holds the worker only until the send's outcome is known: a cancel after that must not
/// reach the worker's next send.
///
/// Unchecked `Sendable`: `phase` is read and written only while `condition`'s mutex is held.
final class CallBox: HandleObject, @unchecked Sendable {
    static let handleKind = HandleKind.call

    enum Phase: Equatable {
        /// Not yet on a worker; `cancelled` when a cancel came first.
        case starting(cancelled: Bool)
        /// On `worker`, which a cancel cancels.
        case running(worker: Task<Void, Never>)
        /// The outcome is known, so a cancel changes nothing; `completed` once the completion
        /// callback has returned, which is what `wait` waits for.
        case ended(completed: Bool)
    }

    /// What a phase change asks for, carried out under the box's lock (see `change`).
    enum Step: Equatable {
        case none
        case cancel(Task<Void, Never>)
    }

    private let condition = PthreadCondition()
    private var phase = Phase.starting(cancelled: false)
    /// The process the send runs in; a process fork() made later can neither cancel nor wait for it.
    let forkGeneration = ForkGeneration.current

    /// Records the worker running the send; cancels it at once if a cancel came first.
    func started(_ worker: Task<Void, Never>) {
        change { $0.start(on: worker) }
    }

    /// Cancels the send if its outcome is not known yet.
    func cancel() {
        change { $0.cancel() }
    }

    /// Called by the worker once the send's outcome is known, before it takes another send.
    func outcomeKnown() {
        change { $0.endSend() }
    }

    /// Called once the completion callback has returned.
    func finish() {
        change { $0.complete() }
        condition.broadcast()
    }

    func wait() {
        condition.lock()
        while phase != .ended(completed: true) { condition.wait() }
        condition.unlock()
    }

    /// Applies a transition and carries out its step under the lock: a cancel and the worker's
    /// `outcomeKnown` are ordered, so a worker that has moved on is never cancelled.
    private func change(_ transition: (inout Phase) -> Step) {
        condition.lock()
        defer { condition.unlock() }
        if case .cancel(let worker) = transition(&phase) { worker.cancel() }
    }
}

extension CallBox.Phase {
    mutating func start(on worker: Task<Void, Never>) -> CallBox.Step {
        guard case .starting(let cancelled) = self else { return .none }
        self = .running(worker: worker)
        return cancelled ? .cancel(worker) : .none
    }

    mutating func cancel() -> CallBox.Step {
        switch self {
        case .starting: self = .starting(cancelled: true)
        case .running(let worker): return .cancel(worker)
        case .ended: break
        }
        return .none
    }

    mutating func endSend() -> CallBox.Step {
        if case .ended = self { return .none }
        self = .ended(completed: false)
        return .none
    }

    mutating func complete() -> CallBox.Step {
        self = .ended(completed: true)
        return .none
    }
}
