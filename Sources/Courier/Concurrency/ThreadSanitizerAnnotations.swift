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
}
