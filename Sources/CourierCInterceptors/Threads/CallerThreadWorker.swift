package import Courier

/// One long-lived task per C thread that makes blocking sends, and the executor it runs on.
///
/// A new task per send would start with an empty task allocator and `malloc` a slab for every
/// few frames of the interceptor chain, on every send. The worker's task lives as long as its
/// thread, so its allocator's slabs are reused and a send allocates no frames after the first.
/// Only the thread that owns it touches it: it runs jobs only while that thread drains (the
/// invariant behind its unchecked `Sendable`).
package final class CallerThreadWorker: @unchecked Sendable {
    package typealias Work = @Sendable () async -> Void

    package let executor = CallerThreadExecutor()
    // Unchecked: only the owning thread touches these, one step at a time (see above), and each
    // checked access cost a runtime call on every send.
    @exclusivity(unchecked) private var work: Work?
    /// Unsafe rather than checked: resumed exactly once, by `resume`, and the checked one
    /// allocated a box and cost about a thousand instructions on every send.
    @exclusivity(unchecked) private var waiting: UnsafeContinuation<Bool, Never>?
    @exclusivity(unchecked) private var finished = false
    /// The worker's task, which a caller's `should_cancel` cancels (the worker is then replaced).
    @exclusivity(unchecked) private var task: Task<Void, Never>?
    /// Whether `should_cancel` cancelled the task: it then fails every later send, so the thread
    /// makes a new worker (`ThreadRole.sendWorker`).
    @exclusivity(unchecked) private(set) var isCancelled = false
    /// The running send's outcome: set on the worker's task, taken by `run`. One slot for the
    /// thread's life rather than one per send.
    private let outcome = Protected<Result<ResponseBox, any Error>?>(nil)

    package init() {
        task = Task(executorPreference: executor) { [self] in
            // The executor's job queue coalesces its wakes: the curl I/O thread may resume this task itself.
            await WakeCoalescing.$taskExecutorCoalesces.withValue(true) {
                while await nextWork() {
                    await work?()
                    work = nil
                }
            }
            finished = true
        }
        executor.drain(until: { waiting != nil })
    }

    /// Parks the task until `run` hands it work (`true`) or the thread exits (`false`).
    private func nextWork() async -> Bool {
        await withUnsafeContinuation { waiting = $0 }
    }

    /// Runs `operation` on the worker's task, on this thread, and returns its result.
    ///
    /// With `shouldCancel`, the thread asks it every 100 ms it waits for work; `true` cancels the
    /// worker's task, and so the operation (once; the thread then makes a new worker). Nothing is
    /// made per send for it: a send driven on this thread asks the same check while curl waits.
    ///
    /// Not generic, and the outcome goes into the worker's own slot: a generic `run` across
    /// modules, with a `ResultSlot<T>` per send, looked up `Result<T, any Error>`'s metadata in the
    /// runtime's cache about twenty times per send (some 10,000 instructions, 7% of a blocking send).
    package func run(
        checking shouldCancel: (@Sendable () -> Bool)? = nil,
        _ operation: @escaping @Sendable () async throws -> ResponseBox
    ) -> Result<ResponseBox, any Error> {
        work = { [self] in
            let result: Result<ResponseBox, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
        }
        resume(with: true)
        if let shouldCancel {
            executor.drain(until: { hasOutcome && waiting != nil }, checkingEvery: 0.1) { [self] in
                guard !isCancelled, shouldCancel() else { return }
                isCancelled = true
                task?.cancel()
            }
        } else {
            executor.drain(until: { hasOutcome && waiting != nil })
        }
        return outcome.withLock { outcome in
            defer { outcome = nil }
            return outcome!
        }
    }

    private var hasOutcome: Bool { outcome.withLock { $0 != nil } }

    /// Lets the task end; called as the thread exits.
    package func finish() {
        guard !finished else { return }
        resume(with: false)
        executor.drain(until: { finished })
    }

    private func resume(with hasWork: Bool) {
        let continuation = waiting
        waiting = nil
        continuation?.resume(returning: hasWork)
    }
}
