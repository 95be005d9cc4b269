public import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Mutex where Value: ~Copyable {
    /// `withLock`, with the lock's acquisition and release told to ThreadSanitizer.
    ///
    /// On Linux `Mutex` waits on a futex in the standard library's own (uninstrumented) code, so
    /// ThreadSanitizer sees no ordering between two threads that took the lock in turn and reports
    /// every access under it as a race. Courier's code takes its locks through this method, so that
    /// scripts/thread-sanitizer reports only real races. Outside a ThreadSanitizer build it costs
    /// one check of a function pointer that is `nil`. Inlinable, so that each module's call is
    /// specialized: unspecialized, its generic entry cost more than the lock itself on the C API's
    /// header-editing path.
    @inlinable
    package borrowing func withCheckedLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        // The lock's address names it to ThreadSanitizer; it is never dereferenced. A borrowed
        // noncopyable value is not copied, so this is where the lock lives while the method runs.
        let address = withUnsafePointer(to: self) { UnsafeRawPointer($0) }
        return try withLock { (value: inout sending Value) throws(E) -> sending Result in
            ThreadSanitizerAnnotations.acquired(address)
            defer { ThreadSanitizerAnnotations.releasing(address) }
            return try body(&value)
        }
    }
}

/// ThreadSanitizer's happens-before annotations, looked up once at run time: present only when the
/// program was linked with ThreadSanitizer's runtime, which exports them.
@usableFromInline
package enum ThreadSanitizerAnnotations {
    @usableFromInline
    typealias Annotation = @convention(c) (UnsafeRawPointer?) -> Void

    @usableFromInline
    static let hooks: (acquire: Annotation, release: Annotation)? = {
        guard let acquire = dlsym(nil, "__tsan_acquire"), let release = dlsym(nil, "__tsan_release") else { return nil }
        return (unsafeBitCast(acquire, to: Annotation.self), unsafeBitCast(release, to: Annotation.self))
    }()

    /// Tells ThreadSanitizer this thread now holds what was released at `address`.
    @inlinable @inline(__always)
    package static func acquired(_ address: UnsafeRawPointer) { hooks?.acquire(address) }

    /// Tells ThreadSanitizer this thread releases what it did under `address`.
    @inlinable @inline(__always)
    package static func releasing(_ address: UnsafeRawPointer) { hooks?.release(address) }
}
