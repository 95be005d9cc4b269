package import Courier

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the current thread is doing for Courier, kept in thread-local storage.
///
/// Two facts matter: whether the thread is inside a C callback (a blocking call there would
/// deadlock, so it is refused), and which Courier executor, if any, is draining jobs on it (a
/// blocking `proceed` drains that executor while it waits instead of blocking it).
package final class ThreadRole {
    /// How many C callbacks are running on this thread, nested. Thread-confined, like the
    /// properties below, so the runtime's exclusivity check is left out.
    @exclusivity(unchecked) package var callbackDepth = 0
    /// The executor this thread is draining, innermost first.
    package var executors: [any DrainingExecutor] = []
    /// The header names C code on this thread set lately. Only this thread touches it, so the
    /// runtime's exclusivity check (a thread-local lookup per access) is left out.
    @exclusivity(unchecked) package var headerNames = FieldNameTable(capacity: 8)
    /// A request box no handle names, kept for the next exchange on this thread.
    @exclusivity(unchecked) private var spareRequestBox: RequestBox?
    /// The task that runs this thread's blocking sends, made on the first one.
    private var worker: CallerThreadWorker?

    /// This thread's send worker; a new one when `should_cancel` cancelled the last one's task.
    package var sendWorker: CallerThreadWorker {
        if let worker, !worker.isCancelled { return worker }
        worker?.finish()
        let created = CallerThreadWorker()
        worker = created
        return created
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            let role = Unmanaged<ThreadRole>.fromOpaque(pointer)
            role.takeUnretainedValue().worker?.finish()
            role.release()
        }
        return key
    }()

    /// The current thread's role, created on first use and released when the thread exits.
    package static var current: ThreadRole {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadRole>.fromOpaque(pointer).takeUnretainedValue()
        }
        let role = ThreadRole()
        pthread_setspecific(key, Unmanaged.passRetained(role).toOpaque())
        return role
    }

    /// The spare request box made to hold `request`, or a new one.
    package func takeSpareRequestBox(holding request: Request) -> RequestBox {
        guard let spare = spareRequestBox.take() else { return RequestBox(request) }
        spare.reset(holding: request)
        return spare
    }

    /// Keeps `box`, which nothing else holds, as this thread's spare.
    package func keepSpare(_ box: RequestBox) {
        if spareRequestBox == nil { spareRequestBox = box }
    }

    /// Whether a C callback is running on this thread.
    package static var isInsideCallback: Bool {
        guard let pointer = pthread_getspecific(key) else { return false }
        return Unmanaged<ThreadRole>.fromOpaque(pointer).takeUnretainedValue().callbackDepth > 0
    }

    /// The Courier executor draining jobs on this thread, if any.
    package static var drainingExecutor: (any DrainingExecutor)? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<ThreadRole>.fromOpaque(pointer).takeUnretainedValue().executors.last
    }

    /// Runs `body`, a call into C code, marked as a callback.
    @inline(__always)
    package static func inCallback<T>(_ body: () throws -> T) rethrows -> T {
        try current.inCallback(body)
    }

    /// Runs `body`, a call into C code, marked as a callback; for a caller that already holds
    /// the current thread's role. The executor this thread drains is told when the outermost
    /// callback starts and ends, since C code may block there (a pool then adds a thread).
    @inline(__always)
    package func inCallback<T>(_ body: () throws -> T) rethrows -> T {
        callbackDepth += 1
        let draining = callbackDepth == 1 ? executors.last : nil
        draining?.callbackWillRun()
        defer {
            draining?.callbackDidReturn()
            callbackDepth -= 1
        }
        return try body()
    }
}

/// An executor that a thread can drain while it waits, so a blocking wait on that thread does not
/// stop the work it waits for.
package protocol DrainingExecutor: TaskExecutor {
    /// Runs jobs on the current thread until `isDone` returns true.
    func drain(until isDone: () -> Bool)
    /// Wakes a drain so it checks its condition again.
    func wake()
    /// A thread draining this executor is about to call C code that may block.
    func callbackWillRun()
    /// The C code announced by `callbackWillRun` returned.
    func callbackDidReturn()
}

extension DrainingExecutor {
    package func callbackWillRun() {}
    package func callbackDidReturn() {}
}
