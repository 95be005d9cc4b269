import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which process, as far as `fork()` goes, this code runs in: a number that a child process made
/// by `fork()` sees one higher than its parent did.
///
/// A child inherits its parent's memory but only the thread that forked: a transport's I/O
/// thread, a client's callback threads and SwiftNIO's event loops do not exist there, and their
/// pooled keep-alive sockets are the parent's too, so a response read there may be one the parent
/// asked for. Courier's rule is libcurl's ("a handle must not be shared across fork"), kept the way
/// gRPC keeps it: a transport or C client remembers the generation it was made in and fails every
/// send made in another at once, with `CourierError.Code.usedAfterFork`, touching none of its
/// inherited state (its locks may be held by threads that are gone, its sockets are the parent's).
/// A child makes its own clients; process-wide defaults (`CurlTransport.shared`) are made afresh.
///
/// `fork()` first brings Courier's own threads to a safe point (`ForkGate`), so that none holds a
/// lock of the Swift runtime the child would need, then takes every `ForkSafeLock` and releases
/// them on both sides, so the little a child must touch to refuse (the C library's handle table)
/// is never left locked by a thread that did not follow it into the child.
package enum ForkGeneration {
    private static let counter = Atomic<Int>(0)

    /// Registers the fork handlers once per process, before the first generation is read.
    private static let handlersRegistered: Bool = {
        pthread_atfork(
            {
                ForkGate.shared.close()
                ForkSafeLock.lockAllBeforeFork()
            },
            {
                ForkSafeLock.unlockAllAfterFork()
                ForkGate.shared.reopen(inChild: false)
            },
            {
                ForkGeneration.counter.add(1, ordering: .relaxed)
                ForkSafeLock.unlockAllAfterFork()
                ForkGate.shared.reopen(inChild: true)
            }) == 0
    }()

    /// The generation of this process: 0 in a process that never forked from one using Courier.
    package static var current: Int {
        _ = handlersRegistered
        return counter.load(ordering: .relaxed)
    }

    /// Keeps `object` alive for good without using it: what a child does with the parent's state
    /// it must neither use nor release (releasing would run its teardown: waiting for threads that
    /// are gone, closing the parent's sockets). Kept reachable, so leak checkers see no leak.
    package static func setAside(_ object: AnyObject) {
        setAsideLock.withLock { setAsideObjects.append(object) }
    }

    private static let setAsideLock = ForkSafeLock()
    nonisolated(unsafe) private static var setAsideObjects: [AnyObject] = []

    /// The error a send gets from an object made in generation `made`, or `nil` when it belongs here.
    package static func refusal(madeIn made: Int, what: String, request: Request? = nil) -> CourierError? {
        guard made != current else { return nil }
        return CourierError(
            .usedAfterFork,
            "\(what) was made in the parent of this process, which fork() made: its connections and threads "
                + "belong to the parent. Make a new one in this process (after the fork), as libcurl requires of its handles",
            request: request)
    }
}

/// A lock for process-wide state that a `fork()` never leaves held in the child (see
/// `ForkGeneration`): a `pthread_mutex_t` that the fork handlers take before the fork and release
/// on both sides, as glibc's allocator does with its own. Every one lives as long as the process.
///
/// Unchecked `Sendable`: the mutex pointer is set once and used only through pthreads; `all` is
/// read and written only while `allLock` is held.
package final class ForkSafeLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Every lock, in the order made; the fork handlers take them in that order.
    nonisolated(unsafe) private static var all: [ForkSafeLock] = []
    /// Guards `all`; taken first by the fork handlers, so no lock is made during a fork.
    nonisolated(unsafe) private static let allLock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        return lock
    }()

    package init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        _ = ForkGeneration.current  // the handlers must be in place before any fork
        pthread_mutex_lock(Self.allLock)
        Self.all.append(self)
        pthread_mutex_unlock(Self.allLock)
    }

    /// Runs `body` holding the lock.
    package func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    fileprivate static func lockAllBeforeFork() {
        pthread_mutex_lock(allLock)
        for lock in all { pthread_mutex_lock(lock.mutex) }
    }

    fileprivate static func unlockAllAfterFork() {
        for lock in all.reversed() { pthread_mutex_unlock(lock.mutex) }
        pthread_mutex_unlock(allLock)
    }
}

/// A process-wide default (the shared curl transport, the shared callback pool) made once per
/// process: in a child made by `fork()`, the parent's is set aside (kept alive and never touched:
/// its threads are gone and its sockets are the parent's) and a new one is made on first use.
package final class PerProcess<Value: Sendable>: Sendable {
    private struct Made {
        var generation: Int
        var value: Value
    }

    private let make: @Sendable () -> Value
    private let lock = ForkSafeLock()
    nonisolated(unsafe) private var made: Made?
    /// What earlier generations made: never released, since releasing could run their teardown.
    nonisolated(unsafe) private var earlier: [Value] = []

    package init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
    }

    /// The value made in this process.
    package var value: Value {
        let generation = ForkGeneration.current
        return lock.withLock {
            if let made, made.generation == generation { return made.value }
            if let made { earlier.append(made.value) }
            let value = make()
            made = Made(generation: generation, value: value)
            return value
        }
    }
}
