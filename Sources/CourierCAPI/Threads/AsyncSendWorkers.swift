import Courier
import CourierCInterceptors

/// Long-lived tasks that run a client's asynchronous sends, one send at a time each.
///
/// A new task per `courier_client_send_async` started with an empty task allocator, `malloc`ed a
/// slab for every few frames of the pipeline and freed them all as it ended: 11 of a send's 74
/// allocations at 32 in flight. A worker parks between sends and keeps its slabs, as
/// `CallerThreadWorker` does for blocking sends. There are as many workers as sends have run at
/// once; up to `maxParked` wait for the next, and the rest end.
///
/// A `courier_call_cancel` cancels the worker's task, which Swift cannot undo, so a worker whose
/// task was cancelled ends after that send instead of parking. `CallBox` lets go of the worker as
/// soon as its send's outcome is known, so a late cancel never reaches the worker's next send.
final class AsyncSendWorkers: Sendable {
    /// One send: the pipeline, then the completion's delivery.
    typealias Send = @Sendable () async -> Void

    /// A worker's task handle, for the `CallBox` of each send it runs.
    private final class Worker: @unchecked Sendable {
        /// Set under `phase`'s lock as the task is created, so it is set before the task can park;
        /// read only under that lock after (the reason the class is unchecked `Sendable`).
        var task: Task<Void, Never>?
    }

    private struct Parked {
        let worker: Worker
        let next: UnsafeContinuation<Send?, Never>
    }

    private enum Phase {
        /// Taking sends; `parked` workers wait for one, the most recently parked last.
        case open(parked: [Parked])
        /// The client was freed: workers end once their send has.
        case closed
    }

    /// The most workers that wait for a send; a worker finishing while this many wait ends.
    static let maxParked = 256

    private let pool: CallbackPool
    private let phase = Locked<Phase>(.open(parked: []))

    init(pool: CallbackPool) {
        self.pool = pool
    }

    /// Runs `send` on a parked worker, or on a new one when none waits; tells `call` which task
    /// runs it. Returns false, running nothing, once the workers are closed.
    ///
    /// The caller has counted the send on the pool (`CallbackPool.begin`), which keeps the pool's
    /// threads alive until it ends; each worker holds a count of its own while it lives.
    func run(_ send: @escaping Send, reportingTo call: CallBox?) -> Bool {
        enum Taken {
            case parked(Parked)
            case created(Task<Void, Never>)
            case refused
        }
        let taken = phase.withLock { phase -> Taken in
            guard case .open(var parked) = phase else { return .refused }
            if let waiting = parked.popLast() {
                phase = .open(parked: parked)
                return .parked(waiting)
            }
            guard pool.begin() else { return .refused }
            let worker = Worker()
            let task = Task(executorPreference: pool) {
                // The pool's job queue coalesces its wakes: the curl I/O thread may resume these sends itself.
                await WakeCoalescing.$taskExecutorCoalesces.withValue(true) {
                    await self.work(as: worker, startingWith: send)
                }
            }
            worker.task = task
            return .created(task)
        }
        switch taken {
        case .parked(let waiting):
            if let task = waiting.worker.task { call?.started(task) }
            waiting.next.resume(returning: send)
        case .created(let task):
            call?.started(task)
        case .refused:
            return false
        }
        return true
    }

    /// Ends the parked workers, and every other one once its send has ended.
    func close() {
        let parked = phase.withLock { phase -> [Parked] in
            guard case .open(let parked) = phase else { return [] }
            phase = .closed
            return parked
        }
        for waiting in parked { waiting.next.resume(returning: nil) }
    }

    /// How many workers wait for a send now.
    var parkedCount: Int {
        phase.withLock { phase in
            guard case .open(let parked) = phase else { return 0 }
            return parked.count
        }
    }

    private func work(as worker: Worker, startingWith first: @escaping Send) async {
        var next: Send? = first
        while let send = next {
            await send()
            // Cancelled through a call handle: this task stays cancelled, so it takes no more sends.
            guard !Task.isCancelled else { break }
            next = await park(worker)
        }
        pool.end()
    }

    /// Waits for the next send; `nil` when the worker should end instead.
    private func park(_ worker: Worker) async -> Send? {
        await withUnsafeContinuation { next in
            let parks = phase.withLock { phase -> Bool in
                guard case .open(var parked) = phase, parked.count < Self.maxParked else { return false }
                parked.append(Parked(worker: worker, next: next))
                phase = .open(parked: parked)
                return true
            }
            if !parks { next.resume(returning: nil) }
        }
    }
}
