#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// Tells ThreadSanitizer that what this thread made for `owner` is handed over: call it before
    /// resuming a continuation with it, and `acquired(from:)` once that continuation has returned.
    /// The concurrency runtime's own ordering of a resume is in code ThreadSanitizer does not
    /// instrument, so without the pair a response or body stream made on a transport's thread and
    /// read by the resumed task is reported as a race (seen on the curl I/O thread and on
    /// URLSession's delegate queue).
    package static func handingOver(from owner: AnyObject) {
        releasing(UnsafeRawPointer(Unmanaged.passUnretained(owner).toOpaque()))
    }

    /// The other half of `handingOver(from:)`, in the task whose continuation `owner` resumed.
    package static func acquired(from owner: AnyObject) {
        acquired(UnsafeRawPointer(Unmanaged.passUnretained(owner).toOpaque()))
    }
}
