package import Synchronization

// Public imports: `withLock` is inlinable (each module specializes it; the generic entry cost more
// than the lock), so the lock's C type must be visible where it is inlined.
#if canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#elseif canImport(Darwin)
public import Darwin
#endif

/// A value behind a lock: the lock every piece of Courier's own state is taken through.
///
/// Not the standard library's `Mutex`, for one reason: on Linux that one is a priority-inheriting
/// futex holding its owner's thread ID, which each module caches per thread. A process that
/// `fork()` made keeps its forking thread's cache, with the parent's ID in it, so once another
/// thread contends for a lock that thread holds, the kernel refuses the unlock and the runtime
/// traps ("Call to unlock Mutex on a thread which hasn't acquired the lock"): a forked worker
/// that makes its own client crashed under load. This is a `pthread_mutex_t`, which glibc keeps
/// right across `fork()`, stored in place as `Mutex` stores its lock (no allocation), and which
/// ThreadSanitizer sees without annotations.
package struct Protected<Value: ~Copyable>: ~Copyable {
    @usableFromInline let mutex: _Cell<pthread_mutex_t>
    @usableFromInline let value: _Cell<Value>

    /// A lock around `initialValue`.
    package init(_ initialValue: consuming sending Value) {
        mutex = _Cell(pthread_mutex_t())
        pthread_mutex_init(mutex._address, nil)
        value = _Cell(initialValue)
    }

    deinit {
        pthread_mutex_destroy(mutex._address)
    }

    /// Runs `body` on the value while holding the lock.
    @inlinable
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex._address)
        defer { pthread_mutex_unlock(mutex._address) }
        return try body(&value._address.pointee)
    }
}

extension Protected: @unchecked Sendable where Value: ~Copyable {}
