import Foundation

/// What a `courier_call` handle names: an asynchronous send, to cancel or wait for.
final class CallBox: HandleObject, @unchecked Sendable {
    static let handleKind = HandleKind.call

    private let condition = NSCondition()
    private var task: Task<Void, Never>?
    private var isCancelled = false
    private var isDone = false

    /// Records the task running the send; cancels it at once if a cancel came first.
    func started(_ task: Task<Void, Never>) {
        condition.lock()
        self.task = task
        let cancelNow = isCancelled
        condition.unlock()
        if cancelNow { task.cancel() }
    }

    func cancel() {
        condition.lock()
        isCancelled = true
        let task = self.task
        condition.unlock()
        task?.cancel()
    }

    /// Called once the completion callback has returned.
    func finish() {
        condition.lock()
        isDone = true
        condition.unlock()
        condition.broadcast()
    }

    func wait() {
        condition.lock()
        while !isDone { condition.wait() }
        condition.unlock()
    }
}
