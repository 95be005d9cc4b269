public import Synchronization

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
    @usableFromInline let mutex: PthreadMutex
    @usableFromInline let value: _Cell<Value>

    /// A lock around `initialValue`. Inlinable, as `withLock` is: made in another module, an
    /// unspecialized init looked up `Protected<Value>`'s metadata in the runtime on every call.
    @inlinable
    package init(_ initialValue: consuming sending Value) {
        mutex = PthreadMutex()
        value = _Cell(initialValue)
    }

    // No `deinit` here: a noncopyable struct with one of its own did not destroy its `_Cell`
    // member, and every value behind a lock leaked. The mutex's own type destroys it.

    /// Runs `body` on the value while holding the lock. (Not through `PthreadMutex.withLock`: a
    /// `sending` result cannot pass through its closure.)
    @inlinable
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex.address)
        defer { pthread_mutex_unlock(mutex.address) }
        return try body(&value._address.pointee)
    }
}

/// Unchecked `Sendable`: the value is reached only through `withLock`, under the mutex.
extension Protected: @unchecked Sendable where Value: ~Copyable {}

/// A `pthread_mutex_t` in place (the standard library's `_Cell` keeps its address fixed),
/// initialized when made and destroyed with its owner.
@usableFromInline
package struct PthreadMutex: ~Copyable {
    @usableFromInline let cell: _Cell<pthread_mutex_t>

    @inlinable
    package init() {
        cell = _Cell(pthread_mutex_t())
        pthread_mutex_init(cell._address, nil)
    }

    deinit {
        pthread_mutex_destroy(cell._address)
    }

    @inlinable
    var address: UnsafeMutablePointer<pthread_mutex_t> { cell._address }

    /// Runs `body` while holding the mutex: for a lock with no generic state, such as the one
    /// every C handle object carries (`Locked`), which a `Protected<Void>` made unspecialized in
    /// another module looked up metadata for on every object.
    @inlinable
    package borrowing func withLock<Result: ~Copyable, E: Error>(_ body: () throws(E) -> Result) throws(E) -> Result {
        pthread_mutex_lock(address)
        defer { pthread_mutex_unlock(address) }
        return try body()
    }
}
